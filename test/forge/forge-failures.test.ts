/**
 * A forge that is down, slow, refusing or rate-limiting, the same table for GitHub, GitLab and
 * Gitea: each is netcfg's error with its code (FORGE_UNAVAILABLE 503 or FORGE_REFUSED 502), a
 * sentence, the seconds to wait where the forge gave them, and never the token.
 */
import { expect } from 'chai';
import { NetcfgError } from '../../src/errors.js';
import { createOrUpdate, FORGE_KINDS, type ForgeKind } from '../../src/forge/forge.js';
import { forgeFromConfig } from '../../src/forge/forge-from-config.js';
import { STATUS_OF } from '../../src/http/error-handler.js';
import {
  STAND_IN_REPO as REPO,
  STAND_IN_TOKEN as TOKEN,
  startStandInForge,
  type ForgeMode,
  type StandInForge,
} from '../helpers/stand-in-forge.js';

interface Case {
  what: string;
  /** Sets the stand-in up for the case (a mode, or the port closed). */
  arrange: (standIn: StandInForge) => Promise<void> | void;
  /** What the forge is built with, where it differs from the stand-in's. */
  token?: string;
  repo?: string;
  code: 'FORGE_UNAVAILABLE' | 'FORGE_REFUSED';
  says: RegExp;
  /** Seconds to wait: a number, a range for GitHub's reset time, or none. */
  retryAfter?: number | [number, number] | ((kind: ForgeKind) => number | [number, number] | undefined);
}

const mode =
  (m: ForgeMode) =>
  (standIn: StandInForge): void =>
    void (standIn.mode = m);
const SLOW_MS = 400;

const UNAVAILABLE = 'FORGE_UNAVAILABLE';
const REFUSED = 'FORGE_REFUSED';
const CASES: Case[] = [
  {
    what: 'down (its port closed)',
    arrange: (s) => s.down(),
    code: UNAVAILABLE,
    says: /cannot be reached \(ECONNREFUSED\); retry later\.$/,
  },
  {
    what: 'slow (past the deadline)',
    arrange: mode('slow'),
    code: UNAVAILABLE,
    says: new RegExp(`did not answer POST .* within ${SLOW_MS} ms; retry later`),
  },
  {
    what: 'a token it does not know (401)',
    arrange: () => undefined,
    token: 'glpat-not-the-right-one-0123456789',
    code: REFUSED,
    says: /refused the token \(401: .+\); check GIT_FORGE_TOKEN\.$/,
  },
  {
    what: 'a token without the right (403)',
    arrange: mode('forbidden'),
    code: REFUSED,
    says: /refused POST .*\(403: .+\); the token needs/,
  },
  {
    what: 'a repository it does not have (404)',
    arrange: () => undefined,
    repo: 'octo/nope/x',
    code: REFUSED,
    says: /404 .*check GIT_FORGE_REPO\.$/,
  },
  {
    what: "rate-limiting (GitHub's 403 with x-ratelimit-remaining: 0, GitLab's 429 with Retry-After)",
    arrange: mode('rate-limited'),
    code: UNAVAILABLE,
    says: /is rate-limiting the token \((403|429): .+\); retry in \d+ s\.$/,
    retryAfter: (kind) => (kind === 'github' ? [58, 61] : 60),
  },
  {
    what: '429 with retry-after',
    arrange: mode('too-many'),
    code: UNAVAILABLE,
    says: /rate-limiting the token \(429: .+\); retry in 30 s\.$/,
    retryAfter: 30,
  },
  {
    what: 'failing inside (502)',
    arrange: mode('server-error'),
    code: UNAVAILABLE,
    says: /failed on POST .*\(502: .+\); retry later\.$/,
  },
  { what: 'an answer past the cap', arrange: mode('huge'), code: REFUSED, says: /answered more than 65536 bytes\.$/ },
  {
    what: 'a redirect (not followed)',
    arrange: mode('redirect'),
    code: REFUSED,
    says: /with a redirect \(302\), which netcfg does not follow/,
  },
  {
    what: 'a forge repeating the token',
    arrange: mode('echo-token'),
    code: REFUSED,
    says: /\(400: credential \*\*\* is not accepted here\)\.$/,
  },
];

for (const kind of FORGE_KINDS) {
  describe(`forge failures: ${kind}`, () => {
    let standIn: StandInForge;
    beforeEach(async () => {
      standIn = await startStandInForge(kind, { token: TOKEN, repo: REPO[kind] });
    });
    afterEach(() => standIn.close());

    for (const c of CASES) {
      it(`${c.what}: ${c.code} (${STATUS_OF[c.code]}) with a sentence, never the token`, async () => {
        await c.arrange(standIn);
        const token = c.token ?? TOKEN;
        const repo =
          c.repo === undefined ? REPO[kind] : kind === 'gitlab' ? c.repo : c.repo.split('/').slice(0, 2).join('/');
        const timeoutMs = c.arrange === CASES[1]?.arrange ? SLOW_MS : 5000;
        const forge = forgeFromConfig({ kind, url: standIn.url, repo, token }, { timeoutMs, maxBytes: 65_536 });
        const started = performance.now();
        const proposal = createOrUpdate(forge, {
          branch: 'netcfg/alice/evm-sepolia',
          base: 'main',
          title: 't',
          body: 'b',
        });
        const err = await proposal.then(
          () => expect.fail('the forge failed, so must the proposal'),
          (e: unknown) => e,
        );
        expect(err, String(err)).to.be.instanceOf(NetcfgError);
        const { code, message, retryAfterSeconds } = err as NetcfgError;
        expect(code, message).to.equal(c.code);
        expect(message).to.match(c.says);
        const name = { github: 'GitHub', gitlab: 'GitLab', gitea: 'Gitea' }[kind];
        expect(message).to.match(new RegExp(`^${name} \\(http://127\\.0\\.0\\.1:`));
        const wanted = typeof c.retryAfter === 'function' ? c.retryAfter(kind) : c.retryAfter;
        if (Array.isArray(wanted)) expect(retryAfterSeconds).to.be.within(wanted[0], wanted[1]);
        else expect(retryAfterSeconds).to.equal(wanted);
        for (const shown of [message, JSON.stringify(err), String((err as Error).stack)])
          expect(shown).to.not.include(token);
        expect(performance.now() - started).to.be.below(4000);
        // Nothing is left half-done on the forge: no pull request was opened.
        expect(standIn.pulls).to.deep.equal([]);
      });
    }
  });
}
