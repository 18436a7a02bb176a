/**
 * The forge a proposal is opened on (GitHub, GitLab, Gitea or Forgejo), behind one small interface
 * of netcfg's own, as Renovate keeps its platforms: the rest of netcfg asks for a pull request by its
 * head branch and never sees a forge's API. Every failure is a NetcfgError (forge-errors.ts): the
 * forge down, slow, refusing or rate-limiting, each with a sentence and never the token.
 */
import { NetcfgError } from '../errors.js';

export type ForgeKind = 'github' | 'gitlab' | 'gitea';
export const FORGE_KINDS: readonly ForgeKind[] = ['github', 'gitlab', 'gitea'];

/** A pull request (a merge request on GitLab), as netcfg shows it whatever the forge. */
export interface Proposal {
  /** GitHub's and Gitea's number, GitLab's iid: the number people see (`#12`, `!12`). */
  number: number;
  /** The page of the pull request on the forge's web site. */
  url: string;
  /** The head (source) branch. */
  branch: string;
  /** The base (target) branch. */
  base: string;
  title: string;
  state: 'open' | 'closed' | 'merged';
  created_at: string;
  updated_at: string;
}

export interface ProposalRequest {
  branch: string;
  base: string;
  title: string;
  body: string;
}

/** What GIT_PROPOSALS and its companions say (src/config reads them). */
export interface ForgeSettings {
  kind: ForgeKind;
  /** The API root: `https://api.github.com`, `https://gitlab.example/api/v4`, `https://gitea.example/api/v1`. */
  url: string;
  /** `owner/name`, or GitLab's project path with its subgroups. */
  repo: string;
  token: string;
}

export interface Forge {
  readonly kind: ForgeKind;
  /** Whether the token is taken and the repository is there for it; throws the forge's refusal if not. */
  check(): Promise<void>;
  /** The open pull request whose head is `branch` in this repository (not a fork's), or null. */
  findByHead(branch: string): Promise<Proposal | null>;
  /** Opens a pull request; throws ProposalExists when the forge says one is open for this head already. */
  create(request: ProposalRequest): Promise<Proposal>;
  update(number: number, change: { title: string; body: string }): Promise<Proposal>;
  /** The open pull requests of this repository whose head branch starts with `headPrefix`. */
  listOpen(headPrefix: string): Promise<Proposal[]>;
}

/** A forge's answer that a pull request from this head is open already (GitHub 422, GitLab and Gitea 409). */
export class ProposalExists extends Error {
  constructor(readonly branch: string) {
    super(`a pull request from ${branch} is open already`);
    this.name = 'ProposalExists';
  }
}

/**
 * Opens the pull request, or updates the one open for the branch: the forge's own "already exists"
 * decides, so two replicas proposing at once both end on the same pull request.
 */
export async function createOrUpdate(
  forge: Forge,
  request: ProposalRequest,
): Promise<{ proposal: Proposal; created: boolean }> {
  try {
    return { proposal: await forge.create(request), created: true };
  } catch (err) {
    if (!(err instanceof ProposalExists)) throw err;
  }
  const open = await forge.findByHead(request.branch);
  if (open === null) {
    // Closed or merged between the two calls: one more create is what a person would do, once.
    try {
      return { proposal: await forge.create(request), created: true };
    } catch (err) {
      if (!(err instanceof ProposalExists)) throw err;
      throw new NetcfgError(
        'FORGE_REFUSED',
        `The forge says a pull request from ${request.branch} is open, but lists none; retry later.`,
      );
    }
  }
  return { proposal: await forge.update(open.number, { title: request.title, body: request.body }), created: false };
}
