/**
 * Reads a V8 .cpuprofile (written by `node --cpu-prof`) and says where the time went: self time per
 * function and per module (node_modules package, a netcfg source file, or node's internals), and
 * the inclusive time of netcfg's own functions. Enough to find a hot spot without DevTools.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface Hot {
  name: string;
  ms: number;
  share: number;
}

export interface ProfileSummary {
  totalMs: number;
  idleMs: number;
  byFunction: Hot[];
  byModule: Hot[];
  /** Inclusive time of functions in netcfg's dist/src files (callees included). */
  netcfgInclusive: Hot[];
}

function moduleOf(url: string): string {
  if (url === '') return '(native/vm)';
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1] as string;
  const ours = /\/dist\/(src\/.+)$/.exec(url);
  if (ours) return ours[1] as string;
  if (url.startsWith('node:')) return url;
  return url.replace(/^file:\/\//, '');
}

function top(map: Map<string, number>, total: number, n: number): Hot[] {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, us]) => ({ name, ms: us / 1000, share: us / total }));
}

/** `skipMs`: ignore the first ms of the profile (start-up), to see the workload alone. */
export function summarise(file: string, n = 25, skipMs = 0): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<number, number>();
  let clock = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    clock += delta;
    if (clock >= skipMs * 1000) self.set(id, (self.get(id) ?? 0) + delta);
  });
  let total = 0;
  let idle = 0;
  const fn = new Map<string, number>();
  const mod = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, us] of self) {
    const node = byId.get(id) as ProfileNode;
    const { functionName, url, lineNumber } = node.callFrame;
    total += us;
    if (functionName === '(idle)' || functionName === '(program)' || functionName === '(garbage collector)') {
      if (functionName === '(idle)') idle += us;
      fn.set(functionName, (fn.get(functionName) ?? 0) + us);
      continue;
    }
    const key = `${functionName || '(anonymous)'} ${moduleOf(url)}:${lineNumber + 1}`;
    fn.set(key, (fn.get(key) ?? 0) + us);
    mod.set(moduleOf(url), (mod.get(moduleOf(url)) ?? 0) + us);
    // Charge this sample to every netcfg frame on its stack, once per distinct frame.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = (byId.get(at) as ProfileNode).callFrame;
      if (!frame.url.includes('/dist/src/')) continue;
      const k = `${frame.functionName || '(anonymous)'} ${moduleOf(frame.url)}:${frame.lineNumber + 1}`;
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + us);
    }
  }
  const busy = total - idle;
  return {
    totalMs: total / 1000,
    idleMs: idle / 1000,
    byFunction: top(fn, busy, n),
    byModule: top(mod, busy, n),
    netcfgInclusive: top(inclusive, busy, n),
  };
}

export function printSummary(title: string, s: ProfileSummary): void {
  const line = (h: Hot): string =>
    `  ${h.ms.toFixed(0).padStart(7)} ms ${(h.share * 100).toFixed(1).padStart(5)}%  ${h.name}`;
  console.log(
    `\n## ${title}: ${s.totalMs.toFixed(0)} ms sampled, ${s.idleMs.toFixed(0)} ms idle (shares are of the busy time)`,
  );
  console.log('self time by function:');
  s.byFunction.forEach((h) => console.log(line(h)));
  console.log('self time by module:');
  s.byModule.forEach((h) => console.log(line(h)));
  console.log('inclusive time of netcfg functions:');
  s.netcfgInclusive.forEach((h) => console.log(line(h)));
}
