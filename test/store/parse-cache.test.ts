/** The writer's parse cache: keyed by the bytes' ETag, least recently used out first. */
import { expect } from 'chai';
import { parseYaml } from '../../src/store/network-file.js';
import { ParseCache } from '../../src/store/parse-cache.js';

describe('store/parse-cache', () => {
  it('keeps the most recently used parses up to its capacity', () => {
    const cache = new ParseCache(2);
    const [a, b, c] = ['a: 1\n', 'b: 2\n', 'c: 3\n'].map((text) => parseYaml(text));
    cache.set('"a"', a!);
    cache.set('"b"', b!);
    expect(cache.get('"a"')).to.equal(a); // now the most recent
    cache.set('"c"', c!);
    expect(cache.size).to.equal(2);
    expect(cache.get('"b"')).to.equal(undefined);
    expect(cache.get('"a"')).to.equal(a);
    expect(cache.get('"c"')).to.equal(c);
  });

  it('a second set of the same ETag replaces the first and does not grow the cache', () => {
    const cache = new ParseCache(2);
    const first = parseYaml('x: 1\n');
    const second = parseYaml('x: 1\n');
    cache.set('"x"', first);
    cache.set('"x"', second);
    expect(cache.size).to.equal(1);
    expect(cache.get('"x"')).to.equal(second);
  });
});
