/**
 * The one module that runs the git CLI. Every call uses an argument array (no shell),
 * an explicit cwd, and `-z` output where git offers it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { isUtf8 } from 'node:buffer';
import { KizuError } from '../errors.js';

/**
 * Environment for git children: never page, never prompt, stable (C) messages, no
 * optional locks (git(1) GIT_OPTIONAL_LOCKS=0: `git status` does not refresh and rewrite
 * the index), and no replace objects (git(1) GIT_NO_REPLACE_OBJECTS: a `refs/replace/` ref
 * that swaps the baseline's blob for the changed one would make `git diff` and `git grep`
 * see no change; git-kizu reads objects as they are). Note: `git diff` in git 2.39 still
 * refreshes the index opportunistically.
 */
function gitEnv(extra?: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...process.env, GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', GIT_OPTIONAL_LOCKS: '0', GIT_NO_REPLACE_OBJECTS: '1', ...extra };
}

export interface GitResult {
  /** Raw stdout bytes. */
  stdout: Buffer;
  /** stderr decoded as UTF-8. */
  stderr: string;
  /** Exit status (null if killed by a signal). */
  status: number | null;
}

export interface GitOptions {
  /** Working directory git runs in (required: no implicit process.cwd()). */
  cwd: string;
  /** Bytes or text written to git's stdin (without it, stdin is /dev/null). */
  input?: Buffer | string;
  /** Exit statuses that are not errors (default [0]). */
  okStatus?: number[];
  /** Extra environment variables. */
  env?: NodeJS.ProcessEnv;
  /** Called with each chunk of stdout as it arrives (gitStream only; stdout is still collected). */
  onStdout?: (chunk: Buffer) => void;
}

/**
 * Runs `git <args>` asynchronously and collects its output.
 * @returns stdout bytes, stderr text and the exit status.
 * @throws KizuError (exit 2) if git cannot be started or exits with a status not in `okStatus`;
 *   the message carries git's own stderr.
 */
export function git(args: string[], opts: GitOptions): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    // No input: stdin is /dev/null (as good as an empty pipe, and cheaper to set up).
    const child = spawn('git', args, { cwd: opts.cwd, env: gitEnv(opts.env), stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout!.on('data', (b: Buffer) => out.push(b));
    child.stderr!.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e) =>
      reject(new KizuError(`could not run git: ${e.message}`, { hint: 'install git and make sure it is on PATH' })),
    );
    child.on('close', (status) => {
      const res: GitResult = { stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8'), status };
      const ok = opts.okStatus ?? [0];
      if (status === null || !ok.includes(status)) {
        reject(
          new KizuError(`git ${args[0]} failed (exit ${status}): ${res.stderr.trim() || '(no message)'}`, {
            hint: `run \`git ${args.join(' ')}\` in ${opts.cwd} to see the problem`,
          }),
        );
      } else resolve(res);
    });
    if (child.stdin) {
      child.stdin.on('error', () => {});
      child.stdin.end(opts.input);
    }
  });
}

/**
 * Synchronous variant of {@link git} (same contract). Used where a command must not yield.
 */
export function gitSync(args: string[], opts: GitOptions): GitResult {
  const r = spawnSync('git', args, { cwd: opts.cwd, env: gitEnv(opts.env), input: opts.input ?? '', maxBuffer: 1 << 30 });
  if (r.error) throw new KizuError(`could not run git: ${r.error.message}`, { hint: 'install git and make sure it is on PATH' });
  const res: GitResult = { stdout: r.stdout, stderr: r.stderr.toString('utf8'), status: r.status };
  const ok = opts.okStatus ?? [0];
  if (r.status === null || !ok.includes(r.status)) {
    throw new KizuError(`git ${args[0]} failed (exit ${r.status}): ${res.stderr.trim() || '(no message)'}`, {
      hint: `run \`git ${args.join(' ')}\` in ${opts.cwd} to see the problem`,
    });
  }
  return res;
}

