/**
 * The watcher while it starts, on a real folder: chokidar reads a folder and only then watches
 * it, so a folder made in between sends no event, and nothing after it is reported unless
 * something else happens in its parent. What lands in that gap must still be served and watched.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { etagOf } from '../../../src/store/validation/network-file.js';
import type { NetworkStore } from '../../../src/store/network-store.js';
import { makeConfigDir, networkYaml, removeDir, standardFiles, writeFile } from '../../helpers/fixtures.js';
import { served, startStore, until } from '../../helpers/store.js';

describe('store/watcher while it starts (real folder, inotify)', () => {
  let root: string;
  let store: NetworkStore | undefined;

  afterEach(async () => {
    await store?.close();
    store = undefined;
    removeDir(root);
  });

  it('a family folder made at any moment of the start is served, then watched', async function () {
    // Thirteen starts over 30,000 entries: CPU-bound, 60 s alone and past 110 s on two cores shared with a second
    // suite. The bounds below are for a hang: every wait ends on the condition itself, polled on each index change.
    this.timeout(300_000);
    root = makeConfigDir(standardFiles());
    // 30,000 hidden entries make chokidar's first read of the folder long (it looks at each one):
    // measured, ~200 ms of a ~470 ms start lie between its listing of the folder and its watch.
    for (let i = 0; i < 30_000; i++) writeFileSync(path.join(root, `.pad-${i}`), '');
    const v1 = networkYaml({ extra: 'symbol: V1' });
    const v2 = networkYaml({ extra: 'symbol: V2' });
    let began = performance.now();
    store = await startStore(root);
    const startMs = performance.now() - began;
    await store.close();
    // One new family per start, made a further 1/12 of the way through it each time: several
    // land in the gap, and nothing else changes in the folder after them.
    const STEPS = 12;
    for (let k = 0; k < STEPS; k++) {
      const family = `late${k}`;
      began = performance.now();
      const starting = startStore(root);
      await delay((startMs * k) / STEPS);
      writeFile(root, `${family}/a.yaml`, v1);
      const madeAt = Math.round(performance.now() - began);
      const s = (store = await starting);
      const serves = (text: string) => (): boolean => served(s, `${family}:a`)?.etag === etagOf(text);
      // A file made after the start ended is reported once chokidar has read the 30,000 entries again (1.6-1.8 s of
      // CPU at load 14): a deadline of seconds is a speed claim on a loaded host, so 30 s bounds a miss instead.
      await until(s, serves(v1), 30_000, `${family} (made ${madeAt} ms into a ${Math.round(startMs)} ms start) served`);
      await s.whenIdle(); // past the re-check that follows each change: only an event can tell now
      writeFileSync(path.join(root, family, 'a.yaml'), v2);
      await until(
        s,
        serves(v2),
        30_000,
        `the edit in ${family} (made ${madeAt} ms into a ${Math.round(startMs)} ms start) served`,
      );
      await s.close();
      store = undefined;
    }
  });
});
