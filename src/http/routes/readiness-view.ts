/**
 * How much of readiness a caller is told, as a pure function over the whole report. Readiness is
 * open (orchestrators probe it without a token), so where tokens are configured a caller without
 * a valid one gets the status and each component's status and counts only: no variable name, no
 * relayer name, no path, no error text. A read (or write) token adds the index's details (invalid
 * files with line and column; within its scope; an unset variable's name left out). An admin token,
 * or a server with no token at all (loopback, every route open), gets everything.
 */
import { classifyPath } from '../../store/index.js';

export type Viewer = 'everything' | 'anonymous' | 'read';

export interface ReadinessAnswer {
  ready: boolean;
  status: string;
  reason?: string;
  components: Record<string, Record<string, unknown>>;
  timestamp: string;
}

/** Said in place of an invalid file's error when the error names a variable the caller may not learn. */
export const SECRET_REF_HIDDEN =
  'a secret reference names a variable that is not set or not allowed (an admin token sees which)';

/**
 * The report with its top-level status the worst of its components': a relayer drifted, a URL dead or
 * the tokens file gone shows at the top, not only inside. A served index is never worse than
 * `degraded` for a component's sake (readiness' 200 or 503 is the store's alone).
 */
export function withWorstStatus(report: ReadinessAnswer): ReadinessAnswer {
  if (!report.ready) return report;
  const bad = Object.entries(report.components).filter(([, c]) => c.status !== 'healthy');
  if (bad.length === 0) return { ...report, status: 'healthy' };
  const reason = report.reason ?? bad.map(([name, c]) => `${name} is ${String(c.status)}`).join(', ');
  return { ...report, status: 'degraded', reason };
}

/** `scope`: the ids a read token may see (null: all); unused for the other viewers. */
export function readinessFor(
  full: ReadinessAnswer,
  viewer: Viewer,
  scope: ((id: string) => boolean) | null = null,
): ReadinessAnswer {
  if (viewer === 'everything') return full;
  const components: Record<string, Record<string, unknown>> = {};
  for (const [name, component] of Object.entries(full.components)) components[name] = countsOnly(component);
  if (viewer === 'read' && full.components.index) components.index = indexDetails(full.components.index, scope);
  return { ready: full.ready, status: full.status, components, timestamp: full.timestamp };
}

/** A component's status and its counts: each number as it is, each list as `<key>_count`; nothing else. */
function countsOnly(component: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { status: component.status };
  for (const [key, value] of Object.entries(component)) {
    if (typeof value === 'number') out[key] = value;
    else if (Array.isArray(value)) out[`${key}_count`] = value.length;
  }
  return out;
}

interface InvalidEntry {
  path: string;
  error: string;
  unset_secret?: string;
  secret_ref?: string;
}

/** The index as a read token sees it: every field, the invalid files of its scope, no unset variable's name. */
function indexDetails(
  index: Record<string, unknown>,
  scope: ((id: string) => boolean) | null,
): Record<string, unknown> {
  const invalid = (index.invalid_files as InvalidEntry[] | undefined) ?? [];
  const shown = invalid
    .filter((file) => {
      if (scope === null) return true;
      const kind = classifyPath(file.path);
      return kind.kind === 'network' && scope(kind.id.id);
    })
    .map(({ unset_secret, secret_ref, ...file }) =>
      unset_secret === undefined && secret_ref === undefined ? file : { ...file, error: SECRET_REF_HIDDEN },
    );
  return { ...index, invalid_files: shown };
}
