/**
 * Whether this replica speaks to the relayers now: replicas sharing a targets file elect one holder
 * of a lease (lease.ts), and only it lists and PATCHes relayers. Without a lease the one replica
 * always speaks.
 */
export interface Speaker {
  holds(): boolean;
  /**
   * How much longer this replica may speak (0: it does not). Each call to a relayer has its deadline
   * cut to it, so no call this replica makes outlives its window (the next holder starts after it).
   */
  speaksForMs?(): number;
  /**
   * Which time of holding this is: it changes when the lease is taken again. What a pass read, or a
   * change queued, in an earlier term is never acted on in a later one (another replica spoke between).
   */
  term?(): number;
  /** The lease as GET /api/v1/relayers shows it; its holder is named in a 409 from another replica. */
  view?(): SpeakerView;
}

/** Who holds the lease (null: nobody this replica knows of), this replica's name, and until when it is held. */
export interface SpeakerView {
  holder: string | null;
  this_replica: string;
  expires_at: string | null;
}

export const ALWAYS_SPEAKS: Speaker = { holds: () => true };

/** `speaker`'s window in ms: Infinity for one that says only whether it holds. */
export function windowOf(speaker: Speaker): number {
  return speaker.speaksForMs?.() ?? (speaker.holds() ? Infinity : 0);
}

/** `speaker`'s term: 0 for one that keeps none (it never changes hands). */
export function termOf(speaker: Speaker): number {
  return speaker.term?.() ?? 0;
}
