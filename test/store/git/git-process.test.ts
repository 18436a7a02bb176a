/**
 * One git process, for real: its deadline kills it with what it started (a remote that accepts the
 * connection and never answers sees the connection close), its answer is capped, a caller that
 * gives up kills it, and what it says in failing carries no credential of a URL.
 */
import { expect } from 'chai';
import {
  firstLine,
  gitProcessesRunning,
  runGit,
  type GitCall,
  type GitFailure,
} from '../../../src/store/git/git-process.js';
import { startStallServer, type StallServer } from '../../helpers/stall-server.js';

describe('store/git/git-process (real git)', function () {
  this.timeout(20_000);
  let stall: StallServer;
  beforeEach(async () => (stall = await startStallServer()));
  afterEach(() => stall.close());

  const call = (args: string[], extra: Partial<GitCall> = {}): Promise<string> =>
    runGit({
      args,
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
      timeoutMs: 10_000,
      maxBytes: 1024 * 1024,
      ...extra,
    });
  const failure = (promise: Promise<string>): Promise<{ reason: GitFailure; message: string; stderr: string }> =>
    promise.then(
      () => {
        throw new Error('git succeeded');
      },
      (err: { reason: GitFailure; message: string; stderr: string }) => err,
    );

  const cases: Array<{ name: string; run: () => Promise<string>; reason: GitFailure; says: RegExp }> = [
    {
      name: 'a remote that never answers: stopped at its deadline',
      run: () => call(['ls-remote', `git://127.0.0.1:${stall.port}/x.git`], { timeoutMs: 300 }),
      reason: 'timeout',
      says: /gave no answer within 300 ms/,
    },
    {
      name: 'an answer past the cap: stopped',
      run: () => call(['version'], { maxBytes: 4 }),
      reason: 'too-large',
      says: /more than 4 bytes/,
    },
    {
      name: 'its caller gave up (shutdown): stopped',
      run: () => {
        const gaveUp = new AbortController();
        void stall.firstConnection().then(() => gaveUp.abort());
        return call(['ls-remote', `git://127.0.0.1:${stall.port}/x.git`], { signal: gaveUp.signal });
      },
      reason: 'aborted',
      says: /stopped: netcfg is shutting down/,
    },
    {
      name: 'a refusal: its first line, without the password',
      run: () => call(['ls-remote', 'http://bot:s3cr3t@127.0.0.1:1/x.git']),
      reason: 'exit',
      says: /^git ls-remote failed \(exit 128\): fatal: unable to access /,
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const err = await failure(c.run());
      expect(err.reason).to.equal(c.reason);
      expect(err.message).to.match(c.says);
      expect(`${err.message} ${err.stderr}`).to.not.include('s3cr3t');
      expect(gitProcessesRunning(), 'no git left running when the caller hears it').to.equal(0);
      await stall.allClosed(5000); // and nothing it started holds the connection
    });
  }

  it("firstLine: the first line git said, without a URL's credentials", () => {
    expect(firstLine({ stderr: "fatal: unable to access 'https://bot:t0ken@git.example.com/x.git/'\nmore" })).to.equal(
      "fatal: unable to access 'https://***@git.example.com/x.git/'",
    );
    expect(firstLine(new Error('spawn git ENOENT'))).to.equal('spawn git ENOENT');
  });
});
