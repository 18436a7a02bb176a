/**
 * The NetcfgError a promise is refused with: the test fails, saying so, when it resolves instead or
 * is refused with anything else.
 */
import { expect } from 'chai';
import { NetcfgError } from '../../src/errors.js';

export async function refusal(promise: Promise<unknown>): Promise<NetcfgError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, 'refused').to.be.instanceOf(NetcfgError);
  return err as NetcfgError;
}
