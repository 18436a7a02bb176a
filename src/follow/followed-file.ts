/**
 * A settings file followed while the server runs (API_TOKENS_FILE today; made to serve the relayer
 * targets file too). Its stat is looked at every 200 ms, following links (a Kubernetes Secret is
 * updated by swapping a link, which a watch on the file itself does not see), and compared with the
 * stat of what was last read, so no change between a read and the next look is missed. Each change
 * is read and parsed in a worker thread (parse-worker.ts), so a big file never holds the event loop.
 *
 * A good parse is handed to `onValue`. A file missing, unreadable or not parsing keeps the last good
 * value for `graceMs` from its first failure; then `onValue(null)`: the owner stops using it, until the
 * file is good again. Changes during a parse are seen by the next look: one more parse of the file as it is then.
 */
import { stat } from 'node:fs';
import { ParseWorker, seenKey, type ParserRef } from './parse-worker.js';

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
  /** How long a failing file's last good value holds; Infinity: until the file is good again. */
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
  /** The stat of what was last read; a look that sees another one reads the file again. */
  private seen = '';
  private looking: NodeJS.Timeout | null = null;
  private readonly listeners = new Set<(state: FollowedState) => void>();

  constructor(private readonly options: FollowOptions<T>) {
    this.worker = new ParseWorker<T>(options.parser);
    this.now = options.now ?? Date.now;
  }

  /** The first read, before anything is served: its value, or its problems (the owner decides whether to start). */
  async first(): Promise<{ value: T } | { problems: string[] }> {
    const reply = await this.worker.parse(this.options.file);
    this.seen = reply.seen;
    return reply.ok ? { value: reply.value } : { problems: reply.problems };
  }

  start(): void {
    this.looking = setInterval(() => this.look(), LOOK_EVERY_MS);
    this.looking.unref();
  }

  async close(): Promise<void> {
    if (this.looking) clearInterval(this.looking);
    if (this.graceTimer) clearTimeout(this.graceTimer);
    await this.worker.close();
  }

  state(): FollowedState {
    const graceEnds =
      this.failingSince === null || this.refusingSince !== null || !Number.isFinite(this.options.graceMs)
        ? null
        : this.failingSince + this.options.graceMs;
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

  private look(): void {
    if (this.running) return; // the parse under way compares again when it ends
    stat(this.options.file, (err, stats) => {
      if (seenKey(err ?? stats) !== this.seen) void this.reload();
    });
  }

  private async reload(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      const reply = await this.worker.parse(this.options.file);
      this.seen = reply.seen;
      this.take(reply);
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
      const until = this.state().grace_ends_at;
      const holds =
        this.refusingSince !== null
          ? 'nothing of it is used'
          : `what it held before still holds${until === null ? '' : ` until ${until}`}`;
      log.error({ problems: reply.problems }, `${what} changed but cannot be used; ${holds}`);
    }
    this.tell();
  }

  private startGrace(): void {
    this.failingSince = this.now();
    if (!Number.isFinite(this.options.graceMs)) return; // the last good value holds until the file is good again
    this.graceTimer = setTimeout(() => {
      this.graceTimer = null;
      this.failingSince = null;
      this.refusingSince = this.now();
      this.options.onValue(null);
      this.options.log.error(
        { problem: this.problem },
        `${this.options.what} has not been good for its grace; what it held is no longer used`,
      );
      this.tell();
    }, this.options.graceMs);
    this.graceTimer.unref();
  }

  private tell(): void {
    const state = this.state();
    for (const listener of this.listeners) listener(state);
  }
}
