/**
 * The parses of the files this process last wrote, by ETag (a hash of the exact bytes). A PATCH
 * reads its file again from disk and parses it to splice the edit in; when those bytes are the
 * ones an earlier PATCH wrote (a script rotating a network's URLs, a retry), the parse that
 * validated them is used again: one YAML parse per PATCH instead of two. Keyed by the bytes, never
 * by the network, so a file changed behind our back is simply a miss. Documents are never edited
 * in place (yaml-edit clones one before the Document API touches it), so sharing them is safe.
 */
import type { ParsedYaml } from './network-file.js';

export class ParseCache {
  private readonly byEtag = new Map<string, ParsedYaml>();

  constructor(private readonly capacity = 128) {}

  get(etag: string): ParsedYaml | undefined {
    const hit = this.byEtag.get(etag);
    if (hit) this.set(etag, hit); // now the most recently used
    return hit;
  }

  set(etag: string, parsed: ParsedYaml): void {
    // A Map iterates in insertion order: re-inserting keeps the least recently used first.
    this.byEtag.delete(etag);
    this.byEtag.set(etag, parsed);
    if (this.byEtag.size > this.capacity) this.byEtag.delete(this.byEtag.keys().next().value as string);
  }

  get size(): number {
    return this.byEtag.size;
  }
}
