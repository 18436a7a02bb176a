/** Which parts of an RPC URL are shown, and which become `***`. */
import { expect } from 'chai';
import { redactUrl } from '../../src/probe/redact.js';

describe('probe/redact', () => {
  const cases: Array<[string, string]> = [
    ['https://eth-mainnet.g.alchemy.com/v2/Zx8fJq2LmN4pQ7rT9vW1yB3', 'https://eth-mainnet.g.alchemy.com/v2/***'],
    ['https://mainnet.infura.io/v3/0123456789abcdef0123456789abcdef', 'https://mainnet.infura.io/v3/***'],
    ['https://rpc.ankr.com/eth?apikey=secret&chain=1', 'https://rpc.ankr.com/eth?apikey=***&chain=***'],
    ['https://user:p4ssw0rd@rpc.example.com:8545/', 'https://***@rpc.example.com:8545/'],
    ['https://ethereum-sepolia-rpc.publicnode.com', 'https://ethereum-sepolia-rpc.publicnode.com/'],
    ['https://rpc.example.com/solana/mainnet-beta', 'https://rpc.example.com/solana/mainnet-beta'],
    ['not a url', '(not a URL)'],
  ];
  for (const [url, shown] of cases) {
    it(`${url} -> ${shown}`, () => {
      expect(redactUrl(url)).to.equal(shown);
    });
  }
});
