/**
 * Network ids and path classification: the only door from a request or a watched path to a file,
 * so every row that must be refused is listed here.
 */
import { expect } from 'chai';
import { classifyPath, parseNetworkId, relativePathOf } from '../../../src/store/files/layout.js';

const longPart = 'a'.repeat(63);

describe('store/network-id', () => {
  describe('parseNetworkId', () => {
    const valid: Array<[string, string, string]> = [
      ['evm:sepolia', 'evm', 'sepolia'],
      ['solana:mainnet-beta', 'solana', 'mainnet-beta'],
      ['evm:base_sepolia', 'evm', 'base_sepolia'],
      ['a:b', 'a', 'b'],
      ['0x:1', '0x', '1'],
      [`${longPart}:${longPart}`, longPart, longPart],
    ];
    for (const [id, family, name] of valid) {
      it(`parses ${id.length > 20 ? `${id.slice(0, 20)}...` : id}`, () => {
        expect(parseNetworkId(id)).to.deep.equal({ id, family, name });
      });
    }

    const invalid = [
      '',
      'evm',
      'sepolia',
      ':sepolia',
      'evm:',
      ':',
      'EVM:sepolia',
      'evm:Sepolia',
      'evm:sepolia:x',
      'evm/sepolia',
      'evm:../sepolia',
      'evm:sepolia/..',
      '-evm:sepolia',
      'evm:_sepolia',
      'evm:se polia',
      ' evm:sepolia',
      'evm:sepolia\n',
      'evm:sepolia.yaml',
      'evm:sépolia',
      `${longPart}a:sepolia`,
      `evm:${longPart}a`,
    ];
    for (const id of invalid) {
      it(`refuses ${JSON.stringify(id.length > 20 ? `${id.slice(0, 20)}...` : id)}`, () => {
        expect(parseNetworkId(id)).to.equal(null);
      });
    }
  });

  describe('relativePathOf', () => {
    it('maps an id to <family>/<name><ext>', () => {
      const id = { id: 'evm:sepolia', family: 'evm', name: 'sepolia' };
      expect(relativePathOf(id, '.yaml')).to.equal('evm/sepolia.yaml');
      expect(relativePathOf(id, '.yml')).to.equal('evm/sepolia.yml');
    });
  });

  describe('classifyPath', () => {
    const networks: Array<[string, string, string]> = [
      ['evm/sepolia.yaml', 'evm:sepolia', '.yaml'],
      ['evm/sepolia.yml', 'evm:sepolia', '.yml'],
      ['solana/mainnet-beta.yaml', 'solana:mainnet-beta', '.yaml'],
      ['evm\\sepolia.yaml', 'evm:sepolia', '.yaml'],
      ['evm//sepolia.yaml', 'evm:sepolia', '.yaml'],
    ];
    for (const [rel, id, ext] of networks) {
      it(`${rel} is network ${id}`, () => {
        const kind = classifyPath(rel);
        expect(kind.kind).to.equal('network');
        if (kind.kind !== 'network') return;
        expect(kind.id.id).to.equal(id);
        expect(kind.ext).to.equal(ext);
      });
    }

    // Ours (temp files, lock folder) and git's: never networks and never reported.
    const hidden = [
      '.locks/evm/sepolia.lock',
      '.locks',
      'evm/.sepolia.yaml.123.tmp',
      '.git/HEAD',
      '.gitignore',
      'evm/.yaml',
      '.evm/sepolia.yaml',
    ];
    for (const rel of hidden) {
      it(`${rel} is hidden`, () => {
        expect(classifyPath(rel)).to.deep.equal({ kind: 'hidden' });
      });
    }

    // Reported in readiness, never served; the reason says what is wrong.
    const foreign: Array<[string, RegExp]> = [
      ['README.md', /directly in the config folder/],
      ['sepolia.yaml', /directly in the config folder/],
      ['evm/nested/sepolia.yaml', /folders inside a family folder/],
      ['evm/notes.txt', /ends in \.yaml or \.yml/],
      ['evm/sepolia.json', /ends in \.yaml or \.yml/],
      ['evm/sepolia.YAML', /ends in \.yaml or \.yml/],
      ['evm/sepolia.yaml.bak', /ends in \.yaml or \.yml/],
      ['evm/sepolia.yaml~', /ends in \.yaml or \.yml/],
      ['EVM/sepolia.yaml', /family folder "EVM"/],
      ['my-evm!/sepolia.yaml', /family folder "my-evm!"/],
      ['evm/Sepolia.yaml', /file name "Sepolia"/],
      ['evm/my network.yaml', /file name "my network"/],
      ['evm/a.b.yaml', /file name "a.b"/],
      ['evm/-x.yaml', /file name "-x"/],
    ];
    for (const [rel, reason] of foreign) {
      it(`${rel} is foreign`, () => {
        const kind = classifyPath(rel);
        expect(kind.kind).to.equal('foreign');
        if (kind.kind === 'foreign') expect(kind.reason).to.match(reason);
      });
    }
  });
});
