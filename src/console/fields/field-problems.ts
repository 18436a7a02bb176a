/**
 * Problems of an RPC URL list, keyed to the form's fields: before sending, from the PATCH schema
 * compiled into the page (with the server's own sentences); after, from the `details` pointers
 * the server answered. `/rpc_urls/2/url` is the field `RPC URL 3`.
 */
import { validateUpdate } from 'virtual:update-validator';
import { toDetails } from '../../store/validation/schema-errors.js';
import type { Detail } from '../state/api.js';

/** Field key -> messages: `url-2`, `weight-2`, or `list` for the list as a whole. */
export type Problems = Record<string, string[]>;

/** The rows as typed; a weight is text until it is sent. */
export interface Row {
  url: string;
  weight: string;
  /** Its URL is a secret reference's value, served masked: shown, not edited; a Save sends the mask back, which keeps the reference. */
  secret?: boolean;
}

/** A weight as typed: a whole number is one; anything else stays text, for the schema to name. */
function weightOf(text: string): number | string {
  return /^\s*-?\d+\s*$/.test(text) ? Number(text) : text;
}

export function bodyOf(rows: Row[]): { rpc_urls: Array<{ url: string; weight: number | string }> } {
  return { rpc_urls: rows.map((r) => ({ url: r.url.trim(), weight: weightOf(r.weight) })) };
}

export function checkRows(rows: Row[]): Problems {
  if (validateUpdate(bodyOf(rows))) return {};
  return problemsOf(toDetails(validateUpdate.errors ?? []));
}

export function problemsOf(details: Detail[]): Problems {
  const problems: Problems = {};
  for (const { pointer, message } of details) {
    const key = fieldOf(pointer);
    (problems[key] ??= []).push(inFieldNames(message));
  }
  return problems;
}

/** The sentences name JSON paths (`rpc_urls[2].url`, counted from 0); the form's labels count from 1. */
function inFieldNames(message: string): string {
  return message
    .replace(/rpc_urls\[(\d+)\]\.weight/g, (_, i: string) => `Weight ${Number(i) + 1}`)
    .replace(/rpc_urls\[(\d+)\](\.url)?/g, (_, i: string) => `RPC URL ${Number(i) + 1}`)
    .replace(/\brpc_urls\b/g, 'The list of RPC URLs');
}

function fieldOf(pointer: string): string {
  const match = /^\/rpc_urls\/(\d+)(?:\/(url|weight))?$/.exec(pointer);
  if (!match) return 'list';
  return `${match[2] ?? 'url'}-${match[1]}`;
}

export function hasProblems(problems: Problems): boolean {
  return Object.keys(problems).length > 0;
}
