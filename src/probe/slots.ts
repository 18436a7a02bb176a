/**
 * A bound on calls in flight. A call waits for a free slot, first come first served, and a call
 * that ends hands its slot to the next in line. `within(n)` makes a narrower bound whose calls also
 * take a slot of this one: each PATCH gets a few slots of its own inside the bound of all PATCHes,
 * so its calls never queue behind another PATCH's slow URLs until all PATCHes together hit theirs.
 */
export class Slots {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly size: number,
    private readonly outer: Slots | null = null,
  ) {}

  /** A bound of `size` slots whose every call also holds one of these. */
  within(size: number): Slots {
    return new Slots(size, this);
  }

  /** Runs `fn` once it holds a slot here (and in every bound this one is within). */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    await this.take();
    try {
      return this.outer ? await this.outer.run(fn) : await fn();
    } finally {
      this.give();
    }
  }

  private async take(): Promise<void> {
    if (this.running < this.size) {
      this.running++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** The slot goes straight to the next waiting call, so a call arriving meanwhile cannot jump the line. */
  private give(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}
