/**
 * The store's one door: everything outside src/store imports the store from here, so the store's
 * insides can move without the rest of netcfg noticing. ESLint's no-restricted-imports keeps it so
 * (eslint.config.js). The names are listed one by one, not `export *`, so what leaves is a choice.
 */

// The store itself, its options and what its methods return.
export { NetworkStore, PROPOSAL_PREFIX, parseProposalBranch } from './network-store.js';
export type {
  GitSyncSettings,
  HealthStatus,
  LeaseClaim,
  LeaseSlot,
  Proposal,
  ProposeOptions,
  Readiness,
  StoreOptions,
  Updated,
  UrlCheck,
  UrlFinding,
  WriteHow,
} from './network-store.js';
export type { IndexChange } from './index/network-index.js';

// One network as the store holds it, and its served, revealed and written renderings.
export { jsonOf, networkOf, revealedBodyOf, revealedNetworkOf, writtenNetworkOf } from './network-record.js';
export type { NetworkRecord } from './network-record.js';

// Who wrote, and the note a write carries into its commit.
export { ANONYMOUS, OPERATOR_TOKENS, actorLabel } from './actor.js';
export type { Actor, WriteNote } from './actor.js';

// The folder's layout: network ids and what a path in the folder is.
export { ID_PART, candidatesOf, classifyPath, parseNetworkId, relativePathOf } from './files/layout.js';
export type { NetworkId } from './files/layout.js';

// Validation that commands and the HTTP layer use without a store.
export { loadSchemas } from './validation/schemas.js';
export type { JsonSchema, Schemas } from './validation/schemas.js';
export { checkUrl, isInternalHost } from './validation/url-rules.js';
export type { UrlPolicy } from './validation/url-rules.js';
export { isSecretRef } from './validation/secret-refs.js';
export type { SecretLookup } from './validation/secret-refs.js';
export { parseNetworkFile } from './validation/network-file.js';
export { toDetails } from './validation/schema-errors.js';
export { validateFolder } from './validate-folder.js';

// Files the store keeps beside the folder, read by main and the CLI.
export { defaultCachePath } from './index/index-cache.js';
export { trailersByFile } from './history/trailers.js';
export type { TrailedCommit, Trailers } from './history/trailers.js';

// A new network's file, for `netcfg add` writing to a folder no server holds.
export { networkProblems, requireNew, writeNewNetwork } from './create/new-network.js';
