/**
 * `netcfg add <id>`: a new network's file in one step. evm: from the chain registry's entry (by
 * --chain-id, else the name), every candidate RPC URL probed before it is written; solana and
 * stellar: from the flags alone, probed with their own probes. What is kept and what is left, with
 * why, goes to stderr; an existing file is never replaced, and a refusal writes nothing (exit 1).
 */
import path from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { ConfigError, policyFromEnv, type Env } from '../config/index.js';
import { NetcfgError } from '../errors.js';
import { DEFAULT_PROBER, Prober } from '../probe/prober.js';
import type { Candidate } from '../registry/choose.js';
import { planNetwork } from '../registry/plan.js';
import { loadRegistry } from '../registry/registry-file.js';
import { parseNetworkId, requireNew, writeNewNetwork } from '../store/index.js';

interface AddOptions {
  chainId?: number;
  registry?: string;
  probe: boolean;
  max: number;
  confirmations?: number;
  out: string;
  allowHttp?: boolean;
  rpcUrl?: string[];
  passphrase?: string;
  horizonUrl?: string;
  genesisHash?: string;
}

function whole(min: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min) throw new InvalidArgumentError(`a whole number of at least ${min}`);
    return n;
  };
}

export function addCommand(program: Command, env: Env): void {
  program
    .command('add')
    .description(
      'write a new network file: evm from the chain registry, each RPC URL probed first; solana and stellar from the flags',
    )
    .argument('<id>', '<family>:<name> (a bare name is evm:<name>)')
    .addOption(
      new Option('--chain-id <n>', 'the registry entry of this chain id (else found by the name)').argParser(whole(1)),
    )
    .addOption(
      new Option(
        '--registry <file>',
        'an ethereum-lists chains.json [CHAIN_REGISTRY_FILE] (default: the shipped copy)',
      ),
    )
    .option('--no-probe', 'write the first --max candidates without asking them anything')
    .addOption(new Option('--max <n>', 'at most this many RPC URLs').argParser(whole(1)).default(3))
    .addOption(
      new Option('--confirmations <n>', 'required_confirmations (default: 1 on a testnet, else 12)').argParser(
        whole(0),
      ),
    )
    .addOption(new Option('--out <dir>', 'the config folder [CONFIG_DIR]').default(env.CONFIG_DIR || 'config/networks'))
    .option('--allow-http', 'take plain http:// RPC URLs too')
    .option('--rpc-url <url...>', "the RPC URLs to take (instead of the registry's); repeat or list them")
    .option('--passphrase <text>', 'stellar: the network passphrase (checked by the probe)')
    .option('--horizon-url <url>', 'stellar: the Horizon URL')
    .option('--genesis-hash <hash>', 'solana: the genesis hash (checked by the probe)')
    .action(async (id: string, opts: AddOptions) => {
      process.exitCode = await add(id, opts, env);
    });
}

async function add(given: string, opts: AddOptions, env: Env): Promise<number> {
  const id = parseNetworkId(given.includes(':') ? given : `evm:${given}`);
  if (!id) return said(`"${given}" is not a network id: <family>:<name>, lower-case letters, digits, "-" and "_"`, 2);
  let policy;
  try {
    policy = policyFromEnv(env);
  } catch (err) {
    if (err instanceof ConfigError) return said(err.message, 2);
    throw err;
  }
  const fields: Record<string, unknown> = {};
  const set = (key: string, value: unknown) => value !== undefined && (fields[key] = value);
  set('chain_id', opts.chainId);
  set('required_confirmations', opts.confirmations);
  set('rpc_urls', opts.rpcUrl);
  set('passphrase', opts.passphrase);
  set('horizon_url', opts.horizonUrl);
  set('genesis_hash', opts.genesisHash);
  if (id.family !== 'evm' && fields.rpc_urls === undefined)
    return said(`${id.family} has no chain registry: give its RPC URLs with --rpc-url`, 2);
  const prober = opts.probe ? new Prober({ ...DEFAULT_PROBER, blockPrivate: policy.blockPrivate }) : null;
  try {
    requireNew(path.resolve(opts.out), id); // before any URL is asked
    const plan = await planNetwork(
      {
        family: id.family,
        name: id.name,
        fields,
        fromRegistry: id.family === 'evm',
        probe: opts.probe,
        max: opts.max,
        allowHttp: opts.allowHttp === true,
      },
      { registry: () => loadRegistry(opts.registry ?? env.CHAIN_REGISTRY_FILE), prober, policy },
    );
    for (const line of plan.comment) process.stderr.write(`netcfg: ${line}\n`);
    for (const c of plan.candidates) process.stderr.write(`${listed(c)}\n`);
    if ((plan.fields.rpc_urls as string[]).length === 0)
      return said(
        `none of the ${plan.candidates.length} RPC candidates of ${id.id} is usable (above); nothing was written`,
        1,
      );
    const file = await writeNewNetwork(opts.out, id, plan.fields, plan.comment, policy);
    process.stdout.write(`netcfg: wrote ${file}\n`);
    return 0;
  } catch (err) {
    if (!(err instanceof NetcfgError)) throw err;
    for (const d of err.details ?? []) process.stderr.write(`  ${d.pointer ? `${d.pointer}: ` : ''}${d.message}\n`);
    return said(err.message.replace(/\.$/, ''), 1);
  } finally {
    prober?.close();
  }
}

/** One candidate as stderr lists it. */
function listed(c: Candidate): string {
  if (c.chosen) {
    const seen = c.latency_ms === null ? 'not probed' : `${c.latency_ms} ms, head ${c.head}`;
    return `  kept  ${c.url} (${seen})`;
  }
  return `  left  ${c.url}: ${c.status}: ${c.reason}`;
}

function said(message: string, code: number): number {
  process.stderr.write(`netcfg: ${message}\n`);
  return code;
}
