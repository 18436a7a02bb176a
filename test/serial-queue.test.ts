/**
 * The serial queues: tasks of one queue (one key) never overlap and run in the order asked, a
 * failure reaches its own caller alone, other keys run alongside, and settled() waits for all.
 */
import { expect } from 'chai';
import { KeyedQueues, SerialQueue } from '../src/serial-queue.js';

interface Step {
  key: string;
  fails?: boolean;
}

/** A task that records its start and end, and ends when its gate opens. */
function gated(log: string[], name: string, fails = false) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const task = async (): Promise<string> => {
    log.push(`start ${name}`);
    await gate;
    log.push(`end ${name}`);
    if (fails) throw new Error(`${name} failed`);
    return name;
  };
  return { task, open };
}

const CASES: Array<{ name: string; steps: Step[]; started: string[] }> = [
  { name: 'one key: one at a time, in order', steps: [{ key: 'a' }, { key: 'a' }, { key: 'a' }], started: ['start 0'] },
  {
    name: 'two keys run alongside',
    steps: [{ key: 'a' }, { key: 'b' }, { key: 'a' }],
    started: ['start 0', 'start 1'],
  },
  { name: 'a failure lets the next run', steps: [{ key: 'a', fails: true }, { key: 'a' }], started: ['start 0'] },
];

describe('serial-queue', () => {
  for (const row of CASES) {
    it(`KeyedQueues: ${row.name}`, async () => {
      const queues = new KeyedQueues();
      const log: string[] = [];
      const tasks = row.steps.map((step, i) => gated(log, String(i), step.fails));
      const results = row.steps.map((step, i) =>
        queues.run(step.key, tasks[i]!.task).catch((err: Error) => err.message),
      );
      await new Promise((resolve) => setImmediate(resolve));
      expect(log, 'started before any ended').to.deep.equal(row.started);
      let done = false;
      const settled = queues.settled().then(() => (done = true));
      for (const t of tasks) t.open();
      const outcomes = await Promise.all(results);
      await settled;
      expect(done).to.equal(true);
      outcomes.forEach((outcome, i) => expect(outcome).to.equal(row.steps[i]!.fails ? `${i} failed` : String(i)));
      // Within a key, each task started after the one before it ended.
      for (const key of new Set(row.steps.map((s) => s.key))) {
        const mine = row.steps.flatMap((s, i) => (s.key === key ? [String(i)] : []));
        const order = log.filter((line) => mine.includes(line.split(' ')[1]!));
        expect(order).to.deep.equal(mine.flatMap((n) => [`start ${n}`, `end ${n}`]));
      }
    });
  }

  it("SerialQueue: runs in order, a failure is its caller's alone, settled() waits for the last", async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    const first = gated(log, 'first', true);
    const second = gated(log, 'second');
    const a = queue.run(first.task);
    const b = queue.run(second.task);
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).to.deep.equal(['start first']);
    first.open();
    second.open();
    await queue.settled();
    expect(log).to.deep.equal(['start first', 'end first', 'start second', 'end second']);
    expect(await a.catch((err: Error) => err.message)).to.equal('first failed');
    expect(await b).to.equal('second');
  });
});
