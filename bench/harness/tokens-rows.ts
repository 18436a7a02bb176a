/**
 * The tokens file's parse at two sizes, in this process: 32,000 entries against 4,000. Linear, eight times the
 * entries take about eight times as long; the duplicate checks once scanned arrays and took about 50 times as long
 * (60,000 entries: three minutes). A ratio of one run against itself, so a shared machine's noise mostly cancels.
 */
import { createHash } from 'node:crypto';
import { parseTokensFile } from '../../src/access/tokens-file.js';
import type { Row } from './results.js';

function fileOfSize(n: number): string {
  const lines = ['tokens:'];
  for (let i = 0; i < n; i++)
    lines.push(`  - name: t${i}\n    sha256: "${createHash('sha256').update(`t${i}`).digest('hex')}"\n    role: read`);
  return `${lines.join('\n')}\n`;
}

/** The best of `runs` parses of `text`, in ms; throws unless every entry parsed. */
function bestParseMs(text: string, entries: number, runs: number): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const { tokens, problems } = parseTokensFile(text);
    const ms = performance.now() - started;
    if (problems.length > 0 || tokens.length !== entries)
      throw new Error(`the ${entries}-entry file did not parse whole`);
    best = Math.min(best, ms);
  }
  return best;
}

export function tokensParseRow(runs: number): Row {
  const small = fileOfSize(4_000);
  const large = fileOfSize(32_000);
  bestParseMs(small, 4_000, 1); // the parser warmed up, so the first measure is not the JIT's
  const t1 = bestParseMs(small, 4_000, runs);
  const t8 = bestParseMs(large, 32_000, runs);
  const row: Row = {
    key: 'tokens-parse/netcfg',
    group: 'API_TOKENS_FILE parsed: 32,000 entries against 4,000',
    server: 'netcfg (parseTokensFile, in process)',
    workload: `4,000 entries ${t1.toFixed(0)} ms, 32,000 entries ${t8.toFixed(0)} ms (best of ${runs})`,
    value: t8 / t1,
    unit: 'x',
  };
  console.log(`   ${row.group}: ${row.workload}, ${row.value?.toFixed(1)}x`);
  return row;
}
