/**
 * RELAYER_SYNC_FILE as a table: what a good file gives, and each problem at its line and column.
 */
import { expect } from 'chai';
import { inScope, parseTargetsFile } from '../../../src/relayer/sync/targets-file.js';

describe('relayer/sync/targets-file', () => {
  it('a good file: every relayer with its scope and self_heal (default true); a trailing slash of the URL dropped', () => {
    const { targets, problems } = parseTargetsFile(
      'relayers:\n  - name: eu\n    url: http://relayer-eu:8080/\n    api_key_env: EU_KEY\n' +
        '    networks: ["evm:*", "solana:mainnet-beta"]\n    self_heal: false\n  - name: us\n' +
        '    url: https://relayer-us.example.com\n    api_key_env: US_KEY\n',
    );
    expect(problems).to.deep.equal([]);
    expect(targets).to.deep.equal([
      {
        name: 'eu',
        url: 'http://relayer-eu:8080',
        apiKeyEnv: 'EU_KEY',
        networks: ['evm:*', 'solana:mainnet-beta'],
        selfHeal: false,
      },
      { name: 'us', url: 'https://relayer-us.example.com', apiKeyEnv: 'US_KEY', networks: null, selfHeal: true },
    ]);
  });

  const BAD: Array<[string, string, string]> = [
    ['no relayers list', 'targets: []\n', '1:1: the file needs a non-empty list `relayers:`'],
    [
      'an unknown setting',
      'relayers:\n  - name: eu\n    url: http://r:1\n    api_key_env: K\n    api_key: secret\n',
      '5:5: api_key is not a setting of a relayer',
    ],
    [
      'a URL with a password in it',
      'relayers:\n  - name: eu\n    url: http://u:p@r:1\n    api_key_env: K\n',
      '3:10: url must be the relayer API root',
    ],
    [
      'a key variable that is not a name',
      'relayers:\n  - name: eu\n    url: http://r:1\n    api_key_env: my key\n',
      '4:18: api_key_env must name the environment variable',
    ],
    [
      'a name used twice',
      'relayers:\n  - {name: eu, url: "http://r:1", api_key_env: K}\n  - {name: eu, url: "http://r:2", api_key_env: K}\n',
      '3:12: the name eu is used twice',
    ],
    [
      'a scope that is not a glob of ids',
      'relayers:\n  - name: eu\n    url: http://r:1\n    api_key_env: K\n    networks: [evm]\n',
      '5:15: networks must be a non-empty list of ids or globs',
    ],
    [
      'a self_heal that is not true or false',
      'relayers:\n  - name: eu\n    url: http://r:1\n    api_key_env: K\n    self_heal: "no"\n',
      '5:16: self_heal must be true or false',
    ],
    ['YAML that does not parse', 'relayers:\n  - name: [\n', '3:1:'],
  ];
  for (const [name, text, expected] of BAD) {
    it(`refuses ${name} at its line and column`, () => {
      const { targets, problems } = parseTargetsFile(text);
      expect(targets).to.deep.equal([]);
      expect(problems.map((p) => `${p.line}:${p.column}: ${p.message}`).join('\n')).to.include(expected);
    });
  }

  const SCOPES: Array<[string[] | null, string, boolean]> = [
    [null, 'evm:sepolia', true],
    [null, 'cosmos:hub', false], // the relayer has no cosmos networks: never sent, whatever the scope
    [['evm:*'], 'evm:sepolia', true],
    [['evm:*'], 'solana:devnet', false],
    [['solana:mainnet-beta'], 'solana:mainnet-beta', true],
    [['*:*'], 'cosmos:hub', false],
  ];
  for (const [networks, id, expected] of SCOPES) {
    it(`scope ${JSON.stringify(networks)} ${expected ? 'takes' : 'leaves'} ${id}`, () => {
      expect(inScope({ networks }, id)).to.equal(expected);
    });
  }
});
