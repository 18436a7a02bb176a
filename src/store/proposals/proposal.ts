/**
 * A proposal of a checked change (GIT_SYNC): the edit a PATCH would make (write/network-edit.ts),
 * made on the network's file as the tracked branch's remote head holds it, committed as the PATCH's
 * commit would be (same author, subject and trailers) and pushed to the actor's branch for the
 * network (proposal-branch.ts, proposal-name.ts). Nothing served changes: no file is written.
 * Edited on the remote's version, the commit holds the change alone even when the clone is a pull
 * behind; an If-Match that the remote's version no longer matches is 412, after a pull, so a GET then serves it.
 */
import path from 'node:path';
import { NetcfgError } from '../../errors.js';
import { authorLineOf, commitMessage, type Actor, type WriteNote } from '../actor.js';
import { candidatesOf, type NetworkId } from '../files/layout.js';
import { networkOf, type NetworkRecord } from '../network-record.js';
import type { UrlPolicy } from '../validation/url-rules.js';
import { planEdit, requireIfMatch, updateSubject, type EditPlan } from '../write/network-edit.js';
import type { PatchChecks } from '../write/patch-checks.js';
import type { UrlFinding } from '../write/url-check.js';
import type { BaseFile, ProposalBranches, ProposalCommit, Proposed } from './proposal-branch.js';
import { proposalBranchOf } from './proposal-name.js';
import { pathInClone } from '../git/write-queue.js';
import type { GitAuthor } from '../git/work-tree.js';

export interface ProposerParts {
  /** The store's git: GIT_SYNC's proposal branches (NOT_IMPLEMENTED without it), and a pull. */
  git: { requireProposals(): ProposalBranches; pull(): Promise<void> };
  /** What a pull brought is served once the watcher refreshed the files that changed. */
  watcher: { refreshChanged(): void; whenIdle(): Promise<void> };
  /** update()'s checks of a PATCH. */
  checks: PatchChecks;
  /** The version served of a network; NETWORK_NOT_FOUND when there is none. */
  served(id: string): NetworkRecord;
  /** The config folder: its real path, inside the clone. */
  folder: { forWriting(): string };
  policy: UrlPolicy;
  /** netcfg's git identity: the commit's committer, and the operator's author (actor.ts). */
  author: GitAuthor;
}

/** How a proposal is made: as update()'s `how`, and the oid the caller last saw at the proposal's branch ('' none), for its lease. */
export interface ProposeOptions {
  revealSecrets?: boolean;
  /** It may add a secret reference or change which variable one names (reveal_secrets or admin). */
  changeReferences?: boolean;
  note?: WriteNote;
  expected?: string;
}

export interface ProposalRequest {
  id: NetworkId;
  /** Top-level fields to replace, already checked as a PATCH's are. */
  changes: Record<string, unknown>;
  ifMatch: string | undefined;
  actor: Actor;
  note?: WriteNote | undefined;
  /** The version served now (its rpc_urls are the proposal's "before"). */
  served: NetworkRecord;
  /** The oid the caller last saw at the proposal's branch ('' for none); by default the remote's answer right before the push. */
  expected?: string | undefined;
}

/** What a route needs of a proposal: where it went, and the change, masked as served. */
export interface Proposal extends Proposed {
  /** The network's id. */
  network: string;
  /** The commit's subject: the pull request's title. */
  subject: string;
  /** rpc_urls as served now, and as the proposal makes them, each secret masked as served. */
  old_rpc_urls: unknown;
  new_rpc_urls: unknown;
  /** RPC_PROBE_ON_PATCH: what the new URLs answered that was not fine. */
  findings: UrlFinding[];
}

/** What a proposal's edit made, or that the remote's version failed its If-Match. */
interface Edited {
  record?: NetworkRecord;
  subject?: string;
  remoteMoved?: boolean;
}

export class Proposer {
  constructor(private readonly parts: ProposerParts) {}

