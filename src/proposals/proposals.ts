/**
 * Proposals (GIT_PROPOSALS): a checked change pushed to the actor's branch by the store, then opened
 * (or updated) as a pull request on the forge. Nothing is left half done: a branch pushed new for a
 * pull request that could not be opened is deleted again, so no branch points at a change nobody can
 * see. The routes ask this service and never see git or a forge; it is built once in main.ts.
 */
import { NetcfgError } from '../errors.js';
import { createOrUpdate, type Forge, type Proposal as PullRequest } from '../forge/forge.js';
import {
  actorLabel,
  type Actor,
  parseProposalBranch,
  PROPOSAL_PREFIX,
  type NetworkStore,
  type Proposal,
  type ProposeOptions,
  type UrlFinding,
} from '../store/index.js';
import { addProposalBody, proposalBody, type Verdict } from './proposal-body.js';

export type ProposalStore = Pick<NetworkStore, 'proposeUpdate' | 'proposeCreate' | 'proposalBase' | 'withdrawProposal'>;

/** A new network to propose: its fields and file comment as POST /api/v1/networks planned them, and where they came from. */
export interface CreateProposal {
  id: string;
  fields: Record<string, unknown>;
  comment: string[];
  actor: Actor;
  /** The registry entry its values came from (null: the body alone). */
  registry: { source: string; entry: string; date: string } | null;
  /** Each candidate URL's verdict. */
  candidates: Verdict[];
}

export interface ProposalsParts {
  store: ProposalStore;
  forge: Forge;
  /** GIT_PROPOSE_ONLY: every change through netcfg is a proposal. */
  proposeOnly: boolean;
  /** RPC_PROBE_ON_PATCH is on: the new URLs were asked, and their verdicts go in the pull request. */
  probed: boolean;
  /** Told what could not be cleaned up (logged): the answer is the forge's error either way. */
  onError?: (err: unknown, message: string) => void;
}

/** What a PATCH that proposed answers: the pull request opened or updated. */
export interface OpenedProposal {
  number: number;
  url: string;
  branch: string;
  network: string;
  state: PullRequest['state'];
  /** True when an open pull request of this branch was updated, false when one was opened. */
  updated: boolean;
  commit: string;
}

/** An open proposal netcfg made, as listed. */
export interface ListedProposal {
  number: number;
  url: string;
  branch: string;
  network: string;
  /** The actor's part of the branch name (a token's name as it is). */
  actor: string;
  title: string;
  created_at: string;
  updated_at: string;
}

/** Readiness' `proposals` component: what the forge last answered (the start's check, then every call). */
interface ForgeState {
  status: 'pending' | 'healthy' | 'degraded';
  problem: string | null;
  checked_at: string | null;
}

export class Proposals {
  private state: ForgeState = { status: 'pending', problem: null, checked_at: null };

  constructor(private readonly parts: ProposalsParts) {}

  get proposeOnly(): boolean {
    return this.parts.proposeOnly;
  }

  /** Asks the forge whether the token and the repository are good (at start): the problem, or null; it shows in readiness, never stops netcfg. */
  async check(): Promise<string | null> {
    await this.heard(this.parts.forge.check()).catch(() => undefined);
    return this.state.problem;
  }

  /** Readiness' `proposals` component: the forge and its last answer; the token is never in it. */
  component(): Record<string, unknown> {
    return {
      status: this.state.status,
      forge: this.parts.forge.kind,
      problem: this.state.problem,
      checked_at: this.state.checked_at,
    };
  }

  /** The change checked and pushed to the actor's branch, then its pull request opened or updated; what the URLs answered comes with it. */
  async propose(
    id: string,
    body: unknown,
    ifMatch: string | undefined,
    actor: Actor,
    how: ProposeOptions = {},
  ): Promise<{ proposal: OpenedProposal; findings: UrlFinding[] }> {
    const made = await this.parts.store.proposeUpdate(id, body, ifMatch, actor, how);
    const description = proposalBody({ proposal: made, actor: actorLabel(actor), probed: this.parts.probed });
    return { proposal: await this.open(made, description), findings: made.findings };
  }

