/**
 * KnownSecrets: the plain-value guard's eye. A table of spellings of a secret's value and of its
 * parts, each found; a table of honest URLs that share words with a secret's path, none found.
 */
import { expect } from 'chai';
import { KnownSecrets } from '../../../src/store/write/secret-spellings.js';

const KEY = 'Kx9aQ2Lm7pRt4w';
const PATH = `https://eth-mainnet.g.alchemy.com/v2/${KEY}`;
const USER = 'https://alice:S3cretPassw0rd@rpc.example.com/eth';
const QUERY = 'https://rpc.example.com/mainnet?apikey=ab12cd34ef56&chain=1';
const SHORT = 'http://127.0.0.1:8545/v2/k3y'; // no part long enough to be a key: only the whole URL counts
const known = new KnownSecrets(
  new Map([
    [PATH, 'ETH_URL'],
    [USER, 'USER_URL'],
    [QUERY, 'QUERY_URL'],
    [SHORT, 'SHORT_URL'],
  ]),
);

describe('store/write/secret-spellings: a secret in any spelling', () => {
  const held: Array<[string, string, string]> = [
    ['the value itself', PATH, 'ETH_URL'],
    ['HTTP:// for https://', PATH.replace('https://', 'HTTPS://'), 'ETH_URL'],
    ['the host upper-cased', PATH.replace('eth-mainnet.g.alchemy.com', 'ETH-MAINNET.G.ALCHEMY.COM'), 'ETH_URL'],
    ['the default port', PATH.replace('.com/', '.com:443/'), 'ETH_URL'],
    ['a trailing slash', `${PATH}/`, 'ETH_URL'],
    ['a doubled slash', PATH.replace('/v2/', '//v2//'), 'ETH_URL'],
    ['the key percent-encoded', PATH.replace('Kx9a', '%4Bx%39a'), 'ETH_URL'],
    ['the key encoded twice', PATH.replace('K', '%254B'), 'ETH_URL'],
    ['the key on another host', `https://evil.example.net/${KEY}`, 'ETH_URL'],
    ['the key in user-info', `https://${KEY}@evil.example.net/`, 'ETH_URL'],
    ['the key as a query value', `https://evil.example.net/?k=${KEY}`, 'ETH_URL'],
    ['the key as a query name', `https://evil.example.net/?${KEY}`, 'ETH_URL'],
    ['the key upper-cased', `https://evil.example.net/${KEY.toUpperCase()}`, 'ETH_URL'],
    ['the key as a host label', `https://${KEY}.evil.example.net/`, 'ETH_URL'],
    ['the key in the fragment', `https://evil.example.net/#${KEY}`, 'ETH_URL'],
    ['a password', 'https://bob:S3cretPassw0rd@other.example.com/', 'USER_URL'],
    ['a query value, another name', 'https://other.example.com/?token=ab12cd34ef56', 'QUERY_URL'],
    ['a short key, whole, spelled otherwise', 'HTTP://127.0.0.1:8545//v2/k3y/', 'SHORT_URL'],
    ['a string that is no URL', `rpc ${KEY}`, 'ETH_URL'],
  ];
  for (const [what, url, name] of held) {
    it(`finds ${what}`, () => expect(known.heldIn(url)).to.equal(name));
  }

  const honest: Array<[string, string]> = [
    ['the same provider, another key', 'https://eth-mainnet.g.alchemy.com/v2/Zz8yXw6vUt5s'],
    ["a path word of a secret's (mainnet, eth, v2)", 'https://public.example.com/v2/mainnet/eth'],
    ["a query name and a short value of a secret's", 'https://public.example.com/?apikey=demo&chain=1'],
    ['a user name that is a word', 'https://alice@public.example.com/'],
    ["the short key's path on another port", 'http://127.0.0.1:8546/v2/k3y'],
    ['the host of a secret alone', 'https://eth-mainnet.g.alchemy.com/'],
  ];
  for (const [what, url] of honest) {
    it(`lets through ${what}`, () => expect(known.heldIn(url)).to.equal(null));
  }
});
