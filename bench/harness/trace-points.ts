/**
 * Time stamps for bench/trace-write.ts, put into copies of two builds: netcfg's (tsc's output of
 * src/) and the write floor's (baselines/write-floor.ts, transpiled). Nothing here touches src/:
 * a stamp on every step of every PATCH has no place in the product, and a switch for it would sit
 * on the hot path. Each stamp goes in at an anchor, a piece of the compiled JavaScript that must
 * occur exactly once in its file; when the code has moved, stamping throws and names the anchor
 * (test/bench/trace-points.test.ts checks them all against the current build).
 *
 * A stamp is process.hrtime in ms: one clock for every thread and process (the load's client
 * stamps the time it made each request, in a header). The main thread keeps the stamps of the
 * PATCH in progress (its own, and the disk thread's, which come back with the answer), moves them
 * into one preallocated table when the response is sent (no garbage per request beyond the
 * stamps themselves), and writes the table out as JSON lines when the process exits.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

interface Point {
  file: string;
  /** A piece of the compiled code that occurs exactly once in `file`. */
  anchor: string;
  /** Code put before the anchor, after it, or (`replace`) instead of it. */
  before?: string;
  after?: string;
  replace?: string;
}

/** The clock of every stamp, in ms: process.hrtime, one clock for every thread and process. */
const CLOCK = 'Number(process.hrtime.bigint()) / 1e6';

const mark = (label: string): string => `globalThis.__trace?.mark(${JSON.stringify(label)});`;
const diskMark = (label: string): string => `globalThis.__diskTrace?.mark(${JSON.stringify(label)});`;

/** The header that carries the time the client made the request (write-rows.ts). */
export const SENT_AT_HEADER = 'x-trace-sent-at';

/** Requests kept (the rest are dropped), and stamps per request. */
const MAX_ROWS = 60_000;
const MAX_STAMPS = 32;

/**
 * The main thread's recorder, put at the top of the entry module (in the floor, whose disk
 * thread runs the same file, only its main thread keeps one). A request's row is kept once its
 * response is sent, if it went to the disk thread (a PATCH, not a readiness probe).
 */
function recorder(out: string): string {
  return `import { writeFileSync as __writeTrace } from 'node:fs';
import { PerformanceObserver as __TraceGc } from 'node:perf_hooks';
import { isMainThread as __traceMain } from 'node:worker_threads';
globalThis.__trace = !__traceMain ? undefined : (() => {
  const now = () => ${CLOCK};
  const columns = new Map();
  const table = new Float64Array(${MAX_ROWS * MAX_STAMPS}).fill(NaN);
  let rows = 0, current = null, previousFinish = NaN, gcMs = 0;
  new __TraceGc((list) => { for (const e of list.getEntries()) gcMs += e.duration; }).observe({ entryTypes: ['gc'] });
  const keep = (row) => {
    if (rows === ${MAX_ROWS}) return;
    for (const [label, value] of Object.entries(row)) {
      let column = columns.get(label);
      if (column === undefined && columns.size < ${MAX_STAMPS}) columns.set(label, (column = columns.size));
      if (column !== undefined) table[rows * ${MAX_STAMPS} + column] = value;
    }
    rows++;
  };
  process.on('exit', () => {
    const lines = [];
    for (let r = 0; r < rows; r++) {
      const row = {};
      for (const [label, column] of columns) { const v = table[r * ${MAX_STAMPS} + column]; if (!Number.isNaN(v)) row[label] = v; }
      lines.push(JSON.stringify(row));
    }
    __writeTrace(${JSON.stringify(out)}, lines.join('\\n') + '\\n');
  });
  return {
    request(ctx) {
      const sentAt = ctx.req.headers[${JSON.stringify(SENT_AT_HEADER)}];
      const row = current = { previousFinish, clientSent: sentAt === undefined ? NaN : Number(sentAt) / 1e6, frame: now() };
      ctx.res.once('finish', () => {
        row.finish = previousFinish = now();
        row.gcMs = gcMs; gcMs = 0;
        if (current === row) current = null;
        if (row.answer !== undefined) keep(row);
      });
    },
    mark(label) { if (current) current[label] = now(); },
    /** The disk thread's stamps for this request's write (a retried write's replace the first's). */
    answered(stamps) {
      if (!current) return;
      for (const label of Object.keys(current)) if (label.startsWith('d:')) delete current[label];
      for (const [label, value] of Object.entries(stamps)) current['d:' + label] = value;
      current.answer = now();
    },
  };
})();
`;
}

/** A disk thread's recorder: the stamps of the request it runs, sent back with its answer. */
const DISK_RECORDER = `globalThis.__diskTrace = { stamps: null, cleanupMs: NaN, mark(label) { if (this.stamps) this.stamps[label] = ${CLOCK}; } };\n`;
/** First thing a disk thread does with a request: its stamps start; the previous request's cleanup time goes with them. */
const DISK_START = `globalThis.__diskTrace.stamps = { previousCleanupMs: globalThis.__diskTrace.cleanupMs }; ${diskMark('recv')}`;
const CLEANUP_START = 'const __cleanupFrom = performance.now();';
const CLEANUP_END = 'globalThis.__diskTrace.cleanupMs = performance.now() - __cleanupFrom;';

