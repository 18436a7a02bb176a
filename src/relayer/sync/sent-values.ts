/**
 * What this replica sent one relayer in a term, so that a pass does not take netcfg's own PATCH for
 * drift: a list page read before a PATCH landed (or while it was in flight) answers the value that
 * PATCH replaced, and "setting it back" would send the same value again. A pass reads such a network
 * as the PATCH left it; a drift made by hand in that window is found by the next pass.
 */
type Sent = { id: string; rpcUrls: unknown[]; term: number };

export class SentValues {
  /** Orders list starts and PATCH answers. */
  private clock = 0;
  private readonly landed = new Map<string, Sent & { at: number }>();
  private inFlight: Sent | null = null;

  /** A list begins: its mark. */
  mark(): number {
    return ++this.clock;
  }

  /** Sends `sent` by `patch` (one at a time), kept as in flight until it ends and as landed once the relayer took it. */
  async send(sent: Sent, patch: () => Promise<void>): Promise<void> {
    this.inFlight = sent;
    try {
      await patch();
      this.landed.set(sent.id, { ...sent, at: ++this.clock });
    } catch (err) {
      this.landed.delete(sent.id);
      throw err;
    } finally {
      this.inFlight = null;
    }
  }

  /** `live` (a list that began at `mark`, in `term`) with each network this term's PATCH may have changed after its page was read as that PATCH sets it. */
  overlay(live: Map<string, Record<string, unknown>>, mark: number, term: number): void {
    for (const [id, sent] of this.landed) if (sent.at < mark) this.landed.delete(id); // answered before the list began: the list saw it
    for (const sent of [...this.landed.values(), ...(this.inFlight ? [this.inFlight] : [])]) {
      const held = live.get(sent.id);
      if (held && sent.term === term) live.set(sent.id, { ...held, rpc_urls: sent.rpcUrls });
    }
  }
}
