/**
 * What the relayer sync is given when it is built: what netcfg serves (main wires it to the store,
 * store-desired.ts) and where it logs. The sync knows nothing else of netcfg.
 */

/** What netcfg serves, as the sync needs it. */
export interface DesiredState {
  /** Every id served. */
  ids(): string[];
  /** The served rpc_urls of `id` (`{url, weight}` each, as the relayer answers them), or null when it is not served. */
  rpcUrlsOf(id: string): unknown[] | null;
  /**
   * The whole network `id` as a relayer would answer it once it loaded netcfg's export (every field
   * of its NetworkResponse, rpc_urls `{url, weight}`, references resolved: relayer-form.ts); null when
   * it is not served, or when the export leaves it out (then only rpc_urls is compared).
   */
  relayerFormOf(id: string): Record<string, unknown> | null;
  /** Hears the id of each network whose served version changed; returns the way to stop. */
  subscribe(listener: (id: string) => void): () => void;
  /**
   * Brings what is served up to date after a relayer was listed (with GIT_SYNC: a pull that starts
   * after this call), so replicas that share a targets file never compare a relayer with an older head.
   */
  catchUp(): Promise<void>;
  /** `text` with every secret value served masked: what a relayer answered (drift, its errors) may hold one. */
  hide(text: string): string;
}

export interface PassLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}