const NETCFG_POINTS: Point[] = [
  { file: 'http/request-frame.js', anchor: 'const started = performance.now();', after: 'globalThis.__trace?.request(ctx);' },
  { file: 'http/request-frame.js', anchor: 'logRequest(log, { reqId: requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms });', after: mark('frameEnd') },
  { file: 'http/routes/networks.js', anchor: "const ifMatch = ctx.get('If-Match') || undefined;", before: mark('route') },
  { file: 'store/network-writer.js', anchor: 'const { rel, abs, stat, bytes } = await this.readCurrent(id);', before: mark('attempt'), after: mark('read') },
  { file: 'store/network-writer.js', anchor: 'const placing = place();', before: mark('send'), after: mark('sent') },
  { file: 'store/network-writer.js', anchor: 'checked = check();', after: mark('checked') },
  { file: 'store/network-writer.js', anchor: 'await this.afterWrite?.(abs,', before: mark('done') },
  // Only a write's answer carries stamps (not a flush's, nor a lock's).
  { file: 'store/threaded-fs.js', anchor: 'settle({ seq, result, error, removing }) {', after: 'if (result?.trace) globalThis.__trace?.answered(result.trace);' },
  { file: 'store/disk-thread.js', anchor: "port.on('message', async (message) => {", before: DISK_RECORDER, after: DISK_START },
  {
    file: 'store/disk-thread.js',
    anchor: 'port.postMessage(reply);',
    before: `if (message.op === 'write-and-replace' && reply.result) reply.result.trace = globalThis.__diskTrace.stamps;`,
    after: CLEANUP_START,
  },
  { file: 'store/disk-thread.js', anchor: '    replaced = undefined;\n});', replace: `    replaced = undefined;\n    ${CLEANUP_END}\n});` },
  { file: 'store/fs-seam.js', anchor: 'mkdirSync(lockFolder);', after: diskMark('locked') },
  { file: 'store/fs-seam.js', anchor: 'await seam.writeNewDurable(tmp, data, mode);', after: diskMark('synced') },
  { file: 'store/fs-seam.js', anchor: 'const outcome = await seam.renameIfUnchanged(tmp, to, expected, gitLockFile);', before: diskMark('go'), after: diskMark('renamed') },
  { file: 'store/fs-seam.js', anchor: 'await seam.fsyncDir(path.dirname(to));', before: diskMark('stamped'), after: diskMark('dirsynced') },
];

const FLOOR_POINTS: Point[] = [
  // The floor has no middleware of its own before its body parser: one is added (~1 us).
  { file: 'write-floor.js', anchor: '    app.use(bodyParser());', before: `    app.use(async (ctx, next) => { globalThis.__trace?.request(ctx); await next(); ${mark('frameEnd')} });\n` },
  { file: 'write-floor.js', anchor: "router.patch('/api/v1/networks/:network_id', async (ctx) => {", after: mark('route') },
  { file: 'write-floor.js', anchor: '            disk.postMessage(', before: mark('send') },
  // Its answer is the write's number alone: the stamps go with it.
  { file: 'write-floor.js', anchor: "disk.on('message', (seq) => {", replace: "disk.on('message', ({ seq, trace }) => { globalThis.__trace?.answered(trace);" },
  { file: 'write-floor.js', anchor: 'ctx.set(\'ETag\', `"${await write(id, text)}"`);', replace: `const __seq = await write(id, text); ${mark('done')} ctx.set('ETag', \`"\${__seq}"\`);` },
  { file: 'write-floor.js', anchor: "parentPort?.on('message', ({ seq, tmp, target, lock, text }) => {", before: DISK_RECORDER, after: DISK_START },
  { file: 'write-floor.js', anchor: 'mkdirSync(lock);', after: diskMark('locked') },
  { file: 'write-floor.js', anchor: 'parentPort?.postMessage(seq);', replace: `parentPort?.postMessage({ seq, trace: globalThis.__diskTrace.stamps }); ${CLEANUP_START}` },
  { file: 'write-floor.js', anchor: 'rmdirSync(lock);', after: CLEANUP_END },
  { file: 'durable-replace.js', anchor: '    closeSync(fd);', after: diskMark('synced') },
  { file: 'durable-replace.js', anchor: '    renameSync(tmp, target);', after: diskMark('renamed') },
  { file: 'durable-replace.js', anchor: '    closeSync(dirFd);', after: diskMark('dirsynced') },
];

function apply(dir: string, points: Point[]): void {
  const files = new Map<string, string>();
  for (const { file, anchor, before = '', after = '', replace = anchor } of points) {
    const text = files.get(file) ?? readFileSync(path.join(dir, file), 'utf8');
    const at = text.indexOf(anchor);
    if (at < 0 || text.indexOf(anchor, at + 1) >= 0) throw new Error(`trace: "${anchor}" is not in ${file} exactly once; the code moved, update bench/harness/trace-points.ts`);
    files.set(file, text.slice(0, at) + before + replace + after + text.slice(at + anchor.length));
  }
  for (const [file, text] of files) writeFileSync(path.join(dir, file), text);
}

function stamp(dir: string, points: Point[], entry: string, out: string): void {
  apply(dir, points);
  const main = path.join(dir, entry);
  writeFileSync(main, recorder(out) + readFileSync(main, 'utf8'));
}

/** Stamps a copy of netcfg's compiled src/ (`dir`); its rows go to `out` at exit. */
export function traceNetcfg(dir: string, out: string): void {
  stamp(dir, NETCFG_POINTS, 'main.js', out);
}

/** Stamps a copy of the compiled write floor (`dir` holds write-floor.js and durable-replace.js). */
export function traceFloor(dir: string, out: string): void {
  stamp(dir, FLOOR_POINTS, 'write-floor.js', out);
}
