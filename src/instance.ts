/**
 * This process's instance id: netcfg's requests to relayers carry it (INSTANCE_HEADER), and its HTTP
 * app answers a request carrying its own id with 508 Loop Detected (src/http/loop-guard.ts), so a
 * relayer target that is netcfg itself is told apart from a relayer and gets nothing.
 */
import { randomBytes } from 'node:crypto';

export const INSTANCE_HEADER = 'x-netcfg-instance';
/** The error code of that 508. */
export const LOOP_CODE = 'LOOP_DETECTED';
export const INSTANCE_ID = randomBytes(16).toString('hex');