  /**
   * Checks a PATCH body as update() does, If-Match against the version served before the remote is
   * asked anything, then proposes it. The URL check's findings come with the proposal.
   */
  async propose(
    id: string,
    body: unknown,
    ifMatch: string | undefined,
    actor: Actor,
    how: ProposeOptions = {},
  ): Promise<Proposal> {
    const branches = this.parts.git.requireProposals();
    const { networkId, changes } = this.parts.checks.checked(id, body, {
      reveal: how.revealSecrets === true,
      changeReferences: how.changeReferences === true,
    });
    const served = this.parts.served(networkId.id);
    requireIfMatch(networkId, ifMatch, served.etag);
    const findings = await this.parts.checks.urlFindings(networkId, changes, ifMatch);
    const request = { id: networkId, changes, ifMatch, actor, note: how.note, served, expected: how.expected };
    return { ...(await this.proposeChange(branches, request)), findings };
  }

  /** Commits `request`'s change on top of the remote head and pushes it to the actor's proposal branch. */
  private async proposeChange(
    branches: ProposalBranches,
    request: ProposalRequest,
  ): Promise<Omit<Proposal, 'findings'>> {
    const { id, actor } = request;
    const folderInClone = pathInClone(branches.top, this.parts.folder.forWriting());
    const paths = candidatesOf(id).map(({ rel }) => path.posix.join(folderInClone, rel));
    const edited: Edited = {};
    const make = (file: BaseFile | null): ProposalCommit => {
      const inFolder = file && { ...file, rel: path.posix.relative(folderInClone, file.rel) };
      return this.edit(branches.upstream, request, inFolder, edited);
    };
    try {
      const proposed = await branches.propose({
        branch: proposalBranchOf(actor, id),
        paths,
        make,
        expected: request.expected,
      });
      const [record, subject] = [edited.record as NetworkRecord, edited.subject as string]; // make() ran: the push went out
      return {
        ...proposed,
        network: id.id,
        subject,
        old_rpc_urls: networkOf(request.served).rpc_urls,
        new_rpc_urls: networkOf(record).rpc_urls,
      };
    } catch (err) {
      if (!edited.remoteMoved) throw err;
      // The remote changed the file since the version served: pulled and served first (not waiting for the
      // watcher's events), so the client's GET finds the new ETag.
      await this.parts.git
        .pull()
        .then(() => (this.parts.watcher.refreshChanged(), this.parts.watcher.whenIdle()))
        .catch(() => undefined);
      const message = `${id.id} was changed on ${branches.upstream} since the ETag in If-Match was read; GET it again and retry with the new ETag.`;
      throw new NetcfgError('PRECONDITION_FAILED', message, { etag: (err as NetcfgError).etag, cause: err });
    }
  }

  /** The commit a PATCH would make of `file` (its path from the config folder), as the remote head holds it; what it made goes in `edited`. */
  private edit(upstream: string, request: ProposalRequest, file: BaseFile | null, edited: Edited): ProposalCommit {
    const { id, actor, note } = request;
    if (file === null)
      throw new NetcfgError(
        'NETWORK_NOT_FOUND',
        `${id.id} is no longer on ${upstream} (deleted there); nothing was proposed.`,
      );
    let plan: EditPlan;
    try {
      plan = planEdit(id, file.rel, file.bytes, request.changes, request.ifMatch, this.parts.policy);
    } catch (err) {
      edited.remoteMoved = err instanceof NetcfgError && err.code === 'PRECONDITION_FAILED';
      throw err;
    }
    if (plan.kind === 'invalid') throw plan.refusal;
    if (plan.kind === 'same')
      throw new NetcfgError(
        'BAD_REQUEST',
        `${id.id} on ${upstream} holds these values already; there is nothing to propose.`,
      );
    const subject = updateSubject(id, plan.fields);
    Object.assign(edited, { record: plan.record, subject: note?.subject ?? subject });
    return {
      text: plan.text,
      message: commitMessage(subject, actor, note),
      author: authorLineOf(actor, this.parts.author),
    };
  }
}
