/**
 * When a relayer's passes run: the first at start, then each an interval (or a backoff, after a
 * failure) after the one before ends, so a slow relayer delays only itself. A pass asked for while
 * one of the same term runs joins it; one of an earlier term compares nothing, so the new one runs
 * after it. After `close` no timer is armed again.
 */
export class PassSchedule {
  private passing: Promise<void> | null = null;
  private passingTerm = 0;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private closed = false;

  constructor(
    private readonly pass: () => Promise<void>,
    private readonly term: () => number,
    /** How long after a pass ends the next one runs. */
    private readonly nextInMs: () => number,
  ) {}

  start(): void {
    this.running = true;
    void this.now();
  }

  /** One pass now, or the one of this term already running. */
  now(): Promise<void> {
    const term = this.term();
    if (this.passing && this.passingTerm === term) return this.passing;
    const run: Promise<void> = (this.passing ?? Promise.resolve())
      .then(() => this.pass())
      .finally(() => {
        if (this.passing !== run) return;
        this.passing = null;
        this.after(this.nextInMs());
      });
    [this.passing, this.passingTerm] = [run, term];
    return run;
  }

  /** The next pass in `ms`, instead of when it was due. */
  after(ms: number): void {
    clearTimeout(this.timer);
    if (this.closed || !this.running) return;
    this.timer = setTimeout(() => void this.now(), ms);
    this.timer.unref();
  }

  /** Stops the timer; resolves once no pass runs. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.passing;
  }
}
