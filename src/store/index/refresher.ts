/**
 * Brings the index in line with what is on disk, one network id (or one foreign path) at a time.
 * Work is split into observe (observation.ts: read the bytes and the stamp they were read with) and apply, so the
 * watcher can check that a file held still between the two before it trusts the bytes.
 * Reads here are synchronous and small (a network is a few hundred bytes, at most MAX_FILE_BYTES):
 * one refresh is never interleaved with another or with a PATCH's index update.
 */
import path from 'node:path';
import type { ConfigFolder } from '../files/config-folder.js';
import { candidatesOf, classifyPath, type NetworkId } from '../files/layout.js';
import { FAMILY_OUTSIDE, isDirectoryPath, listFolder, stampOf, type FolderEntries } from '../files/folder-listing.js';
import { etagOf, parseNetworkFile, type FileProblem, type ParseOutcome } from '../validation/network-file.js';
import type { UrlPolicy } from '../validation/url-rules.js';
import { familyOutside, observe, unchanged, type LoadContext, type Observation } from './observation.js';
import type { InvalidFile, NetworkIndex } from './network-index.js';
import type { NetworkRecord } from '../network-record.js';

export class Refresher {
  /** The stamp of each file as last applied, so a reconcile can skip files that did not change. */
  private readonly applied = new Map<string, string>();
  /** The stamp of the bytes each served record was parsed from (what the index cache may keep). */
  private readonly served = new Map<string, { stamp: string; etag: string }>();
  /** Ids with a write not yet in the remote (GIT_SYNC), and how many: served as they were until it is. */
  private readonly held = new Map<string, number>();

  constructor(
    readonly folder: ConfigFolder,
    private readonly index: NetworkIndex,
    private readonly policy: UrlPolicy,
  ) {}

  get root(): string {
    return this.folder.root;
  }

  /** Reads both candidate files of a network (observation.ts). */
  observe(id: NetworkId, load?: LoadContext): Observation {
    return observe(this.folder, id, load);
  }

  /** True when neither the folder nor any candidate file changed since `obs` was taken. */
  unchanged(obs: Observation): boolean {
    return unchanged(this.folder, obs);
  }

  /**
   * True when a file of `id` is not as it was when last applied (a cheap stat, no read), or is named in readiness:
   * a problem can end with the file unchanged (its family folder, a link out, is a folder again); or when the index
   * serves a version of `id` this refresher did not read from disk (a write's own record, put before its file's
   * event): the file may have been replaced or removed since, with its event already spent.
   */
  changedSinceApplied(id: NetworkId): boolean {
    const record = this.index.get(id.id);
    if (record !== undefined && this.served.get(record.path)?.etag !== record.etag) return true;
    return candidatesOf(id).some(
      ({ rel }) => this.index.hasProblems(rel) || stampOf(this.abs(rel)) !== (this.applied.get(rel) ?? ''),
    );
  }

  /** Keeps serving `id` as it is now, whatever its file becomes, until as many `release`s. */
  hold(id: NetworkId): void {
    this.held.set(id.id, (this.held.get(id.id) ?? 0) + 1);
  }

  /** Lets go of one `hold`; after the last, serves what is on disk, as changed by `actor` (the write's, actor.ts). */
  release(id: NetworkId, actor: string | null = null): void {
    const left = (this.held.get(id.id) ?? 1) - 1;
    if (left > 0) return void this.held.set(id.id, left);
    this.held.delete(id.id);
    this.apply(this.observe(id), actor);
  }

  /**
   * Serves the observed state: `.yaml` wins over `.yml`; a bad file keeps the last good version.
   * `actor` made the change (null: found on disk).
   */
  apply(obs: Observation, actor: string | null = null): void {
    if (this.held.has(obs.id.id)) return;
    if (!obs.folder.ok && obs.folder.kind !== 'missing') return; // readiness says why; the last good versions stay
    if (obs.familyOutside) {
      const known = this.index.get(obs.id.id);
      if (known)
        this.problem(known.path, [
          {
            line: 1,
            column: 1,
            message: `its family folder ${obs.id.family} is now a ${FAMILY_OUTSIDE}; the last valid version is served`,
          },
        ]);
      return;
    }
    for (const f of obs.files) {
      if (f.stamp !== '') this.applied.set(f.rel, f.stamp);
      else {
        this.applied.delete(f.rel);
        this.served.delete(f.rel);
        this.index.clearProblems(f.rel);
      }
    }
    const [source, ...duplicates] = obs.files.filter((f) => f.stamp !== '');
    for (const dup of duplicates) {
      this.problem(dup.rel, [
        {
          line: 1,
          column: 1,
          message: `duplicate of ${source?.rel}: the .yaml file is served and this one is ignored; delete one of them`,
        },
      ]);
    }
    if (!source) {
      this.index.remove(obs.id.id);
      return;
    }
    if (source.unreadable !== undefined || (source.text === undefined && source.cached === undefined)) {
      this.problem(source.rel, [{ line: 1, column: 1, message: source.unreadable ?? 'unreadable' }]);
      return;
    }
    const outcome = source.cached ?? this.parse(obs.id, source.rel, source.text as string);
    if (!outcome.ok) {
      this.problem(source.rel, outcome.problems);
      return;
    }
    this.index.put(outcome.record, actor);
    this.served.set(source.rel, { stamp: source.stamp, etag: outcome.record.etag });
    this.index.clearProblems(source.rel);
  }

