/**
 * POST /api/v1/networks' work outside HTTP: a request body read into an add request (its own fields
 * checked with the network schema, so a bad one is a 400 with pointers before any URL is asked),
 * planned (plan.ts: the registry, the probes), and written through the store's create. The
 * registry is read once, when first needed, and kept: the shipped copy is a megabyte of chains.
 */
import { NetcfgError, type ErrorDetail } from '../errors.js';
import type { Prober } from '../probe/prober.js';
import { loadSchemas, networkProblems, parseNetworkId, type NetworkId, type UrlPolicy } from '../store/index.js';
import type { Candidate } from './choose.js';
import { isTestnetEntry } from './draft.js';
import { planNetwork, type Plan } from './plan.js';
import { loadRegistry, type RegistryLoad } from './registry-file.js';
import { searchChains, type ChainMatch } from './registry-find.js';

/** What a body may hold beyond a network's fields: how to make it. */
const CONTROLS: Record<string, 'boolean' | 'max'> = {
  from_registry: 'boolean',
  dry_run: 'boolean',
  probe: 'boolean',
  allow_http: 'boolean',
  max: 'max',
};

export interface CreationOptions {
  /** CHAIN_REGISTRY_FILE; null: the shipped copy. */
  registryFile: string | null;
  prober: Prober | null;
  policy: UrlPolicy;
}

/** A POST body, read: the new network's id, its fields, and how to make it. */
export interface CreateBody {
  id: NetworkId;
  fields: Record<string, unknown>;
  fromRegistry: boolean;
  dryRun: boolean;
  probe: boolean;
  max: number;
  allowHttp: boolean;
}

/** A dry run's answer, and what a created network is answered with beside it. */
export interface Planned {
  network: Record<string, unknown>;
  candidates: Candidate[];
  registry: Plan['registry'];
  /** Why it would not be written as it stands (none: it would be). */
  problems: ErrorDetail[];
  comment: string[];
}

export class NetworkCreation {
  private registry: RegistryLoad | null = null;

  constructor(private readonly options: CreationOptions) {}

  private loaded(): RegistryLoad {
    this.registry ??= loadRegistry(this.options.registryFile ?? undefined);
    return this.registry;
  }

  /** A POST body read, or VALIDATION_FAILED (INVALID_ID) with a pointer at each problem. */
  read(body: unknown): CreateBody {
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw invalid([
        {
          pointer: '',
          message: 'The body must be a JSON object such as {"id": "evm:optimism", "from_registry": true}.',
        },
      ]);
    const { id, ...rest } = body as Record<string, unknown>;
    if (typeof id !== 'string')
      throw invalid([{ pointer: '/id', message: "id is required: the new network's <family>:<name>." }]);
    const networkId = parseNetworkId(id);
    if (!networkId)
      throw new NetcfgError(
        'INVALID_ID',
        `"${id.slice(0, 80)}" is not a network id; an id is <family>:<name> (e.g. evm:optimism).`,
      );
    const fields: Record<string, unknown> = {};
    const details: ErrorDetail[] = [];
    for (const [key, value] of Object.entries(rest)) {
      const kind = CONTROLS[key];
      if (kind === undefined) fields[key] = value;
      else if (kind === 'boolean' && typeof value !== 'boolean')
        details.push({ pointer: `/${key}`, message: `${key} must be true or false.` });
      else if (kind === 'max' && !(Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 32))
        details.push({ pointer: '/max', message: 'max must be a whole number from 1 to 32.' });
    }
    // The schema's checks of the fields given; rpc_urls may be left to the registry.
    const checked = 'rpc_urls' in fields ? fields : { ...fields, rpc_urls: ['https://left.to.the.registry'] };
    details.push(...loadSchemas().validateNetwork(checked));
    if (details.length > 0) throw invalid(details);
    const control = rest as Record<string, boolean | number | undefined>;
    return {
      id: networkId,
      fields,
      fromRegistry: control.from_registry === true,
      dryRun: control.dry_run === true,
      probe: control.probe !== false,
      max: typeof control.max === 'number' ? control.max : 3,
      allowHttp: control.allow_http === true,
    };
  }

  /** The network the body makes, each candidate's verdict, and what keeps it from being written. */
  async plan(body: CreateBody): Promise<Planned> {
    const { id } = body;
    const plan = await planNetwork(
      {
        family: id.family,
        name: id.name,
        fields: body.fields,
        fromRegistry: body.fromRegistry,
        probe: body.probe,
        max: body.max,
        allowHttp: body.allowHttp,
      },
      { registry: () => this.loaded(), prober: this.options.prober, policy: this.options.policy },
    );
    const problems = networkProblems(id, plan.fields, this.options.policy);
    const left = plan.candidates.filter((c) => !c.chosen);
    if ((plan.fields.rpc_urls as unknown[]).length === 0)
      problems.unshift(
        ...(left.length === 0
          ? [{ pointer: '/rpc_urls', message: 'No RPC URL was given, and the registry has none.' }]
          : []),
        ...left.map((c) => ({ pointer: '/rpc_urls', message: `${c.url} is not kept: ${c.status}: ${c.reason ?? ''}` })),
      );
    if (id.family === 'evm')
      for (const key of ['chain_id', 'symbol'].filter((k) => plan.fields[k] === undefined))
        problems.push({
          pointer: `/${key}`,
          message: `An evm network needs ${key}: the relayer refuses one without it.`,
        });
    const network = { id: id.id, name: id.name, network_type: id.family, ...plan.fields };
    return { network, candidates: plan.candidates, registry: plan.registry, problems, comment: plan.comment };
  }

  /** Up to 20 registry entries matching `q`, for the console's search box. */
  search(q: string): ChainMatch[] {
    const loaded = this.loaded();
    if (!loaded.ok) throw new NetcfgError('NOT_READY', `${loaded.problem}.`);
    return searchChains(loaded.registry.chains, q, isTestnetEntry);
  }
}

function invalid(details: ErrorDetail[]): NetcfgError {
  const more = details.length > 1 ? ` (and ${details.length - 1} more)` : '';
  return new NetcfgError('VALIDATION_FAILED', `The request body is invalid: ${details[0]?.message}${more}`, {
    details,
  });
}
