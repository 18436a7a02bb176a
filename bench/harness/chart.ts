/**
 * bench/ratios.svg: one bar per target, its length how far the measured ratio is from the target
 * (measured / required, or required / measured for "at most" targets), on a log scale with the
 * target at 1.0. Green is met, red is missed. Hand-written SVG: no chart library needed.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { BENCH_DIR } from './fixtures.js';
import { fmt, type Check } from './results.js';

export const CHART_SVG = path.join(
  process.env.BENCH_OUT_DIR ? path.resolve(process.env.BENCH_OUT_DIR) : BENCH_DIR,
  'ratios.svg',
);

const LABEL_W = 430;
const PLOT_W = 420;
const ROW_H = 22;
const TOP = 48;
const MIN_LOG = -3; // 1/8
const MAX_LOG = 3; // 8x

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** measured relative to the target: >= 1 means met. */
export function headroom(c: Check): number {
  if (!Number.isFinite(c.ratio)) return c.ratio === Infinity && c.direction === 'min' ? 2 ** MAX_LOG : 2 ** MIN_LOG;
  if (c.direction === 'min') return c.required === 0 ? 2 ** MAX_LOG : c.ratio / c.required;
  if (c.required === 0) return c.ratio === 0 ? 1 : 2 ** MIN_LOG; // "none lost": exactly met or not
  return c.ratio === 0 ? 2 ** MAX_LOG : c.required / c.ratio;
}

function x(value: number): number {
  const log = Math.min(MAX_LOG, Math.max(MIN_LOG, Math.log2(value)));
  return LABEL_W + ((log - MIN_LOG) / (MAX_LOG - MIN_LOG)) * PLOT_W;
}

export function writeChart(checks: Check[], title: string): void {
  const height = TOP + checks.length * ROW_H + 40;
  const width = LABEL_W + PLOT_W + 150;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="10" y="20" font-size="15" font-weight="bold">${esc(title)}</text>`,
    `<text x="10" y="38" fill="#555">measured / target (log scale); right of the line = target met</text>`,
  ];
  for (let e = MIN_LOG; e <= MAX_LOG; e++) {
    const gx = x(2 ** e);
    parts.push(
      `<line x1="${gx}" y1="${TOP - 6}" x2="${gx}" y2="${TOP + checks.length * ROW_H}" ` +
        `stroke="${e === 0 ? '#000' : '#ddd'}" stroke-width="${e === 0 ? 1.5 : 1}"/>`,
    );
    parts.push(
      `<text x="${gx}" y="${TOP + checks.length * ROW_H + 16}" text-anchor="middle" fill="#555">${e < 0 ? `1/${2 ** -e}` : 2 ** e}</text>`,
    );
  }
  checks.forEach((c, i) => {
    const y = TOP + i * ROW_H;
    const h = headroom(c);
    const x0 = x(1);
    const x1 = x(h);
    const label = `${c.row}: ${c.target}`;
    parts.push(
      `<text x="${LABEL_W - 8}" y="${y + 15}" text-anchor="end">${esc(label.length > 70 ? `${label.slice(0, 67)}...` : label)}</text>`,
    );
    parts.push(
      `<rect x="${Math.min(x0, x1)}" y="${y + 4}" width="${Math.max(2, Math.abs(x1 - x0))}" height="${ROW_H - 8}" fill="${c.met ? '#2e9d4a' : '#d0342c'}"/>`,
    );
    const shown = Number.isFinite(c.ratio) ? fmt(c.ratio, c.ratio >= 10 ? 1 : 2) : 'n/a';
    parts.push(
      `<text x="${Math.max(x0, x1) + 6}" y="${y + 15}" fill="#333">${esc(`${shown} (${c.direction === 'min' ? '>=' : '<='} ${c.required})`)}</text>`,
    );
  });
  parts.push('</svg>');
  writeFileSync(CHART_SVG, `${parts.join('\n')}\n`);
}
