/**
 * Start-up and memory. Start-up is the time from spawning `node dist/src/main.js` on 10,000 files
 * to the first 200 from /api/v1/ready, against a process that only reads and parses the same files
 * (both include node's own start). Memory is the server's resident set (VmRSS) right after ready,
 * at 1,000, 10,000 and 100,000 networks; the cost per 1,000 networks is the slope between sizes,
 * since a bare node process with netcfg's modules loaded is a fixed ~60-70 MB whatever it serves.
 */
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fixtureDir, TMP_DIR, warmFiles } from './fixtures.js';
import { parseFolder } from './process-baselines.js';
import { rssMb, stopProcess } from './processes.js';
import type { Row } from './results.js';
import { startNetcfg, waitWatching } from './servers.js';

export interface StartupResult {
  rows: Row[];
  rss10k: number;
}

export async function startupRows(runs: number): Promise<StartupResult> {
  const dir = fixtureDir(10_000);
  const ours: number[] = [];
  const rss: number[] = [];
  const watching: number[] = [];
  const warm: number[] = [];
  const bare: number[] = [];
  const inside: number[] = [];
  const cache = path.join(TMP_DIR, 'startup-10k.index.jsonl');
  for (let i = 0; i < runs; i++) {
    // Cold: no index cache, every file read and parsed. It leaves the cache the warm start uses.
    rmSync(cache, { force: true });
    // Every start finds the files in the page cache (see warmFiles): it measures the process.
    warmFiles(dir);
    const server = await startNetcfg(`netcfg-startup-10k-${i + 1}`, dir, { indexCache: cache });
    try {
      ours.push(server.readyAt - server.child.spawnedAt);
      rss.push(rssMb(server.child.pid));
      await waitWatching(server);
      watching.push(performance.now() - server.child.spawnedAt);
    } finally {
      await stopProcess(server.child);
    }
    if (!existsSync(cache)) throw new Error('the cold start left no index cache');
    warmFiles(dir);
    const again = await startNetcfg(`netcfg-restart-10k-${i + 1}`, dir, { indexCache: cache });
    warm.push(again.readyAt - again.child.spawnedAt);
    await stopProcess(again.child);
    // The baseline takes its turn in the same round, so a slow moment of the machine (the disk
    // loop's writeback, a neighbour) lands on both rather than on whichever ran first.
    warmFiles(dir);
    const run = await parseFolder(dir, i + 1);
    if (run.output.files !== 10_000) throw new Error(`parse baseline read ${run.output.files} files, not 10,000`);
    bare.push(run.wallMs);
    inside.push(run.output.ms);
  }
  const best = Math.min(...ours);
  const bestBare = Math.min(...bare);
  return {
    rss10k: rss[ours.indexOf(best)] as number,
    rows: [
      {
        key: 'startup/parse-baseline',
        group: 'startup, 10,000 files -> ready',
        server: 'bare readFileSync + YAML.parse (own process)',
        workload: 'spawn -> every file parsed into a Map -> exit',
        value: bestBare,
        unit: 'ms',
        note: `best of ${runs}: ${bare.map((m) => m.toFixed(0)).join(', ')} ms; the read + parse loop alone ${Math.min(...inside).toFixed(0)} ms`,
      },
      {
        key: 'startup/netcfg',
        group: 'startup, 10,000 files -> ready',
        server: 'netcfg, cold (no index cache: every file parsed)',
        workload: 'spawn -> GET /api/v1/ready answers 200 (polled every 10 ms)',
        value: best,
        unit: 'ms',
        note:
          `best of ${runs}: ${ours.map((m) => m.toFixed(0)).join(', ')} ms; RSS after ready ${rss.map((m) => m.toFixed(1)).join(', ')} MB; ` +
          `watcher running (readiness components.watcher.state "watching") ${watching.map((m) => m.toFixed(0)).join(', ')} ms after spawn`,
      },
      {
        key: 'startup-warm/netcfg',
        group: 'startup, 10,000 files -> ready',
        server: 'netcfg, restart (index cache of the cold start; no file changed)',
        workload: 'spawn -> GET /api/v1/ready answers 200 (polled every 10 ms)',
        value: Math.min(...warm),
        unit: 'ms',
        note: `best of ${runs}: ${warm.map((m) => m.toFixed(0)).join(', ')} ms; an lstat per file, a read and parse only for files whose stamp changed`,
      },
    ],
  };
}

export function memoryRow(rss: Array<{ networks: number; mb: number }>): Row {
  const sorted = [...rss].sort((a, b) => a.networks - b.networks);
  const small = sorted[0] as { networks: number; mb: number };
  const large = sorted[sorted.length - 1] as { networks: number; mb: number };
  const slope = ((large.mb - small.mb) / (large.networks - small.networks)) * 1000;
  return {
    key: 'memory/netcfg',
    group: 'memory: RSS per 1,000 networks',
    server: 'netcfg',
    workload:
      'VmRSS right after ready: ' +
      sorted.map((r) => `${r.networks.toLocaleString('en-US')}: ${r.mb.toFixed(1)} MB`).join(', '),
    value: slope,
    unit: 'MB / 1,000',
    note:
      `slope from ${small.networks.toLocaleString('en-US')} to ${large.networks.toLocaleString('en-US')} ` +
      `networks; whole process per 1,000 at ${large.networks.toLocaleString('en-US')}: ` +
      `${((large.mb / large.networks) * 1000).toFixed(2)} MB`,
  };
}
