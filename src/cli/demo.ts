/**
 * `git kizu demo`: runs the main loop for real in a throw-away repository and prints each
 * step: init, an "agent" edit, a scar, the Stop hook blocking, the fix, the Stop hook
 * allowing, and the pre-commit hook refusing a staged scar. Every step runs the real bin
 * and real git as child processes, isolated from the user's git config and home directory:
 * the demo writes nothing outside its temp directory.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync, mkdirSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BIN_PATH } from '../package.js';
import { KizuError, EXIT } from '../errors.js';
import { gitColorArg, pc, type Reporter } from '../output.js';

const BIN = BIN_PATH;

export interface DemoInput {
  /** Keep the temp repo (its path is printed) instead of deleting it. */
  keep: boolean;
  reporter: Reporter;
}

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the demo.
 * @returns 0 when every step behaved as expected.
 * @throws KizuError (exit 1) naming the first step that did not, with its output.
 */
export async function demoCommand(i: DemoInput): Promise<number> {
  const out = i.reporter;
  const base = mkdtempSync(path.join(tmpdir(), 'kizu-demo-'));
  const repo = path.join(base, 'repo');
  mkdirSync(repo);
  const gitconfig = path.join(base, 'gitconfig');
  writeFileSync(gitconfig, '[user]\n\tname = Kizu Demo\n\temail = demo@example.invalid\n[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n');
  // Nothing the demo runs may write outside `base`: HOME (and every agent's home override)
  // points inside it, so no step can reach the user's ~/.codex, ~/.gemini, ~/.claude, ...
  const home = path.join(base, 'home');
  mkdirSync(home);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    GIT_CONFIG_GLOBAL: gitconfig,
    GIT_CONFIG_NOSYSTEM: '1',
    NO_COLOR: '1',
  };
  for (const k of ['KIZU_SKIP', 'CODEX_HOME', 'COPILOT_HOME', 'GEMINI_CLI_TRUSTED_FOLDERS_PATH']) delete env[k];
  const run = (cmd: string, args: string[], input = ''): Run => {
    const r = spawnSync(cmd, args, { cwd: repo, env, input, encoding: 'utf8' });
    if (r.error) throw new KizuError(`demo: could not run ${cmd}: ${r.error.message}`, { exitCode: EXIT.FOUND });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const kizu = (...args: string[]) => run(process.execPath, [BIN, ...args]);
  const step = (n: number, title: string) => out.log(`\n${pc.bold(pc.cyan(`[${n}/7] ${title}`))}`);
  const show = (text: string, prefix = '    ') => text.trimEnd().split('\n').filter((l) => l !== '').forEach((l) => out.log(prefix + l));
  const expect = (ok: boolean, what: string, r: Run) => {
    if (!ok) {
      throw new KizuError(`demo step failed: ${what}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}`, {
        hint: `the demo repo is kept at ${repo} for inspection`,
        exitCode: EXIT.FOUND,
      });
    }
  };
  const stopPayload = (active: boolean) =>
    JSON.stringify({ session_id: 'demo', cwd: repo, hook_event_name: 'Stop', stop_hook_active: active, last_assistant_message: 'Done.' });
  let failed = true;
  try {
    out.log(`git-kizu demo in ${repo}`);
    const file = 'src/greet.js';
    mkdirSync(path.join(repo, 'src'));
    writeFileSync(path.join(repo, file), "export function greet(name) {\n  return 'Hello, ' + name;\n}\n");
    for (const args of [['init', '-q'], ['add', '-A'], ['commit', '-q', '-m', 'initial']]) {
      const r = run('git', args);
      expect(r.status === 0, `git ${args.join(' ')}`, r);
    }

    step(1, 'git kizu init --agent claude: install the Claude Code hooks and the pre-commit hook');
    const init = kizu('init', '--agent', 'claude');
    show(init.stdout);
    expect(init.status === 0 && existsSync(path.join(repo, '.claude/hooks/kizu-hook.sh')), 'git kizu init', init);
    const c = run('git', ['add', '-A']);
    expect(c.status === 0, 'git add', c);
    const c2 = run('git', ['commit', '-q', '-m', 'add git-kizu hooks']);
    expect(c2.status === 0, 'git commit of the hooks', c2);

    step(2, 'the agent edits a file');
    writeFileSync(path.join(repo, file), "export function greet(name) {\n  return `Hello, ${name.trim().toUpperCase()}!`;\n}\n");
    show(run('git', ['diff', gitColorArg()]).stdout);

    step(3, `you scar the changed line: git kizu scar ${file}:2`);
    const scar = kizu('scar', `${file}:2`);
    show(scar.stdout);
    expect(scar.status === 0, 'git kizu scar', scar);
    show(readFileSync(path.join(repo, file), 'utf8'), '    | ');

    step(4, 'the agent tries to stop: the Stop hook blocks it');
    const hookScript = path.join(repo, '.claude/hooks/kizu-hook.sh');
    const blocked = run(hookScript, ['stop'], stopPayload(false));
    expect(blocked.status === 0 && blocked.stdout.includes('"decision":"block"'), 'Stop hook should block', blocked);
    const reason = (JSON.parse(blocked.stdout) as { reason: string }).reason;
    out.log('    decision: block; the agent is told:');
    show(reason, '    > ');

    step(5, 'the agent answers and deletes the scar line: git kizu unscar ' + `${file}:2`);
    const unscar = kizu('unscar', `${file}:2`);
    show(unscar.stdout);
    expect(unscar.status === 0, 'git kizu unscar', unscar);

    step(6, 'the agent tries to stop again: allowed');
    const allowed = run(hookScript, ['stop'], stopPayload(true));
    expect(allowed.status === 0 && allowed.stdout === '', 'Stop hook should allow', allowed);
    out.log('    (no output: the stop is allowed)');

    step(7, 'a scar that gets staged is refused by the pre-commit hook');
    const again = kizu('scar', `${file}:2`, '--kind', 'reject');
    show(again.stdout);
    const add = run('git', ['add', file]);
    expect(add.status === 0, 'git add', add);
    const commit = run('git', ['commit', '-m', 'agent change']);
    show(commit.stderr);
    expect(commit.status !== 0 && commit.stderr.includes('commit refused'), 'pre-commit should refuse the staged scar', commit);
    out.log(`    git commit exited ${commit.status}: refused`);

    out.log(`\n${pc.green('demo complete:')} the Stop hook held the agent until the scar was resolved, and git commit refused a staged scar.`);
    out.log('Next: run `git kizu init` in your own repository (see README, Quickstart).');
    failed = false;
  } finally {
    if (i.keep || failed) out.log(`demo repo kept at ${repo}`);
    else rmSync(base, { recursive: true, force: true });
  }
  return EXIT.OK;
}
