/**
 * AJV's errors as `{pointer, message}` sentences an operator can act on. Pure (no Node API), so
 * that the operator console shows the very sentences the server sends, before anything is sent.
 */
import type { ErrorObject } from 'ajv';
import type { ErrorDetail } from '../../errors.js';

/** JSON Pointer segment escaping (RFC 6901). */
export function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** `/rpc_urls/2/weight` -> `rpc_urls[2].weight`, for sentences. */
export function describePointer(pointer: string): string {
  if (pointer === '') return 'The body';
  const parts = pointer
    .slice(1)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  return parts.map((p, i) => (/^\d+$/.test(p) ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

const ARTICLE: Record<string, string> = {
  array: 'an array',
  object: 'an object',
  integer: 'an integer',
  string: 'a string',
  boolean: 'true or false',
  number: 'a number',
};

/** One AJV error -> one actionable sentence, keyed to where it points. */
function toDetail(err: ErrorObject): ErrorDetail {
  const at = err.instancePath;
  const params = err.params as Record<string, unknown>;
  switch (err.keyword) {
    case 'required': {
      const pointer = `${at}/${escapePointer(String(params.missingProperty))}`;
      return { pointer, message: `${describePointer(pointer)} is required.` };
    }
    case 'additionalProperties': {
      const extra = String(params.additionalProperty);
      const pointer = `${at}/${escapePointer(extra)}`;
      const allowed = Object.keys((err.parentSchema as { properties?: object }).properties ?? {});
      return {
        pointer,
        message: `"${extra}" is not allowed here; the allowed fields are ${allowed.map((k) => `"${k}"`).join(', ')}.`,
      };
    }
    case 'type': {
      const type = String(params.type);
      // An RPC URL entry that is neither a string nor an object fails the `else` branch's type.
      const isEntry = /^\/rpc_urls\/\d+$/.test(at);
      const expected = isEntry ? 'a URL string or an object {"url", "weight"}' : (ARTICLE[type] ?? type);
      return { pointer: at, message: `${describePointer(at)} must be ${expected}.` };
    }
    case 'minimum':
    case 'maximum':
      return { pointer: at, message: rangeMessage(at, err.parentSchema as { minimum?: number; maximum?: number }) };
    case 'minItems':
      return {
        pointer: at,
        message: `${describePointer(at)} must have at least ${String(params.limit)} ${plural(params.limit, 'entry', 'entries')}.`,
      };
    case 'maxItems':
      return { pointer: at, message: `${describePointer(at)} must have at most ${String(params.limit)} entries.` };
    case 'minLength':
      return { pointer: at, message: `${describePointer(at)} must not be empty.` };
    case 'maxLength':
      return {
        pointer: at,
        message: `${describePointer(at)} must be at most ${String(params.limit)} characters long.`,
      };
    case 'pattern':
      return {
        pointer: at,
        message: `${describePointer(at)} must be an absolute http:// or https:// URL without spaces.`,
      };
    case 'uniqueItems':
      return {
        pointer: at,
        message: `${describePointer(at)} must not list the same value twice (items ${String(params.j)} and ${String(params.i)}).`,
      };
    default:
      return { pointer: at, message: `${describePointer(at)} ${err.message ?? 'is invalid'}.` };
  }
}

function rangeMessage(at: string, schema: { minimum?: number; maximum?: number }): string {
  const what = describePointer(at);
  if (schema.minimum !== undefined && schema.maximum !== undefined) {
    return `${what} must be between ${schema.minimum} and ${schema.maximum}.`;
  }
  if (schema.minimum !== undefined) return `${what} must be at least ${schema.minimum}.`;
  return `${what} must be at most ${String(schema.maximum)}.`;
}

function plural(n: unknown, one: string, many: string): string {
  return n === 1 ? one : many;
}

/** AJV reports an `if` failure beside the real one; keep the real one, once per pointer+message. */
export function toDetails(errors: ErrorObject[]): ErrorDetail[] {
  const seen = new Set<string>();
  const out: ErrorDetail[] = [];
  for (const err of errors) {
    if (err.keyword === 'if') continue;
    const detail = toDetail(err);
    const key = `${detail.pointer}\u0000${detail.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(detail);
  }
  return out;
}
