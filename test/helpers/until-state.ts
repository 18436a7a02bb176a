/**
 * Awaiting a followed settings file (FollowedFile, TargetsFollow) into a state: the state it is in
 * now if that passes, else the first one it tells that does, within a deadline (deadline.ts).
 */
import type { FollowedState } from '../../src/follow/followed-file.js';
import { within } from './deadline.js';

/** What says its state and tells each change of it. */
export interface StateTeller {
  state(): FollowedState;
  onState(listener: (state: FollowedState) => void): () => void;
}

export function untilState(
  source: StateTeller,
  test: (state: FollowedState) => boolean,
  what: string,
  ms = 5000,
): Promise<FollowedState> {
  return within(
    new Promise((resolve) => {
      if (test(source.state())) return resolve(source.state());
      const off = source.onState((state) => {
        if (!test(state)) return;
        off();
        resolve(state);
      });
    }),
    ms,
    what,
  );
}
