/**
 * The generated networks of the bench: deterministic (network n is always the same), realistic in
 * shape and size (280-600 bytes of YAML, a comment, plain and weighted rpc_urls mixed), and spread
 * over a dozen family folders so that even the 100,000 fixture keeps each folder under 10,000
 * files (MEASURED.md: chokidar rescans a folder on every change, slowly when it is huge).
 * Each network comes as the YAML file netcfg reads and as the wire object netcfg serves for it,
 * so the baselines can answer the very same JSON.
 */
export const FAMILIES = [
  'evm',
  'solana',
  'stellar',
  'cosmos',
  'near',
  'aptos',
  'sui',
  'polkadot',
  'tron',
  'bitcoin',
  'cardano',
  'tezos',
] as const;
const STAGES = ['mainnet', 'testnet', 'devnet', 'sepolia', 'staging', 'canary'];
const PROVIDERS = ['publicnode.com', 'drpc.org', 'blastapi.io', 'ankr.com', 'chainstack.com', 'infura.io'];
const TAGS = ['rollup', 'deprecated', 'archive', 'internal', 'fallback', 'l2'];

export type RpcEntry = string | { url: string; weight: number };

export interface GeneratedNetwork {
  id: string;
  family: string;
  name: string;
  /** `<family>/<name>.yaml` */
  rel: string;
  yaml: string;
  /** Exactly what netcfg serves for this file: id, name, network_type, then the file's fields. */
  wire: Record<string, unknown>;
}

/** A tiny deterministic PRNG (mulberry32), so every run generates the same files. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(rnd: () => number, list: readonly T[]): T {
  return list[Math.floor(rnd() * list.length)] as T;
}

/** The file fields of network `n` (in file order) and the comment above them. */
function fileFields(n: number, family: string): { comment: string; fields: Record<string, unknown> } {
  const rnd = random(n * 7919 + 17);
  const provider = pick(rnd, PROVIDERS);
  const urls: RpcEntry[] = [];
  const count = 1 + Math.floor(rnd() * 3);
  for (let i = 0; i < count; i++) {
    const url = `https://${family}-${n}-${i}.${i === 0 ? provider : pick(rnd, PROVIDERS)}/rpc`;
    urls.push(rnd() < 0.5 ? url : { url, weight: i === 0 ? 100 : 10 + Math.floor(rnd() * 90) });
  }
  const testnet = rnd() < 0.6;
  const fields: Record<string, unknown> = { rpc_urls: urls };
  if (family === 'evm') fields.chain_id = 100_000 + n;
  fields.symbol = family === 'evm' ? 'ETH' : family.slice(0, 3).toUpperCase();
  fields.explorer_urls = [`https://explorer.${family}-${n}.example.com`];
  fields.average_blocktime_ms = 400 + Math.floor(rnd() * 12_000);
  fields.required_confirmations = 1 + Math.floor(rnd() * 12);
  fields.is_testnet = testnet;
  if (family === 'stellar') {
    fields.passphrase = `Bench Network ${n} ; ${testnet ? 'Test' : 'Public'}`;
    fields.horizon_url = `https://horizon-${n}.stellar.example.org`;
  }
  fields.tags = testnet ? ['generated', pick(rnd, TAGS)] : ['generated'];
  if (family === 'evm') fields.features = rnd() < 0.7 ? ['eip1559'] : ['eip1559', 'optimism'];
  const comment = `# ${family} network ${n} (${testnet ? 'testnet' : 'mainnet'}), generated for make bench.\n# Keep the providers in order of preference.\n`;
  return { comment, fields };
}

export function normalise(entry: RpcEntry): { url: string; weight: number } {
  return typeof entry === 'string' ? { url: entry, weight: 100 } : { url: entry.url, weight: entry.weight };
}

/**
 * The YAML text of a network's file fields, with its comment. Written by hand for the few shapes
 * used here (yaml's stringify took 10 s for the 100,000 fixture); every value is a plain scalar.
 */
export function toYaml(comment: string, fields: Record<string, unknown>): string {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(fields)) {
    if (!Array.isArray(value)) {
      lines.push(`${key}: ${String(value)}`);
      continue;
    }
    lines.push(`${key}:`);
    for (const item of value as unknown[]) {
      if (typeof item === 'object' && item !== null) {
        const { url, weight } = item as { url: string; weight: number };
        lines.push(`  - url: ${url}`, `    weight: ${weight}`);
      } else {
        lines.push(`  - ${String(item)}`);
      }
    }
  }
  return `${comment}${lines.join('\n')}\n`;
}

/** The wire object netcfg builds from a file (see buildRecord in src/store/network-file.ts). */
export function toWire(family: string, name: string, fields: Record<string, unknown>): Record<string, unknown> {
  const wire: Record<string, unknown> = { id: `${family}:${name}`, name, network_type: family };
  for (const [key, value] of Object.entries(fields))
    wire[key] = key === 'rpc_urls' ? (value as RpcEntry[]).map(normalise) : value;
  return wire;
}

/** Network number `n` (0-based) of any fixture: the 1,000 fixture is the first 1,000 of the 100,000. */
export function network(n: number): GeneratedNetwork {
  const family = FAMILIES[n % FAMILIES.length] as string;
  const name = `${STAGES[Math.floor(n / FAMILIES.length) % STAGES.length]}-${String(n).padStart(6, '0')}`;
  const { comment, fields } = fileFields(n, family);
  return {
    id: `${family}:${name}`,
    family,
    name,
    rel: `${family}/${name}.yaml`,
    yaml: toYaml(comment, fields),
    wire: toWire(family, name, fields),
  };
}

/** The same network with different rpc_urls (a git commit or an edit on disk that changes it). */
export function withRpcUrls(n: number, urls: RpcEntry[]): GeneratedNetwork {
  const base = network(n);
  const { comment, fields } = fileFields(n, base.family);
  const changed = { ...fields, rpc_urls: urls };
  return { ...base, yaml: toYaml(comment, changed), wire: toWire(base.family, base.name, changed) };
}
