/**
 * The rules a network must meet beyond YAML, in one place for both ways data comes in: a whole
 * network file (the loader, the watcher, `netcfg validate`, and a PATCH's result) and a PATCH
 * body. Each answers the problems as `{pointer, message}`, the schema's first: where the schema
 * already flagged a place, its message stands and the URL rules add nothing there.
 */
import { NetcfgError, type ErrorDetail } from '../../errors.js';
import type { NetworkId } from '../files/layout.js';
import { loadSchemas } from './schemas.js';
import { checkRpcUrls, type UrlPolicy } from './url-rules.js';
import { describePointer } from './schema-errors.js';
import { resolveRpcUrls } from './secret-refs.js';

/** Most RPC URLs a body may carry before the URL rules are skipped (the schema refuses it anyway). */
const MAX_URLS_CHECKED = 1000;

/** A whole network file's data for the network `id`: schema, path-derived fields, URL rules. */
export function validateNetworkData(data: unknown, id: NetworkId, policy: UrlPolicy): ErrorDetail[] {
  const details = loadSchemas().validateNetwork(data);
  if (!isObject(data)) return details;
  const derived: Record<string, string> = { id: id.id, name: id.name, network_type: id.family };
  for (const [key, expected] of Object.entries(derived)) {
    if (key in data && data[key] !== expected) {
      details.push({
        pointer: `/${key}`,
        message: `${key} is "${String(data[key])}" but the file's path says "${expected}"; remove it or make it match.`,
      });
    }
  }
  return withUrlRules(details, data.rpc_urls, policy, id.id);
}

/** A PATCH body of network `id`: the update schema and the URL rules; VALIDATION_FAILED with every problem, the first in the message. */
export function requireValidPatch(body: unknown, policy: UrlPolicy, id: NetworkId): void {
  const schema = loadSchemas().validateUpdate(body);
  const details = isObject(body)
    ? withUrlRules(schema, body.rpc_urls, policy, id.id).map(({ pointer, message }) => ({ pointer, message }))
    : schema;
  if (details.length > 0) {
    throw new NetcfgError(
      'VALIDATION_FAILED',
      `The request body is invalid: ${details[0]?.message}${details.length > 1 ? ` (and ${details.length - 1} more)` : ''}`,
      { details },
    );
  }
}

/** The URL rules run on the values references resolve to; a problem with one names its variable, never its value. */
function withUrlRules(details: ErrorDetail[], urls: unknown, policy: UrlPolicy, networkId: string): ErrorDetail[] {
  if (!Array.isArray(urls) || urls.length > MAX_URLS_CHECKED) return details;
  const flagged = new Set(details.map((d) => d.pointer));
  const { entries, secrets, refused } = resolveRpcUrls(urls, policy.secrets, networkId);
  const named = new Map(secrets.map((s) => [s.index, s.name]));
  const rules = checkRpcUrls(entries, '/rpc_urls', policy).map((d) => {
    const name = named.get(Number(d.pointer.split('/')[2]));
    if (name === undefined) return d;
    const place = describePointer(d.pointer);
    return { ...d, message: d.message.replace(place, `${place} (the value of ${name})`) };
  });
  return [...details, ...[...refused, ...rules].filter((d) => !flagged.has(d.pointer))];
}

function isObject(data: unknown): data is Record<string, unknown> {
  return typeof data === 'object' && data !== null && !Array.isArray(data);
}
