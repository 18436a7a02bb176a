/**
 * Proposals end to end on the built server (a child process), with a real remote served by `git daemon`
 * on loopback and a stand-in GitHub: a PATCH that proposes is 202 with the pull request, its branch is
 * one commit on main and nothing served moves; again by the same actor the same pull request, by
 * another a second; merged on the remote it is served; a failing forge leaves no branch behind; roles,
 * scopes and GIT_PROPOSE_ONLY decide who proposes; the forge's token is in no answer and no log line.
 */
import { expect } from 'chai';
import { STAND_IN_TOKEN } from '../helpers/stand-in-forge.js';
import { startProposalsWorld, type ProposalsWorld } from '../helpers/proposals-world.js';

const SEPOLIA = '/api/v1/networks/evm:sepolia';
const BRANCH_EU = 'netcfg/proposer-eu/evm-sepolia';
const body = (url: string) => ({ rpc_urls: [url] });

describe('proposals on the built server (git daemon on loopback, a stand-in GitHub)', function () {
  this.timeout(60_000);
  let world: ProposalsWorld | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  it('propose, again (same pull request, branch moved), another actor (a second one), listed, merged on the remote then served', async () => {
    const w = (world = await startProposalsWorld());
    const before = await w.call('GET', SEPOLIA, 'reader');
    const main = w.bare('rev-parse', 'main');

    const first = await w.call('PATCH', SEPOLIA, 'proposer-eu', body('https://first.example.com'));
    expect(first.status, first.text).to.equal(202);
    const proposal = (first.json.data as { proposal: Record<string, unknown> }).proposal;
    expect(proposal).to.include({
      number: 1,
      branch: BRANCH_EU,
      network: 'evm:sepolia',
      state: 'open',
      updated: false,
    });
    expect(first.headers.get('location'))
      .to.equal(proposal.url)
      .and.to.match(/\/pull\/1$/);
    expect(w.bare('rev-list', '--count', `main..${BRANCH_EU}`), 'one commit on main').to.equal('1');
    expect(w.bare('rev-parse', `${BRANCH_EU}^`)).to.equal(main);
    expect(w.bare('rev-parse', BRANCH_EU)).to.equal(proposal.commit);
    const pull = w.forge.pulls[0]!;
    expect(pull).to.include({ head: BRANCH_EU, base: 'main' });
    for (const said of [
      'https://rpc.example.com',
      'https://first.example.com',
      'token:proposer-eu',
      'RPC_PROBE_ON_PATCH is off',
    ])
      expect(pull.body).to.include(said);
    const after = await w.call('GET', SEPOLIA, 'reader');
    expect(after.headers.get('etag'), 'what is served is unchanged').to.equal(before.headers.get('etag'));
    expect(w.bare('rev-parse', 'main'), 'main is unchanged').to.equal(main);

    const again = await w.call('PATCH', SEPOLIA, 'proposer-eu', body('https://again.example.com'));
    expect(again.status, again.text).to.equal(202);
    const moved = (again.json.data as { proposal: Record<string, unknown> }).proposal;
    expect(moved).to.include({ number: 1, updated: true });
    expect(moved.commit).to.not.equal(proposal.commit);
    expect(w.bare('rev-parse', BRANCH_EU)).to.equal(moved.commit);
    expect(w.forge.pulls[0]!.body).to.include('https://again.example.com');

    const other = await w.call('PATCH', SEPOLIA, 'proposer-us', body('https://us.example.com'));
    expect(other.status, other.text).to.equal(202);
    expect((other.json.data as { proposal: { number: number; branch: string } }).proposal).to.include({
      number: 2,
      branch: 'netcfg/proposer-us/evm-sepolia',
    });

    const all = await w.call('GET', '/api/v1/proposals', 'reader');
    expect(all.status, all.text).to.equal(200);
    const listed = all.json.data as Array<Record<string, unknown>>;
    expect(listed.map((p) => [p.network, p.actor, p.number])).to.deep.equal([
      ['evm:sepolia', 'proposer-eu', 1],
      ['evm:sepolia', 'proposer-us', 2],
    ]);
    expect(listed[0]).to.have.keys('number', 'url', 'branch', 'network', 'actor', 'title', 'created_at', 'updated_at');
    expect((await w.call('GET', `${SEPOLIA}/proposals`, 'reader')).json.data).to.have.length(2);
    expect((await w.call('GET', '/api/v1/networks/evm:mainnet/proposals', 'reader')).json.data).to.deep.equal([]);
    expect(
      (await w.call('GET', '/api/v1/proposals', 'mainnet-reader')).json.data,
      "a scoped token sees its networks' only",
    ).to.deep.equal([]);
    expect((await w.call('GET', `${SEPOLIA}/proposals`, 'mainnet-reader')).status, 'out of scope').to.equal(404);

    // Merged on the remote: main fast-forwards to the branch's commit, and the next pull serves it.
    const changed = w.server.untilLog(
      (l) => l.msg === 'index change' && (l.change as { id?: string })?.id === 'evm:sepolia',
      10_000,
      'the merged change served',
    );
    w.bare('update-ref', 'refs/heads/main', String(moved.commit), main);
    await changed;
    expect((await w.call('GET', SEPOLIA, 'reader')).text).to.include('https://again.example.com');
    expect(w.texts.join('\n') + JSON.stringify(w.server.logs)).to.not.include(STAND_IN_TOKEN);
  });

  const failures: Array<{
    what: string;
    fail: (w: ProposalsWorld) => Promise<void> | void;
    status: number;
    retryAfter: boolean;
  }> = [
    { what: 'forge down', fail: (w) => w.forge.down(), status: 503, retryAfter: false },
    {
      what: 'forge refusing the token (401)',
      fail: (w) => void (w.forge.mode = 'unauthorized'),
      status: 502,
      retryAfter: false,
    },
    {
      what: 'forge rate-limiting (403, x-ratelimit-remaining: 0)',
      fail: (w) => void (w.forge.mode = 'rate-limited'),
      status: 503,
      retryAfter: true,
    },
    {
      what: 'forge rate-limiting (429, retry-after)',
      fail: (w) => void (w.forge.mode = 'too-many'),
      status: 503,
      retryAfter: true,
    },
  ];
  it('a failing forge: its error (503/502, Retry-After where given), the branch deleted again, nothing served or merged changed', async () => {
    const w = (world = await startProposalsWorld());
    const main = w.bare('rev-parse', 'main');
    for (const { what, fail, status, retryAfter } of failures) {
      await fail(w);
      const res = await w.call('PATCH', SEPOLIA, 'proposer-eu', body('https://failing.example.com'));
      expect(res.status, `${what}: ${res.text}`).to.equal(status);
      expect(res.headers.has('retry-after'), `${what}: Retry-After`).to.equal(retryAfter);
      expect(res.json.error, what).to.include(`${BRANCH_EU} was deleted again`);
      expect(w.lsRemote(BRANCH_EU), `${what}: no branch left`).to.equal('');
      expect(w.bare('rev-parse', 'main')).to.equal(main);
      const ready = await w.call('GET', '/api/v1/ready', 'admin');
      expect((ready.json.components as Record<string, { status: string }>).proposals?.status, what).to.equal(
        'degraded',
      );
      if (what === 'forge down') await w.forge.up();
      w.forge.mode = 'normal';
    }
    expect(w.forge.pulls).to.deep.equal([]);
    expect(w.texts.join('\n') + JSON.stringify(w.server.logs)).to.not.include(STAND_IN_TOKEN);
  });

  it('roles and scopes: read 403, propose 202, a scoped propose token elsewhere 404, write 200 or 202 with ?propose=true', async () => {
    const w = (world = await startProposalsWorld());
    const cases: Array<{ who: Parameters<ProposalsWorld['call']>[2]; route: string; status: number }> = [
      { who: 'reader', route: SEPOLIA, status: 403 },
      { who: 'evm-proposer', route: '/api/v1/networks/solana:devnet', status: 404 },
      { who: 'evm-proposer', route: SEPOLIA, status: 202 },
      { who: 'evm-proposer', route: `${SEPOLIA}?propose=false`, status: 403 },
      { who: 'writer', route: `${SEPOLIA}?propose=maybe`, status: 400 },
      { who: 'writer', route: `/api/v1/networks/evm:mainnet?propose=true`, status: 202 },
      { who: 'writer', route: '/api/v1/networks/evm:mainnet', status: 200 },
    ];
    for (const { who, route, status } of cases) {
      const res = await w.call('PATCH', route, who, body(`https://${String(who)}.example.com`));
      expect(res.status, `${String(who)} ${route}: ${res.text}`).to.equal(status);
    }
    expect(w.lsRemote('netcfg/writer/evm-mainnet')).to.not.equal('');
    const me = await w.call('GET', '/api/v1/access/me', 'proposer-eu');
    expect(me.json.data).to.deep.include({ role: 'propose', proposals: { enabled: true, propose_only: false } });
  });

  it("GIT_PROPOSE_ONLY: a write token's PATCH proposes, and ?propose=false is refused", async () => {
    const w = (world = await startProposalsWorld({ GIT_PROPOSE_ONLY: 'true' }));
    const res = await w.call('PATCH', SEPOLIA, 'writer', body('https://only.example.com'));
    expect(res.status, res.text).to.equal(202);
    expect(w.lsRemote('netcfg/writer/evm-sepolia')).to.not.equal('');
    expect((await w.call('PATCH', `${SEPOLIA}?propose=false`, 'admin', body('https://x.example.com'))).status).to.equal(
      403,
    );
    expect((await w.call('GET', '/api/v1/access/me', 'writer')).json.data).to.deep.include({
      proposals: { enabled: true, propose_only: true },
    });
  });

  it("without GIT_PROPOSALS: ?propose=true is 400, a propose token's PATCH 403 naming the setting, the lists 501", async () => {
    const w = (world = await startProposalsWorld({ GIT_PROPOSALS: '' }));
    const asked = await w.call('PATCH', `${SEPOLIA}?propose=true`, 'writer', body('https://x.example.com'));
    expect(asked.status, asked.text).to.equal(400);
    expect(asked.json.error).to.include('GIT_PROPOSALS');
    const proposer = await w.call('PATCH', SEPOLIA, 'proposer-eu', body('https://x.example.com'));
    expect(proposer.status, proposer.text).to.equal(403);
    expect(proposer.json.error).to.include('GIT_PROPOSALS');
    expect((await w.call('GET', '/api/v1/proposals', 'reader')).status).to.equal(501);
  });

  it("a forge refusing the token at start: readiness' proposals degraded with its sentence for an admin, the status alone for anyone", async () => {
    const w = (world = await startProposalsWorld({}, 'unauthorized'));
    await w.server.untilLog(
      (l) => l.msg === 'the forge refused the check of its token and repository',
      10_000,
      'the start check',
    );
    const admin = (await w.call('GET', '/api/v1/ready', 'admin')).json.components as Record<
      string,
      Record<string, unknown>
    >;
    expect(admin.proposals).to.include({ status: 'degraded', forge: 'github' });
    expect(String(admin.proposals!.problem)).to.include('GIT_FORGE_TOKEN');
    const anonymous = (await w.call('GET', '/api/v1/ready', null)).json.components as Record<
      string,
      Record<string, unknown>
    >;
    expect(anonymous.proposals).to.deep.equal({ status: 'degraded' });
    expect(w.texts.join('\n') + JSON.stringify(w.server.logs)).to.not.include(STAND_IN_TOKEN);
  });
});
