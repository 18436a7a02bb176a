/**
 * Rendered list pages, kept until the index changes. Relayers ask for the same few pages again
 * and again; a page is built once per index revision (from fragments serialised once per network)
 * and then answered as bytes. Bounded, and dropped whole on any change.
 */
export interface RenderedPage {
  /** Bytes, not a string: Node copies a string body into each response, and sends a Buffer as it is. */
  body: Buffer;
  link: string;
}

export class PageCache {
  private revision = -1;
  private readonly pages = new Map<string, RenderedPage>();

  constructor(private readonly capacity = 256) {}

  get(revision: number, key: string): RenderedPage | undefined {
    if (revision !== this.revision) {
      this.pages.clear();
      this.revision = revision;
      return undefined;
    }
    return this.pages.get(key);
  }

  set(revision: number, key: string, page: RenderedPage): void {
    if (revision !== this.revision) return;
    if (this.pages.size >= this.capacity) this.pages.delete(this.pages.keys().next().value as string);
    this.pages.set(key, page);
  }
}
