/**
 * Changes made on disk behind netcfg's back, and how soon GET shows them: single edits (a file
 * replaced the way editors and config-sync tools do: temp file + rename), and a `git checkout`
 * between two commits that differ in 1,000 of 10,000 files.
 */
import { execFileSync } from 'node:child_process';
import { renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fixtureDir, scratchCopy } from './fixtures.js';
import { Poller, percentileOf } from './http-poll.js';
import { network, withRpcUrls } from './network-data.js';
import type { Row } from './results.js';
import { startNetcfg, waitWatching, type Server } from './servers.js';
import { stopProcess } from './processes.js';

/** `edits` files of the served folder rewritten one at a time; ms until GET shows each. */
export async function visibilityRow(server: Server, dir: string, edits: number, fixtureSize: number): Promise<Row> {
  await waitWatching(server);
  const poller = new Poller(server.url);
  const delays: number[] = [];
  let missed = 0;
  try {
    for (let k = 0; k < edits; k++) {
      const n = (k * 5) % fixtureSize; // a different network each time
      const marker = `https://seen-${Date.now()}-${k}.example.com/rpc`;
      const net = withRpcUrls(n, [marker, { url: `https://seen-backup-${k}.example.org/rpc`, weight: 20 }]);
      const file = path.join(dir, net.rel);
      const tmp = path.join(dir, net.family, `.${net.name}.edit.tmp`);
      writeFileSync(tmp, net.yaml);
      renameSync(tmp, file);
      const ms = await poller.until(`/api/v1/networks/${net.id}`, (body) => body.includes(marker), 5000);
      if (ms === null) missed++;
      delays.push(ms ?? 5000);
    }
  } finally {
    poller.close();
  }
  return {
    key: 'visible/netcfg',
    group: 'file written on disk -> visible in GET',
    server: 'netcfg (1,000 networks)',
    workload: `${edits} files replaced (temp + rename), GET polled on one kept-alive connection`,
    p50: percentileOf(delays, 0.5),
    p99: percentileOf(delays, 0.99),
    value: percentileOf(delays, 0.5),
    unit: 'ms',
    note: `max ${Math.max(...delays).toFixed(1)} ms${missed ? `, ${missed} not visible within 5 s` : ''}`,
  };
}

function git(repo: string, args: string[]): string {
  const identity = ['-c', 'user.name=netcfg bench', '-c', 'user.email=bench@localhost', '-c', 'commit.gpgsign=false'];
  return execFileSync('git', [...identity, ...args], {
    cwd: repo,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

const CHANGED = 1000;

/** Builds a repo of the 10,000 fixture with a second commit changing 1,000 files. */
export interface GitRepo {
  repo: string;
  base: string;
  moved: string;
}

export function buildGitRepo(): GitRepo {
  const repo = scratchCopy(fixtureDir(10_000), 'git-10k');
  git(repo, ['init', '-q', '-b', 'main']);
  git(repo, ['add', '-A']);
  git(repo, ['commit', '-q', '-m', 'base']);
  const base = git(repo, ['rev-parse', 'HEAD']);
  for (let k = 0; k < CHANGED; k++) {
    const n = k * 10;
    writeFileSync(path.join(repo, network(n).rel), withRpcUrls(n, [`https://moved-${n}.example.net/rpc`]).yaml);
  }
  git(repo, ['commit', '-q', '-a', '-m', 'move 1,000 networks']);
  return { repo, base, moved: git(repo, ['rev-parse', 'HEAD']) };
}

async function revision(poller: Poller): Promise<number> {
  const res = await poller.get('/api/v1/networks?per_page=1');
  return (JSON.parse(res.body) as { revision: number }).revision;
}

/** How many of the changed networks GET shows in the state of `moved` (true) or `base`. */
async function countShown(server: Server, moved: boolean): Promise<number> {
  let shown = 0;
  const ids = Array.from({ length: CHANGED }, (_, k) => k * 10);
  for (let i = 0; i < ids.length; i += 20) {
    const batch = ids.slice(i, i + 20).map(async (n) => {
      const body = await (await fetch(`${server.url}/api/v1/networks/${network(n).id}`)).text();
      if (body.includes(`moved-${n}.example.net`) === moved) shown++;
    });
    await Promise.all(batch);
  }
  return shown;
}

/** Checkouts back and forth; ms from `git checkout` returning until GET serves all 1,000 changes. */
export async function gitCheckoutRow(checkouts: number, built?: GitRepo): Promise<Row> {
  const { repo, base, moved } = built ?? buildGitRepo();
  const server = await startNetcfg('netcfg-git-10k', repo);
  await waitWatching(server);
  const poller = new Poller(server.url);
  const samples: number[] = [];
  const notes: string[] = [];
  try {
    for (let i = 0; i < checkouts; i++) {
      const toMoved = i % 2 === 1;
      const before = await revision(poller);
      git(repo, ['checkout', '-q', toMoved ? moved : base]);
      const started = performance.now();
      // The index counts every change in its revision: 1,000 changed files, 1,000 more.
      const waited = await poller.until(
        '/api/v1/networks?per_page=1',
        (body) => (JSON.parse(body) as { revision: number }).revision >= before + CHANGED,
        30_000,
        2,
      );
      let settled = waited === null ? NaN : performance.now() - started;
      let shown = await countShown(server, toMoved);
      if (shown < CHANGED && waited !== null) {
        // The revision moved but some content did not (yet): settled is when all of it shows.
        while (shown < CHANGED && performance.now() - started < 30_000) shown = await countShown(server, toMoved);
        settled = shown < CHANGED ? NaN : performance.now() - started;
      }
      const direction = toMoved ? 'base->moved' : 'moved->base';
      notes.push(
        Number.isNaN(settled)
          ? `${direction} NOT settled in 30 s (${shown}/${CHANGED} shown)`
          : `${direction} ${settled.toFixed(0)} ms`,
      );
      samples.push(settled);
      // Let the watcher's reconcile after the storm finish before the next checkout.
      await new Promise((r) => setTimeout(r, 1000));
    }
  } finally {
    poller.close();
    await stopProcess(server.child);
  }
  const worst = Math.max(...samples);
  return {
    key: 'git/netcfg',
    group: '`git checkout` changing 1,000 of 10,000 files -> index settled',
    server: 'netcfg (10,000 networks)',
    workload: `${checkouts} checkouts back and forth; GET of all 1,000 changed ids verified after each`,
    value: worst,
    unit: 'ms',
    p50: percentileOf(samples, 0.5),
    note: `worst of ${checkouts}: ${notes.join(', ')}`,
  };
}