  /** A new network's file pushed to the actor's branch for it, then its pull request opened or updated, saying where its values came from. */
  async proposeCreate(request: CreateProposal): Promise<{ proposal: OpenedProposal; findings: UrlFinding[] }> {
    const { id, fields, comment, actor, registry, candidates } = request;
    const made = await this.parts.store.proposeCreate(id, fields, comment, actor);
    const description = addProposalBody({ proposal: made, actor: actorLabel(actor), registry, candidates });
    return { proposal: await this.open(made, description), findings: [] };
  }

  /** The pull request of a branch just pushed, opened or updated; the push taken back when the forge fails. */
  private async open(made: Proposal, description: string): Promise<OpenedProposal> {
    const request = {
      branch: made.branch,
      base: this.parts.store.proposalBase(),
      title: made.subject,
      body: description,
    };
    let opened: { proposal: PullRequest; created: boolean };
    try {
      opened = await this.heard(createOrUpdate(this.parts.forge, request));
    } catch (err) {
      throw await this.takeBack(err, made.branch, made.commit, made.previous);
    }
    const { number, url, state } = opened.proposal;
    const { branch, network, commit } = made;
    return { number, url, branch, network, state, updated: !opened.created, commit };
  }

  /** The open proposals netcfg made whose network `scope` lets through (null: all), by network then number. */
  async list(scope: ((id: string) => boolean) | null): Promise<ListedProposal[]> {
    const open = await this.heard(this.parts.forge.listOpen(`${PROPOSAL_PREFIX}/`));
    const listed: ListedProposal[] = [];
    for (const pull of open) {
      const parsed = parseProposalBranch(pull.branch);
      if (parsed === null || (scope !== null && !scope(parsed.network))) continue;
      const { number, url, branch, title, created_at, updated_at } = pull;
      listed.push({ number, url, branch, network: parsed.network, actor: parsed.actor, title, created_at, updated_at });
    }
    return listed.sort((a, b) => a.network.localeCompare(b.network) || a.number - b.number);
  }

  /** The open proposals of one network. */
  async forNetwork(id: string): Promise<ListedProposal[]> {
    return this.list((network) => network === id);
  }

  /**
   * A pull request that could not be opened: a branch this push made is deleted (with a lease on the
   * commit pushed); one that was there before is left for the next attempt, since deleting it would
   * close the pull request already open on it. The answer is the forge's error, saying which.
   */
  private async takeBack(err: unknown, branch: string, commit: string, previous: string): Promise<unknown> {
    let done: string;
    if (previous !== '') {
      done = `${branch} holds the change and its open pull request was not updated; the next proposal reuses the branch.`;
    } else {
      done = `Nothing was proposed: ${branch} was deleted again.`;
      await this.parts.store.withdrawProposal(branch, commit).catch((cleanup: unknown) => {
        done = `Nothing was proposed, but ${branch} could not be deleted again; the next proposal reuses it.`;
        this.parts.onError?.(cleanup, `the proposal branch ${branch} could not be deleted after the forge failed`);
      });
    }
    if (!(err instanceof NetcfgError)) return err;
    return new NetcfgError(err.code, `${err.message} ${done}`, {
      retryAfterSeconds: err.retryAfterSeconds,
      cause: err,
    });
  }

  /** The forge's answer to `call`, remembered for readiness: a refusal or an outage makes the component degraded with its sentence. */
  private async heard<T>(call: Promise<T>): Promise<T> {
    try {
      const answer = await call;
      this.state = { status: 'healthy', problem: null, checked_at: new Date().toISOString() };
      return answer;
    } catch (err) {
      if (err instanceof NetcfgError && (err.code === 'FORGE_REFUSED' || err.code === 'FORGE_UNAVAILABLE')) {
        this.state = { status: 'degraded', problem: err.message, checked_at: new Date().toISOString() };
      }
      throw err;
    }
  }
}
