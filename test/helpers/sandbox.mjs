// Isolated real git repos in temp dirs and the real git-kizu bin, reached as `git kizu`
// through a PATH entry (exactly how users run it); where the sources under src/ are.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync, mkdirSync, symlinkSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { vouch } from './provenance.mjs';

/** This repository's root directory (absolute path). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The bin users run (absolute path). */
export const BIN = path.join(ROOT, 'bin', 'git-kizu.js');
/**
 * Node options that let a child process import TypeScript sources under src/ (tsx's loader,
 * by absolute URL so it resolves from any working directory): `node ...TS -e '<code>'`.
 */
export const TS = ['--import', import.meta.resolve('tsx')];
/** The sandbox's git user.email (user.name is "Kizu Test"). */
export const EMAIL = 'kizu@example.invalid';

/**
 * The module `src/<rel>` (e.g. `src('git/lock.ts')`) as a file URL string: for `await import()`
 * in a test (tsx loads the TypeScript) and, JSON-quoted, for `import ... from` in a child's code.
 * Every test reaches src/ through this: a moved module means changing the string where it is
 * used, and `grep -rn "src('" test/` lists every such place.
 */
/**
 * `dirs` (a PATH value) without its directories that hold a `git-kizu` (the tester's own
 * install: `npm link`, as the README's set-up does), for tests about a machine where
 * git-kizu cannot be found.
 */
export function pathWithoutKizu(dirs = process.env.PATH ?? '') {
  return dirs
    .split(path.delimiter)
    .filter((d) => d && !existsSync(path.join(d, 'git-kizu')))
    .join(path.delimiter);
}

export const src = (rel) => pathToFileURL(path.join(ROOT, 'src', rel)).href;

/**
 * Spawns `cmd args` without waiting (stdin /dev/null); resolves {status, stdout, stderr} (utf8)
 * when it has exited. `opts` are child_process.spawn options (cwd, env, ...).
 */
export function spawnAsync(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const c = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts });
    let stdout = '';
    let stderr = '';
    c.stdout.on('data', (b) => (stdout += b));
    c.stderr.on('data', (b) => (stderr += b));
    c.on('error', reject);
    c.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/**
 * Runs `fn` (sync or async) in this process with process.env replaced by exactly `env` (as a
 * child spawned with `env` would see it: nothing of the test runner's own environment), put
 * back afterwards; resolves what `fn` returns. For calling src/ code in-process the way the
 * bin would run it in a sandbox (tests in a file run one at a time, so nothing else sees it).
 */
export async function withEnv(env, fn) {
  const saved = { ...process.env };
  const reset = (to) => {
    for (const k of Object.keys(process.env)) delete process.env[k];
    Object.assign(process.env, to);
  };
  reset(env);
  try {
    return await fn();
  } finally {
    reset(saved);
  }
}

const cleanups = [];
process.on('exit', () => {
  if (process.env.KIZU_KEEP_TMP) return;
  for (const d of cleanups) rmSync(d, { recursive: true, force: true });
});

/**
 * Creates an isolated sandbox: temp HOME, GIT_CONFIG_GLOBAL, GIT_CONFIG_NOSYSTEM=1, a PATH
 * entry holding `git-kizu`, and (unless init:false) a git repo at sandbox.dir.
 */
export function sandbox({ init = true, commit = true, files = {} } = {}) {
  const base = mkdtempSync(path.join(tmpdir(), 'kizu-test-'));
  cleanups.push(base);
  const home = path.join(base, 'home');
  const binDir = path.join(base, 'bin');
  const dir = path.join(base, 'repo');
  mkdirSync(home);
  mkdirSync(binDir);
  mkdirSync(dir);
  symlinkSync(BIN, path.join(binDir, 'git-kizu'));
  const gitconfig = path.join(home, '.gitconfig');
  writeFileSync(gitconfig, `[user]\n\tname = Kizu Test\n\temail = ${EMAIL}\n[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n`);
  const env = {
    PATH: `${binDir}${path.delimiter}${process.env.PATH}`,
    HOME: home,
    GIT_CONFIG_GLOBAL: gitconfig,
    GIT_CONFIG_NOSYSTEM: '1',
    NO_COLOR: '1',
    LANG: 'C.UTF-8',
    TMPDIR: process.env.TMPDIR ?? tmpdir(),
  };
  const sb = {
    base,
    home,
    binDir,
    dir,
    env,
    /** Runs a command synchronously; returns {status, stdout, stderr}. */
    run(cmd, args, opts = {}) {
      const r = spawnSync(cmd, args, {
        cwd: opts.cwd ?? dir,
        env: { ...env, ...(opts.env ?? {}) },
        input: opts.input ?? '',
        encoding: opts.encoding === 'buffer' ? undefined : 'utf8',
        maxBuffer: 1 << 28,
      });
      if (r.error) throw r.error;
      return { status: r.status, stdout: r.stdout, stderr: r.stderr };
    },
    /** git <args>; throws on non-zero exit unless opts.allowFail. */
    git(...args) {
      let opts = {};
      if (typeof args[args.length - 1] === 'object') opts = args.pop();
      const r = sb.run('git', args, opts);
      if (r.status !== 0 && !opts.allowFail) throw new Error(`git ${args.join(' ')} failed: ${r.stderr}`);
      return r.stdout;
    },
    /** `git kizu <args>` through PATH, like a user. Returns {status, stdout, stderr}. */
    kizu(args, opts = {}) {
      return sb.run('git', ['kizu', ...args], opts);
    },
    /** `git kizu <args>` without waiting (stdin /dev/null): resolves {status, stdout, stderr}. */
    kizuAsync(args, opts = {}) {
      return spawnAsync('git', ['kizu', ...args], { cwd: opts.cwd ?? dir, env: { ...env, ...(opts.env ?? {}) } });
    },
    /**
     * Runs ES module `code` in a child node that can import src/ (tsx; see src()), in opts.cwd
     * (default the repo) with the sandbox env. Returns {status, stdout, stderr}.
     */
    runModule(code, opts = {}) {
      return sb.run(process.execPath, [...TS, '--input-type=module', '-e', code], opts);
    },
    /** Writes files (relative path -> string|Buffer), creating directories. */
    write(files) {
      for (const [rel, content] of Object.entries(files)) {
        const p = path.join(opts_dir(), rel);
        mkdirSync(path.dirname(p), { recursive: true });
        writeFileSync(p, content);
      }
    },
    read(rel, enc = 'utf8') {
      return readFileSync(path.join(dir, rel), enc === 'buffer' ? undefined : enc);
    },
    path(rel) {
      return path.join(dir, rel);
    },
  };
  const opts_dir = () => dir;
  if (init) {
    sb.git('init', '-q');
    sb.write(files);
    if (commit) {
      sb.git('add', '-A');
      sb.git('commit', '-q', '--allow-empty', '-m', 'initial');
    }
  }
  return sb;
}

/**
 * Runs the bin directly with a hook payload on stdin (what the generated scripts exec). First
 * records every scar and queue item in the working tree as written through git kizu
 * (helpers/provenance.mjs vouch), as a reviewer using git kizu would have written them;
 * `opts.asFound` skips that, so that they are labelled as found in the repository.
 */
export function hook(sb, event, payload, opts = {}) {
  const input = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const { asFound, ...rest } = opts;
  if (!asFound) vouch(sb, rest.cwd ?? sb.dir);
  return sb.run(process.execPath, [BIN, 'hook', event], { input, ...rest });
}

