/**
 * The targets of issues 32, 33, 34, 43, 45, 50 and 51, each checked as a ratio between two rows of the same run (or, for the
 * latency, settle and memory rows, as an absolute bound). A target whose rows are missing (a
 * phase failed) is simply not listed; the run's notes say why.
 */
import { LEASE_MS } from './relayer-failover-rows.js';
import { check, fmt, ratioOf, type Check, type Row } from './results.js';

function rps(row: Row): string {
  return `${fmt(row.reqPerSec)} req/s`;
}

export function evaluateTargets(rows: Row[]): Check[] {
  const byKey = new Map(rows.map((r) => [r.key, r]));
  const checks: Check[] = [];
  const both = (a: string, b: string, fn: (x: Row, y: Row) => void): void => {
    const x = byKey.get(a);
    const y = byKey.get(b);
    if (x && y) fn(x, y);
  };
  const one = (a: string, fn: (x: Row) => void): void => {
    const x = byKey.get(a);
    if (x) fn(x);
  };

  both('get-one/netcfg', 'get-one/koa-app', (n, k) => {
    checks.push(
      check(
        n.key,
        '>= 0.9x bare Koa req/s',
        ratioOf(n.reqPerSec ?? 0, k.reqPerSec ?? 0),
        0.9,
        'min',
        `${rps(n)} / ${rps(k)}`,
      ),
    );
  });
  for (const kind of ['list-10', 'list-100']) {
    both(`${kind}/netcfg`, `${kind}/koa-app`, (n, k) => {
      checks.push(
        check(
          n.key,
          '>= 1.2x bare Koa req/s',
          ratioOf(n.reqPerSec ?? 0, k.reqPerSec ?? 0),
          1.2,
          'min',
          `${rps(n)} / ${rps(k)}`,
        ),
      );
    });
    both(`${kind}@100k/netcfg-100k`, `${kind}/netcfg`, (big, small) => {
      checks.push(
        check(
          big.key,
          '>= 0.9x the same page of 1,000',
          ratioOf(big.reqPerSec ?? 0, small.reqPerSec ?? 0),
          0.9,
          'min',
          `${rps(big)} / ${rps(small)}`,
        ),
      );
    });
  }
  for (const kind of ['get-one', 'list-10', 'list-100']) {
    both(`${kind}/netcfg`, `${kind}/json-server`, (n, j) => {
      checks.push(
        check(
          n.key,
          '>= 10x json-server req/s',
          ratioOf(n.reqPerSec ?? 0, j.reqPerSec ?? 0),
          10,
          'min',
          `${rps(n)} / ${rps(j)}`,
        ),
      );
    });
  }
  both('patch-1c/netcfg', 'patch-1c/json-server', (n, j) => {
    checks.push(
      check(
        n.key,
        '>= 3x json-server PATCH',
        ratioOf(n.reqPerSec ?? 0, j.reqPerSec ?? 0),
        3,
        'min',
        `${rps(n)} / ${rps(j)}`,
      ),
    );
  });
  both('patch-10c/netcfg', 'patch-1c/netcfg', (ten, single) => {
    checks.push(
      check(
        ten.key,
        '>= 1.5x the 1-connection row',
        ratioOf(ten.reqPerSec ?? 0, single.reqPerSec ?? 0),
        1.5,
        'min',
        `${rps(ten)} / ${rps(single)}`,
      ),
    );
  });
  one('patch-cpu/netcfg', (r) => {
    checks.push(
      check(r.key, '<= 3 ms of server CPU per PATCH', r.value ?? NaN, 3, 'max', `${fmt(r.value, 2)} ms (${r.note})`),
    );
  });
  one('tokens-parse/netcfg', (r) => {
    checks.push(check(r.key, '<= 16x the time for 8x the entries', r.value ?? NaN, 16, 'max', `${fmt(r.value, 1)}x`));
  });
  one('probe-validate/netcfg', (r) => {
    checks.push(check(r.key, '<= 2 s', r.value ?? NaN, 2, 'max', `${fmt(r.value, 2)} s`));
  });
  one('patch-one/netcfg', (r) => {
    checks.push(
      check(r.key, 'all 200 or 412, none lost', r.value ?? NaN, 0, 'max', `${r.value} problem(s): ${r.note ?? ''}`),
    );
  });
  both('git-push-10w/netcfg', 'git-push-1c/netcfg', (ten, single) => {
    checks.push(
      check(
        ten.key,
        '>= 5x one connection (group commit)',
        ratioOf(ten.reqPerSec ?? 0, single.reqPerSec ?? 0),
        5,
        'min',
        `${rps(ten)} / ${rps(single)}`,
      ),
    );
  });
  one('git-visible/netcfg', (r) => {
    checks.push(check(r.key, 'p50 <= 500 ms', r.p50 ?? NaN, 500, 'max', `p50 ${fmt(r.p50)} ms`));
    checks.push(check(r.key, 'p99 <= 2,000 ms', r.p99 ?? NaN, 2000, 'max', `p99 ${fmt(r.p99)} ms`));
  });
  both('probe-get/netcfg', 'probe-get/netcfg-off', (on, off) => {
    checks.push(
      check(
        on.key,
        '>= 0.95x the prober off',
        ratioOf(on.reqPerSec ?? 0, off.reqPerSec ?? 0),
        0.95,
        'min',
        `${rps(on)} / ${rps(off)}`,
      ),
    );
  });
  one('relayer-visible/netcfg', (r) => {
    checks.push(check(r.key, 'p50 <= 100 ms', r.p50 ?? NaN, 100, 'max', `p50 ${fmt(r.p50, 1)} ms`));
    checks.push(check(r.key, 'p99 <= 500 ms', r.p99 ?? NaN, 500, 'max', `p99 ${fmt(r.p99, 1)} ms`));
  });
  one('relayer-pass/netcfg', (r) => {
    checks.push(
      check(
        r.key,
        'the list pages + exactly 10 PATCHes per relayer',
        r.value ?? NaN,
        0,
        'max',
        `${r.value} relayer(s) off: ${r.note ?? ''}`,
      ),
    );
  });
  both('relayer-get/netcfg', 'relayer-get/netcfg-off', (on, off) => {
    checks.push(
      check(
        on.key,
        '>= 0.95x without the sync',
        ratioOf(on.reqPerSec ?? 0, off.reqPerSec ?? 0),
        0.95,
        'min',
        `${rps(on)} / ${rps(off)}`,
      ),
    );
  });
  one('relayer-failover/netcfg', (r) => {
    const bound = 2 * LEASE_MS + 1000;
    checks.push(
      check(
        r.key,
        `<= 2 lease periods + 1 s (${fmt(bound / 1000)} s)`,
        (r.value ?? NaN) / 1000,
        bound / 1000,
        'max',
        `worst ${fmt(r.value)} ms: ${r.note ?? ''}`,
      ),
    );
  });
  both('metrics-get/netcfg', 'metrics-get/netcfg-off', (on, off) => {
    checks.push(
      check(
        on.key,
        '>= 0.95x not scraped',
        ratioOf(on.reqPerSec ?? 0, off.reqPerSec ?? 0),
        0.95,
        'min',
        `${rps(on)} / ${rps(off)}`,
      ),
    );
  });
  one('metrics-scrape/netcfg', (r) => {
    checks.push(
      check(r.key, 'p50 <= 50 ms', r.p50 ?? NaN, 50, 'max', `p50 ${fmt(r.p50, 1)} ms, slowest ${fmt(r.p99, 1)} ms`),
    );
  });
  one('visible/netcfg', (r) => {
    checks.push(check(r.key, 'p50 <= 20 ms', r.p50 ?? NaN, 20, 'max', `p50 ${fmt(r.p50, 1)} ms`));
  });
  // Both starts are held to the target: the cold one (a new machine, or a changed checkout) and
  // the restart with its index cache (the usual case: a deploy or a crash on the same files).
  for (const key of ['startup/netcfg', 'startup-warm/netcfg']) {
    both(key, 'startup/parse-baseline', (n, b) => {
      checks.push(
        check(
          n.key,
          '<= 1.5x a bare read + parse',
          ratioOf(n.value ?? NaN, b.value ?? NaN),
          1.5,
          'max',
          `${fmt(n.value)} ms / ${fmt(b.value)} ms`,
        ),
      );
    });
  }
  one('git/netcfg', (r) => {
    checks.push(
      check(r.key, '<= 1 s after the checkout returns', (r.value ?? NaN) / 1000, 1, 'max', `worst ${fmt(r.value)} ms`),
    );
  });
  one('memory/netcfg', (r) => {
    checks.push(
      check(r.key, '<= 10 MB per 1,000 networks', r.value ?? NaN, 10, 'max', `${fmt(r.value, 2)} MB per 1,000 (slope)`),
    );
  });
  return checks;
}
