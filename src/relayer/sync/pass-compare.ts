/**
 * What one pass found, kept in the relayer's ledger: its list against what netcfg serves, network by
 * network (compare.ts). Each network in scope is in sync, drifted (rpc_urls: set back unless self_heal
 * is off), stale (any other field) or missing; one only the relayer has is extra; one netcfg no longer
 * serves leaves the ledger. The worker sends what is to be set back.
 */
import type { DesiredState, PassLog } from './desired-state.js';
import { compareNetwork } from './compare.js';
import type { NetworkLedger } from './ledger.js';
import type { RelayerTarget } from './relayer-client.js';
import { reloadRemedy, type NetworkStatus } from './target-status.js';
import { inScope } from './targets-file.js';

export interface PassParts {
  target: RelayerTarget & { networks: string[] | null };
  desired: DesiredState;
  ledger: NetworkLedger;
  log: PassLog;
  /** A relayer's text as it may be shown: its key and netcfg's secret values hidden. */
  show: (text: string) => string;
}

/** Settles every network listed or served in the ledger; how many were compared, and the ids whose rpc_urls are to be set back. */
export function settleListed(
  parts: PassParts,
  live: Map<string, Record<string, unknown>>,
): { compared: number; setBack: string[] } {
  const { target, desired, ledger } = parts;
  const wanted = desired.ids().filter((id) => inScope(target, id));
  const wantedSet = new Set(wanted);
  ledger.noteExtra([...live.keys()].filter((id) => !wantedSet.has(id) && inScope(target, id)).sort());
  for (const id of new Set([...ledger.networks.keys(), ...ledger.findings.openNetworks()]))
    if (!wantedSet.has(id)) ledger.settle(id, []);
  let compared = 0;
  const setBack: string[] = [];
  for (const id of wanted) {
    const rpcUrls = desired.rpcUrlsOf(id);
    if (rpcUrls === null) continue;
    compared++;
    const held = live.get(id);
    const missing = `${target.name} has no network ${id}; ${reloadRemedy(target.name)}`;
    if (held === undefined) ledger.settle(id, ['missing'], { id, state: 'missing', error: missing });
    else if (settleOne(parts, id, held, desired.relayerFormOf(id) ?? { rpc_urls: rpcUrls })) setBack.push(id);
  }
  return { compared, setBack };
}

/** One network's answered fields against netcfg's: drift (rpc_urls), stale (any other), or in sync. True: set its rpc_urls back. */
function settleOne(
  { target, ledger, log, show }: PassParts,
  id: string,
  held: Record<string, unknown>,
  want: Record<string, unknown>,
): boolean {
  const heal = target.selfHeal !== false;
  const { kinds, status, details } = compareNetwork(id, held, want, { relayer: target.name, selfHeal: heal, show });
  // Its last PATCH was refused and the drift remains: still failing until one is taken (one finding, not one per retry).
  const failing = ledger.networks.get(id);
  const refused = heal && kinds.includes('drift') && failing?.state === 'failing';
  const found = refused
    ? ledger.settle(
        id,
        [...kinds, 'failing'],
        { ...(status as NetworkStatus), state: 'failing', error: failing.error as string },
        details,
      )
    : ledger.settle(id, kinds, status, details);
  if (!kinds.includes('drift')) return false;
  if (found.includes('drift')) {
    const what = heal ? "setting it back to the folder's rpc_urls" : 'left in place (self_heal: false)';
    log.warn({ relayer: target.name, network: id, self_heal: heal }, `relayer sync: drift found, ${what}`);
  }
  return heal;
}
