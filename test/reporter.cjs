// mocha's spec reporter, plus the plain closing line "N passed, N failed" that CI reads.
// `--reporter-option slowest=N` also lists the N slowest test files, to find where the suite's time goes: in a serial
// run each file's wall time (its hooks included); under --parallel only the time in its tests, as the workers
// report no hooks.
const path = require('node:path');
const Mocha = require('mocha');

const { EVENT_RUN_END, EVENT_SUITE_BEGIN, EVENT_SUITE_END, EVENT_TEST_END } = Mocha.Runner.constants;

class SpecWithSummary extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const slowest = Number(options?.reporterOption?.slowest ?? 0);
    const files = slowest > 0 ? fileClock(runner) : null;
    runner.once(EVENT_RUN_END, () => {
      const { passes, failures, pending } = runner.stats;
      if (files) printSlowest(files, slowest, Boolean(runner.isParallelMode?.()));
      process.stdout.write(`${passes} passed, ${failures} failed${pending ? `, ${pending} skipped` : ''}\n`);
    });
  }
}

/** Per test file: when its first top-level suite began, when its last ended, and the time its tests took. */
function fileClock(runner) {
  const files = new Map();
  runner.on(EVENT_SUITE_BEGIN, (suite) => {
    if (suite.file && !files.has(suite.file)) files.set(suite.file, { begin: Date.now(), end: Date.now(), inTests: 0 });
  });
  runner.on(EVENT_SUITE_END, (suite) => {
    const file = files.get(suite.file);
    if (file) file.end = Date.now();
  });
  runner.on(EVENT_TEST_END, (test) => {
    if (!test.file) return;
    if (!files.has(test.file)) files.set(test.file, { begin: 0, end: 0, inTests: 0 }); // --parallel sends no suite's file
    files.get(test.file).inTests += test.duration ?? 0;
  });
  return files;
}

function printSlowest(files, count, parallel) {
  const took = (f) => (parallel ? f.inTests : f.end - f.begin);
  const rows = [...files].sort((a, b) => took(b[1]) - took(a[1])).slice(0, count);
  const what = parallel ? 'time in tests, hooks not counted under --parallel' : 'wall time, hooks included';
  process.stdout.write(`\nslowest ${rows.length} test files (${what}):\n`);
  for (const [file, f] of rows)
    process.stdout.write(`  ${(took(f) / 1000).toFixed(1).padStart(6)} s  ${path.relative(process.cwd(), file)}\n`);
  process.stdout.write('\n');
}

module.exports = SpecWithSummary;
