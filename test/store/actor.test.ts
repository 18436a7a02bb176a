/**
 * Every write carries its actor down to what it leaves behind: the commit (GIT_COMMIT in a real
 * repository, GIT_SYNC through a real remote on loopback) names it in a trailer and in its author,
 * and the change event it causes names it. A change found on disk names none.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { actorLabel, authorLineOf, type Actor } from '../../src/store/actor.js';
import type { IndexChange } from '../../src/store/index/network-index.js';
import type { NetworkStore } from '../../src/store/network-store.js';
import { bareOf, cloneOf, startGitRemote, type GitRemote } from '../helpers/git-daemon.js';
import { git, initRepo } from '../helpers/git-repo.js';
import { makeConfigDir, networkYaml, standardFiles } from '../helpers/fixtures.js';
import { nextChange, startStore } from '../helpers/store.js';

const NETCFG = { name: 'Ops Bot', email: 'ops@example.com' };
const HOUR = 3_600_000;

describe('store/actor: a write is signed by its actor, down to the commit and the event', function () {
  this.timeout(30_000);
  let store: NetworkStore | undefined;
  let remote: GitRemote | undefined;
  let dir: string;

  afterEach(async () => {
    await store?.close();
    store = undefined;
    await remote?.stop();
    remote = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  /** A store over a repository of the standard files, and where to read its commits. */
  const modes: Array<[string, () => Promise<{ store: NetworkStore; repo: string; ref: string }>]> = [
    [
      'GIT_COMMIT',
      async () => {
        dir = makeConfigDir();
        const root = path.join(dir, 'config', 'networks');
        for (const [rel, text] of Object.entries(standardFiles())) {
          mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
          writeFileSync(path.join(root, rel), text);
        }
        initRepo(dir);
        return { store: await startStore(root, { gitCommit: true, gitAuthor: NETCFG }), repo: dir, ref: 'HEAD' };
      },
    ],
    [
      'GIT_SYNC',
      async () => {
        remote = await startGitRemote(standardFiles());
        dir = remote.dir;
        const replica = cloneOf(remote, 'replica');
        return {
          store: await startStore(path.join(replica, 'config', 'networks'), {
            gitSync: { intervalMs: HOUR },
            gitAuthor: NETCFG,
          }),
          repo: bareOf(remote),
          ref: 'main',
        };
      },
    ],
  ];
  const actors: Array<[Actor, string]> = [
    [{ kind: 'token', name: 'relayer-eu' }, 'relayer-eu <relayer-eu@netcfg>'],
    [{ kind: 'token', name: 'api-key' }, 'Ops Bot <ops@example.com>'],
    [{ kind: 'system', name: 'rpc-prober' }, 'netcfg rpc-prober <ops@example.com>'],
  ];

  for (const [mode, open] of modes) {
    for (const [actor, author] of actors) {
      it(`${mode}, ${actorLabel(actor)}: the commit's trailer and author, and the change event`, async () => {
        const opened = await open();
        store = opened.store;
        const event = nextChange(store, (c: IndexChange) => c.id === 'evm:sepolia' && c.actor !== null);
        await store.update('evm:sepolia', { rpc_urls: ['https://signed.example.com'] }, undefined, actor);
        expect((await event).actor).to.equal(actorLabel(actor));
        const trailer = git(
          opened.repo,
          'log',
          '-1',
          '--format=%(trailers:key=Netcfg-Actor,valueonly)',
          opened.ref,
        ).trim();
        expect(trailer).to.equal(actorLabel(actor));
        expect(git(opened.repo, 'log', '-1', '--format=%an <%ae>|%cn <%ce>', opened.ref).trim()).to.equal(
          `${author}|Ops Bot <ops@example.com>`,
        );
      });
    }
  }

  it('a change found on disk names no actor', async () => {
    dir = makeConfigDir(standardFiles());
    store = await startStore(dir);
    const event = nextChange(store, (c) => c.id === 'evm:sepolia');
    writeFileSync(path.join(dir, 'evm', 'sepolia.yaml'), networkYaml({ rpc_urls: ['https://edited.example.com'] }));
    expect((await event).actor).to.equal(null);
  });

  it("an author line holds nothing git cannot (no '<', '>' or line break from a name)", () => {
    expect(authorLineOf({ kind: 'system', name: 'x>\n<y' }, NETCFG)).to.equal('netcfg xy <ops@example.com>');
  });
});
