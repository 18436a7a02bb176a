/**
 * GIT_SYNC on the built server with a remote that accepts the connection and never answers (an
 * overloaded git host, a stuck proxy): a SIGTERM still stops the server, and the git command it was
 * waiting on ends with it instead of living on, re-parented to pid 1 (issue 41).
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { startChild } from '../helpers/child-server.js';
import { cloneOf, startGitRemote, type GitRemote } from '../helpers/git-daemon.js';
import { git } from '../helpers/git-repo.js';
import { standardFiles } from '../helpers/fixtures.js';
import { startStallServer, type StallServer } from '../helpers/stall-server.js';

describe('reliability: a remote that never answers, and a SIGTERM', function () {
  this.timeout(40_000);
  let remote: GitRemote;
  let stall: StallServer;

  beforeEach(async () => {
    remote = await startGitRemote(standardFiles());
    stall = await startStallServer();
  });
  afterEach(async () => {
    await stall.close();
    await remote.stop();
    rmSync(remote.dir, { recursive: true, force: true });
  });

  it('the server exits on SIGTERM while git waits on the remote, and no git is left connected', async () => {
    const replica = cloneOf(remote, 'replica');
    git(replica, 'remote', 'set-url', 'origin', `git://127.0.0.1:${stall.port}/networks.git`);
    // A deadline far beyond the test: only the shutdown can end the git that waits.
    const server = await startChild(
      { CONFIG_DIR: path.join(replica, 'config', 'networks'), GIT_SYNC: 'true', GIT_REMOTE_TIMEOUT_MS: '120000' },
      { waitReady: false },
    );
    await stall.firstConnection(10_000);
    const code = await server.stop('SIGTERM');
    expect(code, 'exits on its own, before the shutdown deadline').to.equal(0);
    await stall.allClosed(5_000);
    expect(stall.open()).to.equal(0);
  });
});
