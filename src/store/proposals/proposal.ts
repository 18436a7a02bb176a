/**
 * A proposal of a checked change (GIT_SYNC): the edit a PATCH would make (edit/network-edit.ts),
 * made on the network's file as the tracked branch's remote head holds it, committed as the PATCH's
 * commit would be (same author, subject and trailers) and pushed to the actor's branch for the
 * network (proposal-branch.ts, proposal-name.ts). Nothing served changes: no file is written.
 * Edited on the remote's version, the commit holds the change alone even when the clone is a pull
 * behind; an If-Match that the remote's version no longer matches is 412, after a pull, so a GET then serves it.
 * A new network is proposed alike: the file a create would write, committed where the remote holds none.
 */
import path from 'node:path';
import { NetcfgError } from '../../errors.js';
import { authorLineOf, commitMessage, type Actor, type WriteNote } from '../actor.js';
import { candidatesOf, type NetworkId } from '../files/layout.js';
import { networkOf, type NetworkRecord } from '../network-record.js';
import type { UrlPolicy } from '../validation/url-rules.js';
import { addSubject, requireCreatable, type CreateRequest, type StoreState } from '../create/network-creator.js';
import { newNetworkText } from '../create/new-network.js';
import { planEdit, requireIfMatch, updateSubject, type EditPlan } from '../edit/network-edit.js';
import type { PatchChecks } from '../write/patch-checks.js';
import type { UrlFinding } from '../write/url-check.js';
import type { BaseFile, ProposalBranches, ProposalCommit, Proposed } from './proposal-branch.js';
import { proposalBranchOf } from './proposal-name.js';
import { pathInClone } from '../git/write-queue.js';
import type { GitAuthor } from '../git/work-tree.js';
import type { NetworkIndex } from '../index/network-index.js';

export interface ProposerParts {
  /** The store's git: GIT_SYNC's proposal branches (NOT_IMPLEMENTED without it), and a pull. */
  git: { requireProposals(): ProposalBranches; pull(): Promise<void> };
  /** What a pull brought is served once the watcher refreshed the files that changed. */
  watcher: { refreshChanged(): void; whenIdle(): Promise<void> };
  /** update()'s checks of a PATCH. */
  checks: PatchChecks;
  /** The version served of a network; NETWORK_NOT_FOUND when there is none. */
  served(id: string): NetworkRecord;
  /** What a create checks first (write/network-creator.ts): whether writes are taken, and which networks are served. */
  state: StoreState;
  index: Pick<NetworkIndex, 'get'>;
  /** The config folder: its real path, inside the clone. */
  folder: { forWriting(): string };
  policy: UrlPolicy;
  /** netcfg's git identity: the commit's committer, and the operator's author (actor.ts). */
  author: GitAuthor;
}

/** How a proposal is made: as update()'s `how`, and the oid the caller last saw at the proposal's branch ('' none), for its lease. */
export interface ProposeOptions {
  revealSecrets?: boolean;
  /** It may add a secret reference or change which variable one names (reveal_secrets or admin). */
  changeReferences?: boolean;
  note?: WriteNote;
  expected?: string;
}

export interface ProposalRequest {
  id: NetworkId;
  /** Top-level fields to replace, already checked as a PATCH's are. */
  changes: Record<string, unknown>;
  ifMatch: string | undefined;
  actor: Actor;
  note?: WriteNote | undefined;
  /** The version served now (its rpc_urls are the proposal's "before"). */
  served: NetworkRecord;
  /** The oid the caller last saw at the proposal's branch ('' for none); by default the remote's answer right before the push. */
  expected?: string | undefined;
}

/** What a route needs of a proposal: where it went, and the change, masked as served. */
export interface Proposal extends Proposed {
  /** The network's id. */
  network: string;
  /** The commit's subject: the pull request's title. */
  subject: string;
  /** rpc_urls as served now, and as the proposal makes them, each secret masked as served. */
  old_rpc_urls: unknown;
  new_rpc_urls: unknown;
  /** RPC_PROBE_ON_PATCH: what the new URLs answered that was not fine. */
  findings: UrlFinding[];
}

/** What a proposal's edit made, or that the remote's version failed its If-Match. */
interface Edited {
  record?: NetworkRecord;
  subject?: string;
  remoteMoved?: boolean;
}

export class Proposer {
  constructor(private readonly parts: ProposerParts) {}

  /**
   * Checks a PATCH body as update() does, If-Match against the version served before the remote is
   * asked anything, then proposes it. The URL check's findings come with the proposal.
   */
  async propose(
    id: string,
    body: unknown,
    ifMatch: string | undefined,
    actor: Actor,
    how: ProposeOptions = {},
  ): Promise<Proposal> {
    const branches = this.parts.git.requireProposals();
    const { networkId, changes } = this.parts.checks.checked(id, body, {
      reveal: how.revealSecrets === true,
      changeReferences: how.changeReferences === true,
    });
    const served = this.parts.served(networkId.id);
    requireIfMatch(networkId, ifMatch, served.etag);
    const findings = await this.parts.checks.urlFindings(networkId, changes, ifMatch);
    const request = { id: networkId, changes, ifMatch, actor, note: how.note, served, expected: how.expected };
    return { ...(await this.proposeChange(branches, request)), findings };
  }

