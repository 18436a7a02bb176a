/**
 * The scrubber for a secret URL's parts (redact.ts: secretParts, scrubText, showAs): every part the
 * mask hides, however an endpoint writes it back, becomes `***`; a part too short to be told from
 * ordinary words makes the text unshowable instead.
 */
import { expect } from 'chai';
import { clip, scrubText, secretParts, showAs, UNSHOWN } from '../src/redact.js';

const SECRET = 'http://alice9x:pa55-W0rd@rpc.example.com/v2/AbC123secretKEY?apikey=Qz7%2Fsecret+val&net=mainnet';
const PARTS = secretParts(SECRET);
const BASIC = Buffer.from('alice9x:pa55-W0rd').toString('base64');

describe('redact: secretParts', () => {
  it('names the user-info, its Basic authorization, each query value and each hidden path segment, decoded', () => {
    expect([...PARTS].sort()).to.deep.equal(
      ['AbC123secretKEY', BASIC, 'Qz7/secret val', 'alice9x', 'mainnet', 'pa55-W0rd'].sort(),
    );
  });
  it('a value that is not a URL is one part', () => {
    expect(secretParts('not a url')).to.deep.equal(['not a url']);
  });
});

describe("redact: scrubText over a secret URL's parts", () => {
  const cases: Array<[string, string]> = [
    ['invalid api key in /v2/AbC123secretKEY', 'invalid api key in /v2/***'],
    ['redirected to /V2/ABC123SECRETKEY?APIKEY=QZ7%2FSECRET+VAL', 'redirected to /V2/***?APIKEY=***'],
    ['path /v2/abc123secretkey', 'path /v2/***'],
    ['each byte encoded: %41%62%43%31%32%33secret%4b%45%59', 'each byte encoded: ***'],
    ['decoded: Qz7/secret val', 'decoded: ***'],
    ['raw: apikey=Qz7%2Fsecret+val&net=mainnet', 'raw: apikey=***&net=***'],
    ['encoded twice: Qz7%252Fsecret%2520val', 'encoded twice: ***'],
    ['lower-case hex: qz7%2fSECRET%20VAL', 'lower-case hex: ***'],
    ['user-info: alice9x:pa55-W0rd@ and ALICE9X', 'user-info: ***:***@ and ***'],
    [`authorization: Basic ${BASIC}`, 'authorization: Basic ***'],
    ['in quotes: "mainnet"', 'in quotes: "***"'],
    ['cut short: /v2/AbC123se…', 'cut short: /v2/***…'],
    ['rate limited', 'rate limited'],
  ];
  for (const [text, scrubbed] of cases) {
    it(`${text} -> ${scrubbed}`, () => {
      expect(scrubText(text, PARTS)).to.equal(scrubbed);
    });
  }

  const short = secretParts('http://rpc.example.com/rpc/ab12');
  const unsure: Array<[string, string | null]> = [
    ['error in /rpc/AB12', null],
    ['error in /rpc/ab%31%32', null],
    ['cut: /rpc/ab1…', null],
    ['rate limited', 'rate limited'],
  ];
  for (const [text, scrubbed] of unsure) {
    it(`a hidden part of 4 characters: ${text} -> ${scrubbed ?? 'not shown'}`, () => {
      expect(scrubText(text, short)).to.equal(scrubbed);
    });
  }
});

describe('redact: clip and showAs', () => {
  it('clip marks a cut with …', () => {
    expect(clip('abcdef', 3)).to.equal('abc…');
    expect(clip('abc', 3)).to.equal('abc');
  });
  it('a finding shown under its mask: URL replaced, error and answered text scrubbed', () => {
    const finding = {
      url: SECRET,
      status: 'wrong_chain',
      error: `answered passphrase "at ${SECRET.toUpperCase()}"`,
      passphrase: 'at /v2/AbC123secretKEY',
    };
    expect(showAs(finding, 'http://***@rpc.example.com/v2/***?apikey=***&net=***')).to.deep.equal({
      url: 'http://***@rpc.example.com/v2/***?apikey=***&net=***',
      status: 'wrong_chain',
      error: 'answered passphrase "at HTTP://***:***@RPC.EXAMPLE.COM/V2/***?APIKEY=***&NET=***"',
      passphrase: 'at /v2/***',
    });
  });
  it('where a short part is in it, the error is the fixed sentence and the answered text is left out', () => {
    const url = 'http://rpc.example.com/rpc/ab12';
    const shown = showAs(
      { url, error: 'getGenesisHash: error "no ab12"', genesis_hash: 'AB12' },
      'http://rpc.example.com/rpc/***',
    );
    expect(shown).to.deep.equal({ url: 'http://rpc.example.com/rpc/***', error: UNSHOWN });
  });
  it('a URL shown as itself is not touched', () => {
    const finding = { url: 'https://rpc.example.com/rpc', error: 'rpc said no' };
    expect(showAs(finding, finding.url)).to.equal(finding);
  });
});
