/**
 * One git process, with a deadline. A remote that accepts the connection and never answers would
 * otherwise hold `git ls-remote` (and every write waiting behind it) forever. git starts helpers of
 * its own (a remote helper, ssh, hooks), so each git runs in a process group of its own and the
 * whole group is killed: on its deadline, when its caller gives up (shutdown), and when this process
 * exits with git still running. Its answer is capped in bytes, and its errors carry git's words with
 * every URL's credentials hidden, so no log, readiness report or answer can show a remote's token.
 */
import { spawn } from 'node:child_process';
import { redactText } from '../../redact.js';

export interface GitCall {
  /** The arguments after `git` (the caller puts `-C <dir>` first). */
  args: string[];
  env: NodeJS.ProcessEnv;
  input?: Buffer | undefined;
  /** Killed after this long; the call fails with reason 'timeout'. */
  timeoutMs: number;
  /** Killed once its standard output passes this many bytes; reason 'too-large'. */
  maxBytes: number;
  /** Aborted: killed at once (or never started); reason 'aborted'. */
  signal?: AbortSignal | undefined;
}

/** A git command in the clone (no network) that runs longer than this is stuck: it is stopped. */
export const LOCAL_TIMEOUT_MS = 60_000;

export type GitFailure = 'exit' | 'timeout' | 'too-large' | 'aborted' | 'spawn';

export class GitError extends Error {
  constructor(
    message: string,
    /** What git wrote to stderr, redacted (the callers tell a refusal from a failure by it). */
    readonly stderr: string,
    readonly reason: GitFailure,
  ) {
    super(message);
    this.name = 'GitError';
  }
}

/** Process groups of the git commands running now, killed if this process exits first. */
const running = new Set<number>();
let exitHookInstalled = false;

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

function track(pid: number): void {
  if (!exitHookInstalled) {
    // A shutdown deadline or a crash ends this process: its git commands must not live on.
    process.once('exit', () => running.forEach(killGroup));
    exitHookInstalled = true;
  }
  running.add(pid);
}

/** How many git commands run now (shutdown and tests). */
export function gitProcessesRunning(): number {
  return running.size;
}

/** Keeps the last bytes git wrote to stderr: enough for its message, never its whole chatter. */
const STDERR_KEEP = 16 * 1024;

export function runGit(call: GitCall): Promise<string> {
  // The command's name (`push`, `ls-remote`), for messages: the first argument that is neither an option nor -C's folder.
  const verb = call.args.find((a, i) => !a.startsWith('-') && call.args[i - 1] !== '-C') ?? 'git';
  return new Promise((resolve, reject) => {
    if (call.signal?.aborted)
      return reject(new GitError(`git ${verb} was not started: netcfg is shutting down`, '', 'aborted'));
    const child = spawn('git', call.args, { env: call.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = '';
    let settled = false;
    const finish = (error: GitError | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      call.signal?.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve(Buffer.concat(out).toString('utf8'));
    };
    // Killed: the caller hears it once git has exited, so "no git runs" holds when it does.
    let exited = false;
    let killed: GitError | null = null;
    const stop = (message: string, reason: GitFailure): void => {
      if (killed || settled) return;
      killed = new GitError(message, redactText(err), reason);
      if (exited || child.pid === undefined) return finish(killed);
      killGroup(child.pid);
    };
    const onAbort = (): void => stop(`git ${verb} was stopped: netcfg is shutting down`, 'aborted');
    const timer = setTimeout(
      () => stop(`git ${verb} gave no answer within ${call.timeoutMs} ms and was stopped`, 'timeout'),
      call.timeoutMs,
    );
    call.signal?.addEventListener('abort', onAbort, { once: true });
    if (child.pid !== undefined) track(child.pid);
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > call.maxBytes)
        return stop(`git ${verb} answered more than ${call.maxBytes} bytes and was stopped`, 'too-large');
      out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err = (err + chunk.toString('utf8')).slice(-STDERR_KEEP);
    });
    child.stdin.on('error', () => undefined); // git may exit before reading its input: its exit says why
    child.stdin.end(call.input);
    child.once('error', (e: NodeJS.ErrnoException) =>
      finish(new GitError(`git could not be started (${e.code ?? e.message})`, '', 'spawn')),
    );
    child.once('exit', () => {
      exited = true;
      if (child.pid !== undefined) running.delete(child.pid);
      if (killed) finish(killed);
    });
    child.once('close', (code, signal) => {
      if (killed) return finish(killed);
      if (code === 0) return finish(null);
      const said = redactText(
        err
          .trim()
          .split('\n')
          .find((line) => line.trim() !== '') ?? '',
      );
      finish(
        new GitError(
          `git ${verb} failed (${signal ?? `exit ${code}`})${said ? `: ${said}` : ''}`,
          redactText(err),
          'exit',
        ),
      );
    });
  });
}

/** The first line git wrote to stderr (or the error's message), with every URL's credentials hidden. */
export function firstLine(err: unknown): string {
  const text = String((err as { stderr?: string }).stderr || (err as Error).message);
  return redactText(text.trim().split('\n')[0] ?? '');
}
