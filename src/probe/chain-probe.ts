/**
 * What one RPC URL says about its chain, per family: the call that names the chain (compared with
 * what the file claims) and the call that gives the head, asked together in one JSON-RPC batch.
 * A family without a probe is not probed.
 *   evm      eth_chainId = chain_id,            eth_blockNumber
 *   solana   getHealth, getGenesisHash = genesis_hash (when the file sets it), getSlot
 *   stellar  getNetwork.passphrase = passphrase, getLatestLedger.sequence
 */
import { CallFailed, rpcCalls, type CallOptions } from './rpc-call.js';
import { clip, maskSecretUrl } from '../redact.js';

export type ProbeStatus = 'ok' | 'wrong_chain' | 'lagging' | 'unreachable' | 'bad_response';

/** What the file claims the chain is. */
export interface Claimed {
  chain_id?: number | undefined;
  genesis_hash?: string | undefined;
  passphrase?: string | undefined;
}

export interface UrlHealth {
  url: string;
  status: ProbeStatus;
  /** What the URL answered for the claimed field, when it answered. */
  chain_id?: number;
  genesis_hash?: string;
  passphrase?: string;
  head: number | null;
  /** How far behind the network's head (filled in by the prober: head-rule.ts); null when not compared. */
  lag: number | null;
  latency_ms: number | null;
  checked_at: string;
  error: string | null;
}

type Answered = Pick<UrlHealth, 'chain_id' | 'genesis_hash' | 'passphrase'>;

/** A family's probe: the calls it makes (one batch), and what their results say against the claim. */
interface FamilyProbe {
  calls: string[];
  judge(results: unknown[], claimed: Claimed): { answered: Answered; head: number; mismatch: string | null };
}

const PROBES: Record<string, FamilyProbe> = {
  evm: {
    calls: ['eth_chainId', 'eth_blockNumber'],
    judge([chainIdRaw, headRaw], claimed) {
      const chainId = toInteger(chainIdRaw, 'eth_chainId');
      const head = toInteger(headRaw, 'eth_blockNumber');
      const mismatch =
        claimed.chain_id !== undefined && chainId !== claimed.chain_id
          ? `answered chain_id ${chainId}; the file says ${claimed.chain_id}`
          : null;
      return { answered: { chain_id: chainId }, head, mismatch };
    },
  },
  solana: {
    calls: ['getHealth', 'getGenesisHash', 'getSlot'],
    judge([health, genesisRaw, slot], claimed) {
      if (health !== 'ok')
        throw new CallFailed('bad_response', `getHealth answered ${clip(JSON.stringify(health) ?? 'nothing', 80)}`);
      const genesis = toText(genesisRaw, 'getGenesisHash');
      const head = toInteger(slot, 'getSlot');
      const mismatch =
        claimed.genesis_hash !== undefined && genesis !== claimed.genesis_hash
          ? `answered genesis hash ${genesis}; the file says ${claimed.genesis_hash}`
          : null;
      return { answered: { genesis_hash: genesis }, head, mismatch };
    },
  },
  stellar: {
    calls: ['getNetwork', 'getLatestLedger'],
    judge([network, ledger], claimed) {
      const passphrase = toText(network, 'getNetwork', 'passphrase');
      const head = toInteger((ledger as { sequence?: unknown } | null)?.sequence, 'getLatestLedger.sequence');
      const mismatch =
        claimed.passphrase !== undefined && passphrase !== claimed.passphrase
          ? `answered passphrase "${passphrase}"; the file says "${claimed.passphrase}"`
          : null;
      return { answered: { passphrase }, head, mismatch };
    },
  },
};

/** What a network's fields (its wire view) claim about its chain. */
export function claimedOf(fields: Record<string, unknown>): Claimed {
  const text = (key: string): string | undefined =>
    typeof fields[key] === 'string' ? (fields[key] as string) : undefined;
  return {
    chain_id: typeof fields.chain_id === 'number' ? fields.chain_id : undefined,
    genesis_hash: text('genesis_hash'),
    passphrase: text('passphrase'),
  };
}

/**
 * The URLs of a network's `rpc_urls` (its view with secrets revealed) that are enabled (weight
 * above 0; all with `disabledToo`), with their place in the list and what may be shown of each: a secret's value masked.
 */
export function enabledUrls(
  fields: Record<string, unknown>,
  disabledToo = false,
): Array<{ url: string; index: number; shown: string }> {
  return ((fields.rpc_urls ?? []) as Array<{ url: string; weight: number; secret?: boolean }>)
    .map(({ url, weight, secret }, index) => ({
      url,
      weight,
      index,
      shown: secret === true ? maskSecretUrl(url) : url,
    }))
    .filter((e) => disabledToo || e.weight > 0)
    .map(({ url, index, shown }) => ({ url, index, shown }));
}

export function isProbed(family: string): boolean {
  return Object.hasOwn(PROBES, family);
}

/** Probes `url` of a `family` network; never throws (every failure is a status). */
export async function probeUrl(
  family: string,
  url: string,
  claimed: Claimed,
  options: CallOptions,
): Promise<UrlHealth> {
  const started = performance.now();
  const base = { url, head: null, lag: null, latency_ms: null, checked_at: new Date().toISOString(), error: null };
  const probe = PROBES[family];
  if (!probe) return { ...base, status: 'ok' };
  try {
    const { answered, head, mismatch } = probe.judge(await rpcCalls(url, probe.calls, options), claimed);
    const latency_ms = Math.round(performance.now() - started);
    return { ...base, ...answered, head, latency_ms, status: mismatch ? 'wrong_chain' : 'ok', error: mismatch };
  } catch (err) {
    if (err instanceof CallFailed) return { ...base, status: err.kind, error: err.message };
    return { ...base, status: 'bad_response', error: (err as Error).message };
  }
}

/** A JSON-RPC quantity (`0x1a`) or a number, as an integer. */
function toInteger(value: unknown, what: string): number {
  const n = typeof value === 'string' && /^0x[0-9a-f]+$/i.test(value) ? Number.parseInt(value, 16) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0)
    throw new CallFailed(
      'bad_response',
      `${what}: ${clip(JSON.stringify(value) ?? 'nothing', 80)} is not a block number`,
    );
  return n;
}

function toText(value: unknown, what: string, field?: string): string {
  const text = field === undefined ? value : (value as Record<string, unknown> | null)?.[field];
  if (typeof text !== 'string' || text === '')
    throw new CallFailed('bad_response', `${what}: no ${field ?? 'text'} in the answer`);
  return text;
}
