/** What git's failures mean for GIT_SYNC: a push refused because the branch moved on, told from a remote that cannot be reached. */
import { expect } from 'chai';
import { isRejection } from '../../../src/store/git/remote-answers.js';

describe('store/git/remote-answers', () => {
  const refusals: Array<[string, boolean]> = [
    [' ! [rejected]        HEAD -> main (fetch first)', true],
    [' ! [rejected]        HEAD -> main (non-fast-forward)', true],
    [' ! [rejected]        refs/netcfg/outgoing -> main (stale info)', true],
    ["error: cannot lock ref 'refs/heads/main': is at 1234 but expected 5678", true],
    ['remote: error: failed to update ref refs/heads/main', true],
    ["fatal: unable to access 'http://127.0.0.1:9/x.git/': Failed to connect", false],
    ['fatal: Could not read from remote repository.', false],
  ];
  for (const [stderr, rejection] of refusals) {
    it(`${rejection ? 'a rejection' : 'not a rejection'}: ${stderr.trim().slice(0, 50)}`, () => {
      expect(isRejection({ stderr })).to.equal(rejection);
    });
  }
});
