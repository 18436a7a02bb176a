/**
 * The store's create: a new network's file written as a PATCH is, under the same locks (the
 * network's turn in this process and its cross-process lock; with GIT_SYNC the clone's one turn),
 * after git's own lock is free; served at once (the index's `added` change, with its actor), then
 * committed with the actor as author (GIT_COMMIT) or pushed before the answer (GIT_SYNC). A file of
 * the network already there, or a network already served, is NETWORK_EXISTS and nothing is written.
 */
import { NetcfgError } from '../../errors.js';
import { actorLabel, authorLineOf, commitMessage, type Actor, type WriteNote } from '../actor.js';
import type { NetworkId } from '../files/layout.js';
import type { NetworkRecord } from '../network-record.js';
import { createFile, newNetworkText, requireNew } from './new-network.js';
import type { WriterParts } from './write-strategy.js';

export interface CreateRequest {
  id: NetworkId;
  fields: Record<string, unknown>;
  /** The file's comment, a line each: where its values came from. */
  comment: string[];
  actor: Actor;
  note?: WriteNote | undefined;
}

/** Whether the store takes writes now (network-store.ts' state, as PATCH's checks read it). */
export type StoreState = () => { closing: boolean; writesOpen: boolean; loaded: boolean; git: NetcfgError | null };

export class NetworkCreator {
  constructor(
    private readonly parts: WriterParts,
    private readonly state: StoreState,
  ) {}

  /** The new network's record, once it is written, served and committed (or pushed). */
  create(request: CreateRequest): Promise<NetworkRecord> {
    const { id } = request;
    const made = newNetworkText(id, request.fields, request.comment, this.parts.policy); // a bad body is refused before any lock
    const { closing, writesOpen, loaded, git } = this.state();
    if (closing) throw new NetcfgError('NOT_READY', 'netcfg is shutting down; retry (another replica may answer).');
    if (!writesOpen || !loaded)
      throw new NetcfgError('NOT_READY', 'netcfg is still loading its configuration; retry in a moment.');
    if (git) throw git;
    this.requireUnserved(id);
    const { gitSync: push } = this.parts.strategy;
    return this.parts.locks.inTurn(push ? '*' : id.id, async () => {
      const held = await this.parts.locks.acquire(id);
      try {
        if (await this.parts.strategy.gitLock?.whenFree(this.parts.locks.maxWaitMs))
          this.parts.retries.count('git-lock');
        this.requireUnserved(id);
        const root = this.parts.folder.forWriting();
        requireNew(root, id);
        if (held.compromised)
          throw new NetcfgError(
            'LOCK_TIMEOUT',
            `The write lock was lost (${held.compromised.message}); nothing was written.`,
          );
        return await this.write(request, root, made);
      } finally {
        await held.release();
      }
    });
  }

  private requireUnserved(id: NetworkId): void {
    const served = this.parts.index.get(id.id);
    if (served)
      throw new NetcfgError(
        'NETWORK_EXISTS',
        `${id.id} exists already (${served.path}); PATCH it instead. Nothing was written.`,
      );
  }

  private async write(
    request: CreateRequest,
    root: string,
    made: ReturnType<typeof newNetworkText>,
  ): Promise<NetworkRecord> {
    const { id, actor, note } = request;
    const { gitSync: push, committer } = this.parts.strategy;
    const message = commitMessage(`netcfg: add ${id.id}`, actor, note);
    const author = authorLineOf(actor, this.parts.netcfgAuthor);
    // Held from before the file appears: the watcher may see it first, and the change must carry its actor.
    this.parts.served.hold(id);
    let released = false;
    const release = (by: string | null) => {
      released = true;
      this.parts.served.release(id, by);
    };
    try {
      const abs = await createFile(this.parts.fs, root, id, made);
      if (!push) {
        release(actorLabel(actor));
        await committer?.commit(abs, message, author);
        return made.record;
      }
      // With GIT_SYNC it is served once the remote has it, as a PATCH's new version is.
      const outcome = await push.queue(abs, 0o644, made.text, message, author).pushed;
      if (outcome !== 'pushed')
        throw new NetcfgError(
          'GIT_REMOTE_UNAVAILABLE',
          `The remote branch moved on while ${id.id} was being added; nothing was added there. Retry the request.`,
        );
      release(actorLabel(actor));
      return made.record;
    } finally {
      if (!released) release(null);
    }
  }
}
