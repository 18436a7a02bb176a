/**
 * A write's go-ahead (src/store/go-ahead.ts): given once, heard by a thread that blocks on it or
 * by this one without blocking, and a wait that times out settles it as no, for good.
 */
import { expect } from 'chai';
import { awaitGoAhead, awaitGoAheadBlocking, giveGoAhead, newGoAhead } from '../../src/store/go-ahead.js';

describe('store/go-ahead', () => {
  it('is heard as given, yes or no, and only the first verdict counts', async () => {
    const yes = newGoAhead();
    const heard = awaitGoAhead(yes);
    giveGoAhead(yes, true);
    giveGoAhead(yes, false);
    expect(await heard).to.equal(true);
    expect(awaitGoAheadBlocking(yes)).to.equal(true);

    const no = newGoAhead();
    giveGoAhead(no, false);
    giveGoAhead(no, true);
    expect(await awaitGoAhead(no)).to.equal(false);
    expect(awaitGoAheadBlocking(no)).to.equal(false);
  });

  it('a wait that times out is a no, and a verdict given after it changes nothing', async () => {
    const late = newGoAhead();
    expect(awaitGoAheadBlocking(late, 5)).to.equal(false);
    giveGoAhead(late, true);
    expect(awaitGoAheadBlocking(late), 'a later wait hears no too').to.equal(false);

    const lateToo = newGoAhead();
    expect(await awaitGoAhead(lateToo, 5)).to.equal(false);
    giveGoAhead(lateToo, true);
    expect(await awaitGoAhead(lateToo)).to.equal(false);
  });
});
