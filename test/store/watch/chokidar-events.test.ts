/**
 * chokidar-events.ts on a real folder (inotify, and polling), in this thread: an entry of the config folder replaced under its
 * own name (RELIABILITY.md F26). chokidar tells what came and went in a folder by name, so when both steps of a
 * replacement land between two of its listings it reported nothing and kept watching the folder that was gone.
 * Here the replacement is made in one turn of this thread's loop, the one chokidar runs on: it can only ever see
 * the end state, on any host. The reliability test replaced-entries.test.ts shows the same on a built server.
 */
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ChokidarEvents } from '../../../src/store/watch/chokidar-events.js';
import { removeDir, swapEntries, writeFile } from '../../helpers/fixtures.js';
import { within } from '../../helpers/deadline.js';

interface Case {
  name: string;
  /** `evm` and `.evm-other`, made before chokidar starts. */
  make(config: string): void;
  /** The file changed after the last swap, as chokidar names it, and the path it is written through. */
  edit: { rel: string; write: string };
}

const cases: Case[] = [
  {
    name: 'a family folder and a file',
    make: (c) => {
      writeFileSync(path.join(c, 'evm'), 'a file first\n');
      writeFile(c, '.evm-other/mainnet.yaml', 'rpc_urls: [https://a.example.com]\n');
    },
    edit: { rel: 'evm/mainnet.yaml', write: 'evm/mainnet.yaml' },
  },
  {
    name: 'two family folders (a deploy by rename)',
    make: (c) => {
      writeFile(c, 'evm/mainnet.yaml', 'rpc_urls: [https://a.example.com]\n');
      writeFile(c, '.evm-other/mainnet.yaml', 'rpc_urls: [https://b.example.com]\n');
    },
    edit: { rel: 'evm/mainnet.yaml', write: 'evm/mainnet.yaml' },
  },
  {
    name: 'two family links to folders outside the watch (ln -sfn)',
    make: (c) => {
      writeFile(c, '.v1/mainnet.yaml', 'rpc_urls: [https://a.example.com]\n');
      writeFile(c, '.v2/mainnet.yaml', 'rpc_urls: [https://b.example.com]\n');
      symlinkSync('.v1', path.join(c, 'evm'));
      symlinkSync('.v2', path.join(c, '.evm-other'));
    },
    edit: { rel: 'evm/mainnet.yaml', write: '.v2/mainnet.yaml' },
  },
];

describe('store/watch/chokidar-events: an entry of the folder replaced under its name', function () {
  this.timeout(60_000);
  let config: string;
  let events: ChokidarEvents | undefined;

  beforeEach(() => {
    config = mkdtempSync(path.join(tmpdir(), 'netcfg-chokidar-'));
  });
  afterEach(async () => {
    await events?.close();
    events = undefined;
    removeDir(config);
  });

  // Polling (WATCH_POLL, for network file systems) has no event per entry: the entries are looked at every interval.
  const modes = [
    { mode: 'inotify', poll: false },
    { mode: 'polling', poll: true },
  ];
  for (const { mode, poll } of modes)
    for (const c of cases) {
      it(`${mode}: ${c.name}, trading places three times: each reported${poll ? '' : ', and a change inside the last'}`, async () => {
        c.make(config);
        const heard: Array<[string, string]> = [];
        let wake = (): void => {};
        const hear = (want: (event: string, rel: string) => boolean, what: string): Promise<void> => {
          const from = heard.length;
          const found = (): boolean => heard.slice(from).some(([event, rel]) => want(event, rel));
          return within(
            new Promise<void>((resolve) => {
              wake = () => found() && resolve();
            }),
            10_000, // a hang bound: what this guards against is never
            `${what} (heard: ${JSON.stringify(heard.slice(from))})`,
          );
        };
        events = new ChokidarEvents(
          config,
          { poll, pollIntervalMs: 50 },
          (event, rel) => {
            heard.push([event, rel]);
            wake();
          },
          () => {},
        );
        await events.ready;
        for (let i = 1; i <= 3; i++) {
          const reported = hear((event, rel) => event === 'rewatched' || rel === 'evm', `swap ${i} reported`);
          swapEntries(config, 'evm', '.evm-other'); // `evm` replaced under its name
          await reported;
        }
        // Polling takes a file's first stat some time after chokidar is ready, and an edit before it is never reported
        // by chokidar: the watcher looks by stat once that has surely happened (watcher.test.ts has this case).
        if (poll) return;
        const changed = hear((_, rel) => rel === c.edit.rel, `${c.edit.rel} changed`);
        writeFileSync(path.join(config, c.edit.write), 'rpc_urls: [https://c.example.com]\n');
        await changed;
      });
    }
});
