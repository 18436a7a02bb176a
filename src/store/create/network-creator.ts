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
import type { NetworkIndex } from '../index/network-index.js';
import type { NetworkRecord } from '../network-record.js';
import { createFile, newNetworkText, requireNew } from './new-network.js';
import type { WriterParts } from '../write/write-strategy.js';

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

/** The commit subject of a new network, written or proposed. */
export function addSubject(id: NetworkId): string {
  return `netcfg: add ${id.id}`;
}

/** What a create and its proposal check before any lock or remote: the store takes writes, and `id` is not served. */
export function requireCreatable(state: StoreState, index: Pick<NetworkIndex, 'get'>, id: NetworkId): void {
  const { closing, writesOpen, loaded, git } = state();
  if (closing) throw new NetcfgError('NOT_READY', 'netcfg is shutting down; retry (another replica may answer).');
  if (!writesOpen || !loaded)
    throw new NetcfgError('NOT_READY', 'netcfg is still loading its configuration; retry in a moment.');
  if (git) throw git;
  requireUnserved(index, id);
}

function requireUnserved(index: Pick<NetworkIndex, 'get'>, id: NetworkId): void {
  const served = index.get(id.id);
  if (served)
    throw new NetcfgError(
      'NETWORK_EXISTS',
      `${id.id} exists already (${served.path}); PATCH it instead. Nothing was written.`,
    );
}

export class NetworkCreator {
  constructor(
    private readonly parts: WriterParts,
    private readonly state: StoreState,
  ) {}

  /** The new network's record, once it is written, served and committed (or pushed). */
  async create(request: CreateRequest): Promise<NetworkRecord> {
    const { id } = request;
    const made = newNetworkText(id, request.fields, request.comment, this.parts.policy); // a bad body is refused before any lock
    requireCreatable(this.state, this.parts.index, id);
    const { gitSync: push } = this.parts.strategy;
    // The push is awaited once the turn is let go, as a PATCH's is: GIT_SYNC's pull runs in that turn, and
    // a push queued behind a pull waiting for it would never come.
    const { pushed } = await this.parts.locks.inTurn(push ? '*' : id.id, async () => {
      const held = await this.parts.locks.acquire(id);
      try {
        if (await this.parts.strategy.gitLock?.whenFree(this.parts.locks.maxWaitMs))
          this.parts.retries.count('git-lock');
        requireUnserved(this.parts.index, id);
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
    await pushed;
    return made.record;
  }

  /** Writes the file, and commits it; with GIT_SYNC queues it for the push, whose end (served, or refused) the caller awaits. */
  private async write(
    request: CreateRequest,
    root: string,
    made: ReturnType<typeof newNetworkText>,
  ): Promise<{ pushed?: Promise<void> }> {
    const { id, actor, note } = request;
    const { gitSync: push, committer } = this.parts.strategy;
    const message = commitMessage(addSubject(id), actor, note);
    const author = authorLineOf(actor, this.parts.netcfgAuthor);
    // Held from before the file appears: the watcher may see it first, and the change must carry its actor.
    this.parts.served.hold(id);
    let released = false;
    let handedOn = false; // to the push, whose end releases it
    const release = (by: string | null) => {
      released = true;
      this.parts.served.release(id, by);
    };
    try {
      const abs = await createFile(this.parts.fs, root, id, made);
      if (!push) {
        release(actorLabel(actor));
        await committer?.commit(abs, message, author);
        return {};
      }
      // With GIT_SYNC it is served once the remote has it, as a PATCH's new version is.
      const queued = push.queue(abs, 0o644, made.text, message, author).pushed.then(
        (outcome) => {
          release(outcome === 'pushed' ? actorLabel(actor) : null);
          if (outcome !== 'pushed')
            throw new NetcfgError(
              'GIT_REMOTE_UNAVAILABLE',
              `The remote branch moved on while ${id.id} was being added; nothing was added there. Retry the request.`,
            );
        },
        (err: unknown) => {
          release(null);
          throw err;
        },
      );
      handedOn = true;
      queued.catch(() => undefined); // awaited by create() once the turn is let go
      return { pushed: queued };
    } finally {
      if (!released && !handedOn) release(null);
    }
  }
}
