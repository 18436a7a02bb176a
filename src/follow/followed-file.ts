/**
 * A settings file followed while the server runs (API_TOKENS_FILE today; made to serve the relayer
 * targets file too). Its stat is looked at every 200 ms (fs.watchFile): a Kubernetes Secret is
 * updated by swapping a link, which a watch on the file itself does not see. Each change is read
 * and parsed in a worker thread (parse-worker.ts), so a big file never holds the event loop.
 *
 * A good parse is handed to `onValue`. A file missing, unreadable or not parsing keeps the last good
 * value for `graceMs` from its first failure; then `onValue(null)`: the owner stops using it, until the
 * file is good again. Changes during a parse are coalesced: one more parse of the file as it is then.
 */
import { unwatchFile, watchFile } from 'node:fs';
import { ParseWorker, type ParserRef } from './parse-worker.js';

const LOOK_EVERY_MS = 200;

/** What readiness shows of the file (no value: the owner says what of it may be shown). */
export interface FollowedState {
  /** Why the file as it is now is not used (`file:line:column: message`); null while it is good. */
  problem: string | null;
  /** While the last good value still holds despite the problem: when it stops (ISO). */
  grace_ends_at: string | null;
  /** Once the grace is over: since when the last good value is no longer used (ISO). */
  refusing_since: string | null;
}

export interface FollowOptions<T> {
  file: string;
  parser: ParserRef;
  graceMs: number;
  /** A good value taken, or null once a failing file's grace is over. */
  onValue: (value: T | null) => void;
  log: { info(fields: object, message: string): void; error(fields: object, message: string): void };
  /** Words for the log lines, e.g. 'API_TOKENS_FILE'. */
  what: string;
  now?: () => number;
}

export class FollowedFile<T> {
  private readonly worker: ParseWorker<T>;
  private readonly now: () => number;
  private failingSince: number | null = null;
  private refusingSince: number | null = null;
  private problem: string | null = null;
  private graceTimer: NodeJS.Timeout | null = null;
  private running = false;
  private again = false;
  private readonly listeners = new Set<(state: FollowedState) => void>();

  constructor(private readonly options: FollowOptions<T>) {
    this.worker = new ParseWorker<T>(options.parser);
    this.now = options.now ?? Date.now;
  }

  /** The first read, before anything is served: its value, or its problems (the owner decides whether to start). */
  async first(): Promise<{ value: T } | { problems: string[] }> {
    const reply = await this.worker.parse(this.options.file);
    return reply.ok ? { value: reply.value } : { problems: reply.problems };
  }

  start(): void {
    watchFile(this.options.file, { interval: LOOK_EVERY_MS, persistent: false }, () => void this.reload());
  }

  async stop(): Promise<void> {
    unwatchFile(this.options.file);
    if (this.graceTimer) clearTimeout(this.graceTimer);
    await this.worker.close();
  }

  state(): FollowedState {
    const graceEnds = this.failingSince === null || this.refusingSince !== null ? null : this.failingSince + this.options.graceMs;
    return {
      problem: this.problem,
      grace_ends_at: graceEnds === null ? null : new Date(graceEnds).toISOString(),
      refusing_since: this.refusingSince === null ? null : new Date(this.refusingSince).toISOString(),
    };
  }

  /** Told after each change is judged and when a grace ends (tests await it instead of sleeping). */
  onState(listener: (state: FollowedState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private async reload(): Promise<void> {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    try {
      do {
        this.again = false;
        this.take(await this.worker.parse(this.options.file));
      } while (this.again);
    } finally {
      this.running = false;
    }
  }

  private take(reply: Awaited<ReturnType<ParseWorker<T>['parse']>>): void {
    const { what, log } = this.options;
    if (reply.ok) {
      if (this.graceTimer) clearTimeout(this.graceTimer);
      this.graceTimer = null;
      this.failingSince = null;
      this.refusingSince = null;
      this.problem = null;
      this.options.onValue(reply.value);
      log.info({}, `${what} reloaded`);
    } else {
      this.problem = reply.problems[0] ?? 'cannot be used';
      if (this.failingSince === null && this.refusingSince === null) this.startGrace();
      const holds = this.refusingSince === null ? `what it held before still holds until ${this.state().grace_ends_at}` : 'nothing of it is used';
      log.error({ problems: reply.problems }, `${what} changed but cannot be used; ${holds}`);
    }
    this.tell();
  }

  private startGrace(): void {
    this.failingSince = this.now();
    this.graceTimer = setTimeout(() => {
      this.graceTimer = null;
      this.failingSince = null;
      this.refusingSince = this.now();
      this.options.onValue(null);
      this.options.log.error({ problem: this.problem }, `${this.options.what} has not been good for its grace; what it held is no longer used`);
      this.tell();
    }, this.options.graceMs);
    this.graceTimer.unref();
  }

  private tell(): void {
    const state = this.state();
    for (const listener of this.listeners) listener(state);
  }
}