  /**
   * Every served record whose file is still the one it was parsed from: what the index cache may
   * keep. A record served as the last good version of a file that is now invalid is left out.
   */
  *servedFiles(): Generator<{ stamp: string; record: NetworkRecord }> {
    for (const id of this.index.ids()) {
      const record = this.index.get(id) as NetworkRecord;
      const served = this.served.get(record.path);
      if (served && served.etag === record.etag && this.applied.get(record.path) === served.stamp)
        yield { stamp: served.stamp, record };
    }
  }

  /** Reports a path that is not a network (or clears it once it is gone). */
  refreshForeign(rel: string, reason: string): void {
    const folder = this.folder.check();
    if (!folder.ok && folder.kind !== 'missing') return;
    const outside = folder.ok && !rel.includes('/') && familyOutside(this.folder, folder.real, rel);
    const abs = this.abs(rel);
    const gone = stampOf(abs) === '';
    const directory = !gone && isDirectoryPath(abs);
    // A folder at the top is a family folder, never a foreign file (git may leave one empty), unless it leads out.
    const family = !rel.includes('/') && !outside && directory;
    // A folder where a network file belongs that is the file again by this look: the path is the network's to
    // report (its own refresh clears or names its problems), so a late look at the folder says nothing of it.
    if (!gone && !directory && classifyPath(rel).kind === 'network') return;
    if (gone || family) this.index.clearProblems(rel);
    else this.problem(rel, [{ line: 1, column: 1, message: outside ? FAMILY_OUTSIDE : reason }]);
  }

  /**
   * Every network and foreign path on disk, plus every id the index serves or reports (see
   * listFolder). Through a link git made, or in a folder that is gone, only what the index knows.
   */
  listEntries(folder = this.folder.check()): FolderEntries {
    return listFolder(folder.ok ? folder.real : null, {
      ids: this.index.ids(),
      problemPaths: this.index.problemPaths(),
    });
  }

  /**
   * What readiness says of the folder, from one look at it. `rootProblem`: it cannot be served at
   * all (503): missing or unreadable; in netcfg's own clone a missing folder is no such problem (git
   * removed it with its last network). `warning`: it is served, but not as it should be: a link git
   * made, or no network at all.
   */
  folderReport(): { rootProblem: string | null; warning: string | null } {
    const folder = this.folder.check();
    const missingInClone = !folder.ok && folder.kind === 'missing' && this.folder.ownClone;
    const rootProblem = folder.ok || folder.kind === 'link' || missingInClone ? null : folder.problem;
    let warning: string | null = null;
    if (!folder.ok && folder.kind === 'link') warning = folder.problem;
    else if (this.index.size === 0 && (folder.ok || this.folder.ownClone))
      warning = 'the config folder holds no network: nothing is served (a commit that deleted every network?)';
    return { rootProblem, warning };
  }

  abs(rel: string): string {
    return path.join(this.root, rel);
  }

  /** The same bytes as the record served: no parse (the watcher's echo of a PATCH, a touch). */
  private parse(id: NetworkId, rel: string, text: string): ParseOutcome {
    const current = this.index.get(id.id);
    if (current && current.path === rel && current.etag === etagOf(text)) return { ok: true, record: current };
    return parseNetworkFile(text, id, rel, this.policy);
  }

  private problem(rel: string, problems: FileProblem[]): void {
    const list: InvalidFile[] = problems.map((p) => ({
      path: rel,
      line: p.line,
      column: p.column,
      error: p.message,
      ...(p.unsetSecret === undefined ? {} : { unset_secret: p.unsetSecret }),
      ...(p.secretRef === undefined ? {} : { secret_ref: p.secretRef }),
    }));
    this.index.setProblems(rel, list);
  }
}
