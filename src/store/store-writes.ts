/**
 * The store's writes: a PATCH (update), a new network (create) and a proposal, each checked the
 * same way first (patch-checks.ts). The writer and the creator are built once git is open, with the
 * write strategy its open() gives; until then, and from close() on, the checks refuse every write.
 */
import type { Actor, WriteNote } from './actor.js';
import type { GitAuthor } from './git/work-tree.js';
import type { NetworkRecord } from './network-record.js';
import { Proposer, type Proposal, type ProposeOptions } from './proposals/proposal.js';
import { WriteOutcomes } from './retries.js';
import type { StoreGit } from './store-git.js';
import { rightsOf, type Updated, type WriteHow } from './store-options.js';
import type { ConfigWatcher } from './watch/watcher.js';
import { requireNetworkId } from './files/layout.js';
import { NetworkCreator } from './create/network-creator.js';
import { NetworkWriter } from './write/network-writer.js';
import { PatchChecks } from './write/patch-checks.js';
import type { UrlCheck } from './write/url-check.js';
import type { WriterParts, WriteStrategy } from './write/write-strategy.js';

export interface StoreWriteParts {
  /** What the writer is built with, but the write strategy git's open() gives. */
  writer: Omit<WriterParts, 'strategy'>;
  git: StoreGit;
  watcher: ConfigWatcher;
  /** RPC_PROBE_ON_PATCH: the URLs of a PATCH asked which chain they serve before the write. */
  urlCheck: UrlCheck | undefined;
  /** netcfg's git identity, for a proposal's commit. */
  author: GitAuthor;
  /** Whether the store has loaded its folder: writes wait for it. */
  loaded(): boolean;
  /** The version served of a network; NETWORK_NOT_FOUND when there is none. */
  served(id: string): NetworkRecord;
}

export class StoreWrites {
  /** Built once git is open (GIT_SYNC's clone reset to its remote), with where a write goes: until then writes wait. */
  private writer: NetworkWriter | null = null;
  /** create(): a new network's file, written as a PATCH is (write/network-creator.ts); built with the writer. */
  private creator: NetworkCreator | null = null;
  /** Set by close(): new writes are refused. */
  private closing = false;
  /** What update() and propose() check of a PATCH first (patch-checks.ts). */
  private readonly checks: PatchChecks;
  /** GIT_SYNC's proposals: update()'s checks, then a commit pushed to a branch of its own (proposals/proposal.ts). */
  private readonly proposer: Proposer;
  private readonly outcomes = new WriteOutcomes();

  constructor(private readonly parts: StoreWriteParts) {
    const { index, policy, folder } = parts.writer;
    this.checks = new PatchChecks({ index, policy, urlCheck: parts.urlCheck, state: () => this.state() });
    const { git, watcher, served, author } = parts;
    const state = () => this.state();
    this.proposer = new Proposer({ git, watcher, checks: this.checks, served, state, index, folder, policy, author });
  }

  /** Git is open: writes go where `strategy` says from now on. */
  open(strategy: WriteStrategy): void {
    const parts = { ...this.parts.writer, strategy };
    this.writer = new NetworkWriter(parts);
    this.creator = new NetworkCreator(parts, () => this.state());
  }

  /** The store is closing: every write from now on is refused. */
  close(): void {
    this.closing = true;
  }

  /** The last write the disk refused, for readiness (null before git is open). */
  failure(): ReturnType<NetworkWriter['failure']> | null {
    return this.writer?.failure() ?? null;
  }

  /** Writes by outcome since start. */
  counts(): ReturnType<WriteOutcomes['snapshot']> {
    return this.outcomes.snapshot();
  }

  /** Whether writes are taken now, as the checks of a PATCH and a create read it. */
  private state() {
    return {
      closing: this.closing,
      writesOpen: this.writer !== null,
      loaded: this.parts.loaded(),
      git: this.parts.git.gitSync?.refusal() ?? null,
    };
  }

  /** NetworkStore.update(): checked, its URLs asked, then written by the writer; counted. */
  update(id: string, body: unknown, ifMatch: string | undefined, actor: Actor, how: WriteHow): Promise<Updated> {
    return this.outcomes.track(
      (async () => {
        const { networkId, changes } = this.checks.checked(id, body, rightsOf(how));
        const findings = await this.checks.urlFindings(networkId, changes, ifMatch);
        // checked() refuses every write until the writer is built: it is there now.
        const writer = this.writer as NetworkWriter;
        return {
          record: await writer.update({ id: networkId, changes, ifMatch, actor, note: how.note }),
          findings,
        };
      })(),
    );
  }

  /** NetworkStore.create(): a new network's file, written and served; counted. */
  create(
    id: string,
    fields: Record<string, unknown>,
    comment: string[],
    actor: Actor,
    note?: WriteNote,
  ): Promise<NetworkRecord> {
    return this.outcomes.track(
      (async () =>
        (this.creator as NetworkCreator).create({ id: requireNetworkId(id), fields, comment, actor, note }))(),
    );
  }

  /** NetworkStore.proposeUpdate(): update()'s change, checked alike, pushed to a branch of its own. */
  propose(
    id: string,
    body: unknown,
    ifMatch: string | undefined,
    actor: Actor,
    how: ProposeOptions,
  ): Promise<Proposal> {
    return this.proposer.propose(id, body, ifMatch, actor, how);
  }

  /** NetworkStore.proposeCreate(): create()'s new network, checked alike, its file committed on a branch of its own. */
  proposeCreate(
    id: string,
    fields: Record<string, unknown>,
    comment: string[],
    actor: Actor,
    note?: WriteNote,
  ): Promise<Proposal> {
    return this.proposer.proposeCreate({ id: requireNetworkId(id), fields, comment, actor, note });
  }
}
