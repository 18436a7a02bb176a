/** Which parts of a URL are shown and which become `***`: alone, and inside a message (git's stderr). */
import { expect } from 'chai';
import { maskSecretUrl, redactText, redactUrl } from '../src/redact.js';

describe('redact', () => {
  const urls: Array<[string, string]> = [
    ['https://eth-mainnet.g.alchemy.com/v2/Zx8fJq2LmN4pQ7rT9vW1yB3', 'https://eth-mainnet.g.alchemy.com/v2/***'],
    ['https://mainnet.infura.io/v3/0123456789abcdef0123456789abcdef', 'https://mainnet.infura.io/v3/***'],
    ['https://rpc.ankr.com/eth?apikey=secret&chain=1', 'https://rpc.ankr.com/eth?apikey=***&chain=***'],
    ['https://user:p4ssw0rd@rpc.example.com:8545/', 'https://***@rpc.example.com:8545/'],
    ['https://ethereum-sepolia-rpc.publicnode.com', 'https://ethereum-sepolia-rpc.publicnode.com/'],
    ['https://rpc.example.com/solana/mainnet-beta', 'https://rpc.example.com/solana/mainnet-beta'],
    ['not a url', '(not a URL)'],
  ];
  for (const [url, shown] of urls) {
    it(`URL ${url} -> ${shown}`, () => {
      expect(redactUrl(url)).to.equal(shown);
    });
  }

  const messages: Array<[string, string]> = [
    [
      "fatal: unable to access 'https://user:ghp_secret@github.com/acme/networks/'",
      "fatal: unable to access 'https://***@github.com/acme/networks/'",
    ],
    [
      'fatal: could not read from https://x-access-token:tok3n@host/x.git',
      'fatal: could not read from https://***@host/x.git',
    ],
    ['ssh://git:pw@example.com:22/x.git and http://a@b/c', 'ssh://***@example.com:22/x.git and http://***@b/c'],
    [
      'fatal: repository https://github.com/acme/networks not found',
      'fatal: repository https://github.com/acme/networks not found',
    ],
    // Issue 41: a token in the query, and a password holding a `/`, showed in clear.
    [
      "fatal: unable to access 'https://git.example.com/acme/networks.git/?access_token=s3cr3t': 403",
      "fatal: unable to access 'https://git.example.com/acme/networks.git/?access_token=***': 403",
    ],
    [
      "fatal: unable to access 'https://bot:pa/ss@git.example.com/networks.git/': Could not resolve host",
      "fatal: unable to access 'https://***': Could not resolve host",
    ],
    [
      'push to https://git.example.com/v1/ghp_0123456789abcdefABCD/networks.git failed',
      'push to https://git.example.com/v1/***/networks.git failed',
    ],
    ['no URL at all: 0123456789abcdefABCD', 'no URL at all: 0123456789abcdefABCD'],
  ];
  for (const [said, shown] of messages) {
    it(`message ${said.slice(0, 60)}...`, () => {
      expect(redactText(said)).to.equal(shown);
    });
  }
});

describe('maskSecretUrl: a URL that came from a secret reference', () => {
  // The whole value is the secret: a key too short or too plain for redactUrl is hidden too.
  const cases: Array<[string, string]> = [
    ['https://eth-mainnet.g.alchemy.com/v2/Kx9aQ2', 'https://eth-mainnet.g.alchemy.com/v2/***'],
    ['https://mainnet.infura.io/v3/0123456789abcdef0123456789abcdef', 'https://mainnet.infura.io/v3/***'],
    ['https://name.quiknode.pro/tokenvalue/', 'https://name.quiknode.pro/***/'],
    ['https://rpc.ankr.com/eth/abcdefgh', 'https://rpc.ankr.com/eth/***'],
    ['https://user:pass@rpc.example.com/?key=abc&chain=1', 'https://***@rpc.example.com/?key=***&chain=***'],
    ['https://rpc.example.com', 'https://rpc.example.com/'],
    ['https://rpc.example.com/ab', 'https://rpc.example.com/***'],
    ['not a url', '***'],
  ];
  for (const [url, masked] of cases) {
    it(`${url} -> ${masked}`, () => {
      expect(maskSecretUrl(url)).to.equal(masked);
    });
  }
});
