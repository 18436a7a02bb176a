/**
 * GIT_PROPOSALS and its companions as src/config reads them: what each forge's settings become,
 * and a start refused in one sentence for each wrong or missing one, the token never in it.
 */
import { expect } from 'chai';
import { configFromEnv, ConfigError } from '../../src/config/index.js';

const TOKEN = 'glpat-Settings0123456789abcdef';
const ON = {
  GIT_SYNC: 'true',
  GIT_PROPOSALS: 'github',
  GIT_FORGE_URL: 'https://api.github.com',
  GIT_FORGE_REPO: 'octo/networks',
  GIT_FORGE_TOKEN: TOKEN,
};

describe('forge settings', () => {
  it('are off unless GIT_PROPOSALS is set', () => {
    expect(configFromEnv({}).proposals).to.equal(null);
    expect(configFromEnv({ GIT_SYNC: 'true', GIT_FORGE_TOKEN: TOKEN }).proposals).to.equal(null);
  });

  const settings = (kind: string, url: string, repo: string, proposeOnly = false): unknown => ({
    kind,
    url,
    repo,
    token: TOKEN,
    proposeOnly,
  });
  const read: Array<[string, Record<string, string>, unknown]> = [
    ['github', ON, settings('github', 'https://api.github.com', 'octo/networks')],
    [
      'any case, trailing slashes, a token ending in a newline',
      { ...ON, GIT_PROPOSALS: 'GitHub', GIT_FORGE_URL: 'https://ghe.example/api/v3/', GIT_FORGE_TOKEN: ` ${TOKEN}\n` },
      settings('github', 'https://ghe.example/api/v3', 'octo/networks'),
    ],
    [
      'gitlab with subgroups, propose only',
      {
        ...ON,
        GIT_PROPOSALS: 'gitlab',
        GIT_FORGE_URL: 'https://gitlab.example/api/v4',
        GIT_FORGE_REPO: 'ops/chains/networks',
        GIT_PROPOSE_ONLY: 'true',
      },
      settings('gitlab', 'https://gitlab.example/api/v4', 'ops/chains/networks', true),
    ],
    [
      'gitea over http',
      {
        ...ON,
        GIT_PROPOSALS: 'gitea',
        GIT_FORGE_URL: 'http://gitea.internal:3000/api/v1',
        GIT_FORGE_REPO: 'octo/net.works',
      },
      settings('gitea', 'http://gitea.internal:3000/api/v1', 'octo/net.works'),
    ],
  ];
  for (const [what, env, expected] of read) {
    it(`reads ${what}`, () => expect(configFromEnv(env).proposals).to.deep.equal(expected));
  }

  const API_ROOT = "GIT_FORGE_URL must be the forge's http(s) API root";
  const refusals: Array<{ env: Record<string, string | undefined>; says: string }> = [
    {
      env: { ...ON, GIT_PROPOSALS: 'bitbucket' },
      says: 'GIT_PROPOSALS must be one of github, gitlab, gitea; got "bitbucket".',
    },
    {
      env: { ...ON, GIT_SYNC: undefined },
      says: 'GIT_PROPOSALS needs GIT_SYNC: a proposal is a branch pushed to the remote netcfg follows.',
    },
    { env: { ...ON, GIT_SYNC: 'false' }, says: 'GIT_PROPOSALS needs GIT_SYNC' },
    {
      env: { ...ON, GIT_FORGE_URL: undefined },
      says: "GIT_PROPOSALS=github needs GIT_FORGE_URL, the forge's API root (such as https://api.github.com).",
    },
    { env: { ...ON, GIT_PROPOSALS: 'gitlab', GIT_FORGE_URL: ' ' }, says: 'GIT_PROPOSALS=gitlab needs GIT_FORGE_URL' },
    {
      env: { ...ON, GIT_FORGE_URL: 'api.github.com' },
      says: `${API_ROOT} (such as https://api.github.com); got "api.github.com".`,
    },
    {
      env: { ...ON, GIT_FORGE_URL: 'ftp://forge.example' },
      says: `${API_ROOT} without credentials, query or fragment`,
    },
    {
      env: { ...ON, GIT_FORGE_URL: 'https://bot:hunter2secret@forge.example' },
      says: 'got "https://***@forge.example/".',
    },
    {
      env: { ...ON, GIT_FORGE_URL: 'https://forge.example/api?token=abc' },
      says: 'without credentials, query or fragment',
    },
    { env: { ...ON, GIT_FORGE_REPO: undefined }, says: 'GIT_FORGE_REPO must be owner/name; got "".' },
    { env: { ...ON, GIT_FORGE_REPO: 'networks' }, says: 'GIT_FORGE_REPO must be owner/name; got "networks".' },
    {
      env: { ...ON, GIT_PROPOSALS: 'gitea', GIT_FORGE_REPO: 'a/b/c' },
      says: 'GIT_FORGE_REPO must be owner/name; got "a/b/c".',
    },
    {
      env: { ...ON, GIT_PROPOSALS: 'gitlab', GIT_FORGE_REPO: 'networks' },
      says: "GIT_FORGE_REPO must be the project's path (group/name, or group/subgroup/",
    },
    { env: { ...ON, GIT_FORGE_REPO: 'octo/net works' }, says: 'GIT_FORGE_REPO must be owner/name' },
    {
      env: { ...ON, GIT_FORGE_TOKEN: undefined },
      says: "GIT_PROPOSALS=github needs GIT_FORGE_TOKEN, the forge's token (docs/proposals.md",
    },
    { env: { ...ON, GIT_FORGE_TOKEN: ' \n' }, says: 'needs GIT_FORGE_TOKEN' },
    {
      env: { ...ON, GIT_FORGE_TOKEN: `${TOKEN.slice(0, 10)} ${TOKEN.slice(10)}` },
      says: 'GIT_FORGE_TOKEN holds whitespace or control characters inside it',
    },
    { env: { ...ON, GIT_PROPOSE_ONLY: 'maybe' }, says: 'GIT_PROPOSE_ONLY must be true or false; got "maybe".' },
    { env: { GIT_SYNC: 'true', GIT_PROPOSE_ONLY: 'true' }, says: 'GIT_PROPOSE_ONLY needs GIT_PROPOSALS' },
  ];
  for (const { env, says } of refusals) {
    const shown = Object.fromEntries(
      Object.entries(env).filter(([k, v]) => k !== 'GIT_FORGE_TOKEN' && v !== ON[k as keyof typeof ON]),
    );
    const token = env.GIT_FORGE_TOKEN === TOKEN ? '' : ' (GIT_FORGE_TOKEN wrong or missing)';
    it(`refuses ${JSON.stringify(shown)}${token} in one sentence`, () => {
      const err = (() => {
        try {
          configFromEnv(env);
        } catch (e) {
          return e as Error;
        }
        return expect.fail('the start was not refused');
      })();
      expect(err).to.be.instanceOf(ConfigError);
      expect(err.message).to.include(says);
      expect(err.message.split(/\.\s/).length, err.message).to.equal(1);
      expect(err.message).to.not.include(TOKEN.slice(10));
    });
  }

  it("a secret reference may not name any of them (GIT_* is netcfg's own)", () => {
    // Even a SECRET_REFS_ALLOWED that allows every name to every network.
    const secrets = configFromEnv({
      ...ON,
      GIT_PROPOSE_ONLY: 'true',
      MY_RPC: 'https://rpc.example/k',
      SECRET_REFS_ALLOWED: '*:*=*',
    }).policy.secrets;
    for (const name of ['GIT_PROPOSALS', 'GIT_FORGE_URL', 'GIT_FORGE_REPO', 'GIT_FORGE_TOKEN', 'GIT_PROPOSE_ONLY']) {
      expect(secrets?.('evm:mainnet', name), name).to.deep.equal({ allowed: false });
    }
    expect(secrets?.('evm:mainnet', 'MY_RPC')).to.deep.equal({ allowed: true, value: 'https://rpc.example/k' });
  });
});
