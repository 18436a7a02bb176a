/**
 * Whether this replica speaks to the relayers now: replicas sharing a targets file elect one holder
 * of a lease (built apart, in lease*.ts), and only it lists and PATCHes relayers. Without a lease
 * the one replica always speaks.
 */
export interface Speaker {
  holds(): boolean;
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
