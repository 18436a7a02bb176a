/**
 * What a PATCH is checked for before anything is written or pushed, the same for a write
 * (network-writer.ts) and a proposal (proposals/proposal.ts): its secret echoes turned into references
 * (secret-echo.ts), the schema and URL rules, whether the store takes writes now, and with
 * RPC_PROBE_ON_PATCH what its URLs answer (url-check.ts).
 */
import { NetcfgError } from '../../errors.js';
import { requireNetworkId, type NetworkId } from '../files/layout.js';
import type { NetworkIndex } from '../index/network-index.js';
import { requireValidPatch } from '../validation/network-rules.js';
import type { UrlPolicy } from '../validation/url-rules.js';
import { restoreSecrets } from './secret-echo.js';
import { checkPatchUrls, type UrlCheck, type UrlFinding } from './url-check.js';

export interface PatchCheckParts {
  index: NetworkIndex;
  policy: UrlPolicy;
  urlCheck: UrlCheck | undefined;
  /** Whether the store takes writes now: not while it shuts down or still loads, nor while GIT_SYNC refuses them (`git`). */
  state(): { closing: boolean; writesOpen: boolean; loaded: boolean; git: NetcfgError | null };
}

/** What the writer may do with secrets: write a value out (`reveal`), add or re-point a reference (`changeReferences`). */
export interface SecretRights {
  reveal: boolean;
  changeReferences: boolean;
}

export class PatchChecks {
  constructor(private readonly parts: PatchCheckParts) {}

  /** A PATCH body as the file would hold it (secret echoes turned into references), valid, while the store takes writes. */
  checked(id: string, body: unknown, rights: SecretRights): { networkId: NetworkId; changes: Record<string, unknown> } {
    const { index, policy } = this.parts;
    const networkId = requireNetworkId(id);
    body = restoreSecrets(body, index.get(networkId.id)?.secrets ?? [], index.secretValues(), rights);
    requireValidPatch(body, policy, networkId);
    const { closing, writesOpen, loaded, git } = this.parts.state();
    if (closing) throw new NetcfgError('NOT_READY', 'netcfg is shutting down; retry (another replica may answer).');
    if (!writesOpen || (!index.has(networkId.id) && !loaded)) {
      throw new NetcfgError('NOT_READY', 'netcfg is still loading its configuration; retry in a moment.');
    }
    if (git) throw git;
    return { networkId, changes: body as Record<string, unknown> };
  }

  /** RPC_PROBE_ON_PATCH: what the change's URLs answered (after the 404 and If-Match checks against the version served). */
  async urlFindings(
    id: NetworkId,
    changes: Record<string, unknown>,
    ifMatch: string | undefined,
  ): Promise<UrlFinding[]> {
    const { index, urlCheck, policy } = this.parts;
    if (!urlCheck) return [];
    const current = index.get(id.id);
    const served = {
      id,
      record: current,
      onDisk: current !== undefined && !index.problemPaths().includes(current.path),
    };
    return checkPatchUrls(urlCheck, served, changes, ifMatch, policy.secrets);
  }
}