  /**
   * A new network's file, as create() would write it (write/new-network.ts), committed on the actor's branch for
   * it where the remote head holds no file of it; NETWORK_EXISTS when it is served or the remote holds one.
   */
  async proposeCreate(request: CreateRequest, expected?: string): Promise<Proposal> {
    const branches = this.parts.git.requireProposals();
    const { id, actor, note } = request;
    const made = newNetworkText(id, request.fields, request.comment, this.parts.policy);
    requireCreatable(this.parts.state, this.parts.index, id);
    const commit = (file: BaseFile | null): ProposalCommit => {
      if (file !== null)
        throw new NetcfgError(
          'NETWORK_EXISTS',
          `${id.id} exists already on ${branches.upstream} (${file.rel}); PATCH it once it is served. Nothing was proposed.`,
        );
      return {
        text: made.text,
        message: commitMessage(addSubject(id), actor, note),
        author: authorLineOf(actor, this.parts.author),
      };
    };
    const proposed = await this.commitOnBranch(branches, id, actor, expected, commit);
    const subject = note?.subject ?? addSubject(id);
    return {
      ...proposed,
      network: id.id,
      subject,
      old_rpc_urls: [],
      new_rpc_urls: networkOf(made.record).rpc_urls,
      findings: [],
    };
  }

  /**
   * The seam every proposal goes through: `make`'s commit of the network's file (as the remote head holds it, its
   * path from the config folder; null: it holds none) on top of that head, pushed to the actor's branch for the network.
   */
  private commitOnBranch(
    branches: ProposalBranches,
    id: NetworkId,
    actor: Actor,
    expected: string | undefined,
    make: (file: BaseFile | null) => ProposalCommit,
  ): Promise<Proposed> {
    const folderInClone = pathInClone(branches.top, this.parts.folder.forWriting());
    return branches.propose({
      branch: proposalBranchOf(actor, id),
      paths: candidatesOf(id).map(({ rel }) => path.posix.join(folderInClone, rel)),
      make: (file) => make(file && { ...file, rel: path.posix.relative(folderInClone, file.rel) }),
      expected,
    });
  }

  /** Commits `request`'s change on top of the remote head and pushes it to the actor's proposal branch. */
  private async proposeChange(
    branches: ProposalBranches,
    request: ProposalRequest,
  ): Promise<Omit<Proposal, 'findings'>> {
    const { id, actor } = request;
    const edited: Edited = {};
    const make = (file: BaseFile | null) => this.edit(branches.upstream, request, file, edited);
    try {
      const proposed = await this.commitOnBranch(branches, id, actor, request.expected, make);
      const [record, subject] = [edited.record as NetworkRecord, edited.subject as string]; // make() ran: the push went out
      return {
        ...proposed,
        network: id.id,
        subject,
        old_rpc_urls: networkOf(request.served).rpc_urls,
        new_rpc_urls: networkOf(record).rpc_urls,
      };
    } catch (err) {
      if (!edited.remoteMoved) throw err;
      // The remote changed the file since the version served: pulled and served first (not waiting for the
      // watcher's events), so the client's GET finds the new ETag.
      await this.parts.git
        .pull()
        .then(() => (this.parts.watcher.refreshChanged(), this.parts.watcher.whenIdle()))
        .catch(() => undefined);
      const message = `${id.id} was changed on ${branches.upstream} since the ETag in If-Match was read; GET it again and retry with the new ETag.`;
      throw new NetcfgError('PRECONDITION_FAILED', message, { etag: (err as NetcfgError).etag, cause: err });
    }
  }

  /** The commit a PATCH would make of `file` (its path from the config folder), as the remote head holds it; what it made goes in `edited`. */
  private edit(upstream: string, request: ProposalRequest, file: BaseFile | null, edited: Edited): ProposalCommit {
    const { id, actor, note } = request;
    if (file === null)
      throw new NetcfgError(
        'NETWORK_NOT_FOUND',
        `${id.id} is no longer on ${upstream} (deleted there); nothing was proposed.`,
      );
    let plan: EditPlan;
    try {
      plan = planEdit(id, file.rel, file.bytes, request.changes, request.ifMatch, this.parts.policy);
    } catch (err) {
      edited.remoteMoved = err instanceof NetcfgError && err.code === 'PRECONDITION_FAILED';
      throw err;
    }
    if (plan.kind === 'invalid') throw plan.refusal;
    if (plan.kind === 'same')
      throw new NetcfgError(
        'BAD_REQUEST',
        `${id.id} on ${upstream} holds these values already; there is nothing to propose.`,
      );
    const subject = updateSubject(id, plan.fields);
    Object.assign(edited, { record: plan.record, subject: note?.subject ?? subject });
    return {
      text: plan.text,
      message: commitMessage(subject, actor, note),
      author: authorLineOf(actor, this.parts.author),
    };
  }
}