/** Splits NUL-terminated `-z` output into its non-empty records (UTF-8). */
export function splitZ(buf: Buffer): string[] {
  return buf.toString('utf8').split('\0').filter((s) => s.length > 0);
}

/**
 * The NUL-separated records of git `-z` output that are not valid UTF-8 (a file name such as
 * `caf\xe9.js` written in Latin-1), as raw bytes: {@link splitZ} decodes them with U+FFFD in
 * place of the bad bytes, a name no file has. One native check of the whole output first, so
 * output that is all UTF-8 (the usual case) costs no split.
 * @returns the bad records in output order; [] when every record is valid UTF-8.
 */
export function nonUtf8Records(buf: Buffer): Buffer[] {
  if (isUtf8(buf)) return [];
  const out: Buffer[] = [];
  let pos = 0;
  while (pos < buf.length) {
    let nul = buf.indexOf(0, pos);
    if (nul === -1) nul = buf.length;
    const rec = buf.subarray(pos, nul);
    if (rec.length && !isUtf8(rec)) out.push(rec);
    pos = nul + 1;
  }
  return out;
}

/** Stdout as trimmed text. */
export async function gitText(args: string[], opts: GitOptions): Promise<string> {
  return (await git(args, opts)).stdout.toString('utf8').trim();
}

/** True if HEAD points at a commit (false in a repo with no commits yet). */
export async function hasHead(cwd: string): Promise<boolean> {
  const r = await git(['rev-parse', '--verify', '-q', 'HEAD^{commit}'], { cwd, okStatus: [0, 1, 128] });
  return r.status === 0;
}

/** A git process whose stdin is written while it runs (see {@link gitStream}). */
export interface GitStream {
  /** Queues bytes or text for git's stdin. Ignored after {@link GitStream.end}. */
  write(chunk: Buffer | string): void;
  /** Closes stdin and waits for git to exit; same result and errors as {@link git}. */
  end(): Promise<GitResult>;
  /** True once git was started (by the first write, or by end). */
  readonly started: boolean;
}

/**
 * Starts `git <args>` with stdin left open, so that a caller can feed it input (e.g. paths
 * for `update-index --stdin`) while git already works on what it has, and collects its
 * output like {@link git}. Nothing is spawned until the first write or `end()`.
 * @returns the stream; `end()` rejects with KizuError (exit 2) if git cannot be started or
 *   exits with a status not in `okStatus` (opts.input is ignored).
 */
export function gitStream(args: string[], opts: GitOptions): GitStream {
  let child: ReturnType<typeof spawn> | null = null;
  let done: Promise<GitResult> | null = null;
  let ended = false;
  const start = () => {
    if (child) return;
    child = spawn('git', args, { cwd: opts.cwd, env: gitEnv(opts.env), stdio: ['pipe', 'pipe', 'pipe'] });
    const c = child;
    done = new Promise((resolve, reject) => {
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      c.stdout!.on('data', (b: Buffer) => (out.push(b), opts.onStdout?.(b)));
      c.stderr!.on('data', (b: Buffer) => err.push(b));
      c.on('error', (e) => reject(new KizuError(`could not run git: ${e.message}`, { hint: 'install git and make sure it is on PATH' })));
      c.on('close', (status) => {
        const res: GitResult = { stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8'), status };
        if (status === null || !(opts.okStatus ?? [0]).includes(status)) {
          reject(
            new KizuError(`git ${args[0]} failed (exit ${status}): ${res.stderr.trim() || '(no message)'}`, {
              hint: `run \`git ${args.join(' ')}\` in ${opts.cwd} to see the problem`,
            }),
          );
        } else resolve(res);
      });
    });
    done.catch(() => {}); // reported by end()
    c.stdin!.on('error', () => {}); // git exiting early is reported by its status
  };
  return {
    write(chunk) {
      if (ended) return;
      start();
      child!.stdin!.write(chunk);
    },
    end() {
      start();
      if (!ended) {
        ended = true;
        child!.stdin!.end();
      }
      return done!;
    },
    get started() {
      return child !== null;
    },
  };
}
