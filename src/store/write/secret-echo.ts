/**
 * A PATCH's rpc_urls against the secret references of the version served (secret-refs.ts), before
 * anything else reads them: what a client was served comes back as the reference it stands for, so
 * a mask is never written to a file, and a provider key reaches git only when a token that may
 * see secrets writes it out on purpose.
 */
import { NetcfgError } from '../../errors.js';
import { showAs } from '../../redact.js';
import { refOf } from '../validation/secret-refs.js';
import type { SecretEntry } from '../network-record.js';
import { KnownSecrets } from './secret-spellings.js';

/** A masked URL: netcfg's `***` in place of a secret part. */
const MASKED = /\*\*\*/;

/** What the writer may do with secrets: write a value out (`reveal`), add or change references (`changeReferences`). */
export interface SecretRights {
  reveal: boolean;
  changeReferences: boolean;
}

/**
 * A PATCH body whose rpc_urls has each entry that is the masked value of a secret entry of `current` (or its value,
 * sent with `secret: true`) replaced by that entry's reference, taken in order, and every `secret`
 * field dropped. Refuses a value marked secret that matches none, a masked value that matches none
 * (the network changed since it was read); unless `rights.reveal`, a URL holding any secret netcfg
 * knows (`known`: value -> variable) in any spelling, which would put a key into git; unless
 * `rights.changeReferences`, a reference to a variable `current` does not reference (as many times).
 */
export function restoreSecrets(
  body: unknown,
  current: readonly SecretEntry[],
  known: ReadonlyMap<string, string>,
  rights: SecretRights,
): unknown {
  const rpcUrls = typeof body === 'object' && body !== null ? (body as { rpc_urls?: unknown }).rpc_urls : undefined;
  if (!Array.isArray(rpcUrls)) return body; // the schema says what is wrong
  const unused = [...current];
  const spellings = rights.reveal ? null : new KnownSecrets(known);
  const restored = rpcUrls.map((entry: unknown, index) => {
    const object =
      typeof entry === 'object' && entry !== null && !Array.isArray(entry) ? (entry as Record<string, unknown>) : null;
    const url = typeof entry === 'string' ? entry : typeof object?.url === 'string' ? object.url : null;
    if (url === null) return entry;
    const flagged = object?.secret === true;
    const match = unused.findIndex((s) => s.masked === url || (flagged && s.url === url));
    if (match >= 0) {
      const [secret] = unused.splice(match, 1) as [SecretEntry];
      const ref = { type: 'env', value: secret.name };
      // The file's own form where the weight allows it, so an echo changes no line it need not.
      return object === null || (secret.plain && object.weight === 100) ? ref : { ...withoutSecret(object), url: ref };
    }
    const place = `rpc_urls[${index}]`;
    if (flagged)
      refuse(
        'VALIDATION_FAILED',
        index,
        `${place} is marked secret but is neither the masked value nor the value of a secret entry of this network; ` +
          `to add one, send {"type": "env", "value": "NAME"}.`,
      );
    if (MASKED.test(url))
      refuse(
        'VALIDATION_FAILED',
        index,
        `${place} holds ***, the mask netcfg serves in place of a secret, ` +
          `and matches no secret entry of this network (it changed since it was read?); GET it again, or send {"type": "env", "value": "NAME"}.`,
      );
    const name = spellings?.heldIn(url) ?? null;
    if (name !== null) {
      // The variable is named only to a writer of a network that references it: another network's stays unsaid.
      const ours = current.some((s) => s.name === name);
      const what = ours
        ? `the value of the secret ${name}, or a part of it`
        : 'the value of a secret netcfg knows, or a part of it';
      const instead = ours
        ? `send {"type": "env", "value": "${name}"} instead`
        : 'send a reference {"type": "env", "value": "NAME"} instead';
      const parts = '(its user-info, a query value or a path segment, in any spelling)';
      const why = 'written out, it would put a provider key into git';
      refuse(
        'FORBIDDEN',
        index,
        `${place} holds ${what} ${parts}: ${why}; ${instead} (only a token with reveal_secrets may write the value itself).`,
      );
    }
    return object === null ? entry : withoutSecret(object);
  });
  if (!rights.changeReferences) requireKnownReferences(restored, current);
  return { ...(body as object), rpc_urls: restored };
}

/**
 * A writer that may not change references may keep those the network has (each as many times as it has it, in any
 * place; the mask sent back counts as its reference) and drop any, but may name no other variable.
 */
function requireKnownReferences(entries: readonly unknown[], current: readonly SecretEntry[]): void {
  const left = current.map((s) => s.name);
  entries.forEach((entry, index) => {
    const ref = refOf(entry);
    if (ref === null) return;
    const at = left.indexOf(ref.value);
    if (at >= 0) {
      left.splice(at, 1);
      return;
    }
    const needs = 'adding or changing a secret reference needs a token with reveal_secrets or the admin role';
    refuse(
      'FORBIDDEN',
      index,
      `rpc_urls[${index}] names the environment variable ${ref.value} beyond the references this network has: ${needs}.`,
    );
  });
}

function withoutSecret(entry: Record<string, unknown>): Record<string, unknown> {
  const { secret: _secret, ...rest } = entry;
  return rest;
}

function refuse(code: 'VALIDATION_FAILED' | 'FORBIDDEN', index: number, message: string): never {
  throw new NetcfgError(code, `${message} Nothing was written.`, {
    details: [{ pointer: `/rpc_urls/${index}`, message }],
  });
}

/** The findings of a PATCH's URL check with each secret's value shown masked, in its URL and in its error. */
export function maskFindings<T extends { url: string; error: string | null }>(
  findings: T[],
  secrets: readonly SecretEntry[],
): T[] {
  const masks = new Map(secrets.map((s) => [s.url, s.masked]));
  return findings.map((f) => showAs(f, masks.get(f.url) ?? f.url));
}
