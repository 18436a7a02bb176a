/**
 * RELAYER_SYNC_FILE followed while the server runs, like API_TOKENS_FILE (followed-file.ts): a good
 * change (relayers added, removed or changed) reaches the sync within a second, without a restart.
 * A change that does not parse, or names a key variable that is not set (or is one of netcfg's own
 * settings), keeps the last good list for as long as it lasts: a relayer keeps being kept in sync
 * through a bad edit. Readiness shows the problem as `file:line:column: message` (admin tier only).
 */
import type { RelayerTarget } from '../relayer/sync/relayer-client.js';
import type { TargetSpec } from '../relayer/sync/targets-file.js';
import { FollowedFile, type FollowedState } from './followed-file.js';
import { moduleNear } from './parse-worker.js';

export type ResolvedTarget = RelayerTarget & { networks: string[] | null; selfHeal: boolean };

/** Each spec's key read from the variable it names (main's environment), or why one cannot be. */
export type TargetKeys = (specs: TargetSpec[]) => { targets: ResolvedTarget[] } | { problem: string };

type Log = { info(fields: object, message: string): void; error(fields: object, message: string): void };

export class TargetsFollow {
  private readonly followed: FollowedFile<TargetSpec[]>;
  /** Why the file, good as YAML, cannot be used as it is now (a key variable not set); null while it can. */
  private keyProblem: string | null = null;
  private readonly listeners = new Set<(state: FollowedState) => void>();

  constructor(
    private readonly file: string,
    private readonly keys: TargetKeys,
    private readonly onTargets: (targets: ResolvedTarget[]) => void,
    private readonly log: Log,
  ) {
    this.followed = new FollowedFile<TargetSpec[]>({
      file,
      parser: { module: moduleNear(import.meta.url, '../relayer/sync/targets-file'), name: 'targetsOfText' },
      graceMs: Infinity,
      onValue: (specs) => {
        if (specs !== null) this.take(specs);
      },
      log,
      what: 'RELAYER_SYNC_FILE',
    });
    this.followed.onState(() => this.tell());
  }

  /** Reads the file again (it may have changed since src/config read it at start) and follows it from now on. */
  async start(): Promise<void> {
    const first = await this.followed.first();
    if ('value' in first) this.take(first.value);
    else
      this.log.error(
        { problems: first.problems },
        'RELAYER_SYNC_FILE changed since the start and cannot be used; the relayers read at start are kept in sync',
      );
    this.followed.start();
    this.log.info({}, 'RELAYER_SYNC_FILE followed: a change takes effect within a second');
  }

  close(): Promise<void> {
    return this.followed.close();
  }

  /** The file's problem now (a parse's, else a key's), for readiness. */
  state(): FollowedState {
    const state = this.followed.state();
    return state.problem === null && this.keyProblem !== null ? { ...state, problem: this.keyProblem } : state;
  }

  /** Told after each change is judged (tests await it). */
  onState(listener: (state: FollowedState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private take(specs: TargetSpec[]): void {
    const resolved = this.keys(specs);
    if ('problem' in resolved) {
      this.keyProblem = `${this.file}: ${resolved.problem}`;
      this.log.error(
        { problem: this.keyProblem },
        'RELAYER_SYNC_FILE changed but cannot be used; the relayers before the change are still kept in sync',
      );
      return;
    }
    this.keyProblem = null;
    this.onTargets(resolved.targets);
  }

  private tell(): void {
    const state = this.state();
    for (const listener of this.listeners) listener(state);
  }
}
