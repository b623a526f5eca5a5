// `git kizu <argv>` in a real terminal: a detached tmux session with its own socket and
// TMUX_TMPDIR inside the sandbox, started in the sandbox repo with the sandbox env passed on
// its command line. tmux is required (CI installs it): without it these tests fail saying so.
import { spawnSync } from 'node:child_process';

let sessions = 0;
/** `s` single-quoted for sh. */
const q = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * `env` arguments that set the sandbox env plus `extra` (a value `undefined` unsets the
 * variable), then `git kizu <argv>`, as one sh command line.
 */
function kizuCommand(sb, argv, extra) {
  const vars = { ...sb.env, ...extra };
  const unset = Object.keys(vars).filter((k) => vars[k] === undefined);
  const assigns = [...unset.map((k) => `-u ${k}`), ...Object.keys(vars).filter((k) => vars[k] !== undefined).map((k) => `${k}=${q(vars[k])}`)];
  return `env ${assigns.join(' ')} git kizu ${argv.map(q).join(' ')}`;
}

/**
 * Runs sh command line `cmd` in a new tmux pane `width` columns wide and 50 rows high, in
 * sb.dir; the tmux server goes away after test `t`. Returns the pane's controls:
 * screen(escapes) (the whole pane, history included, as lines with trailing spaces and trailing
 * blank lines dropped; with escapes true the colour escapes kept), type(str) (typed literally),
 * key(...names) (tmux key names: Enter, Escape, BSpace, C-c, C-d) and waitFor(str, count,
 * timeout ms) (polls until `str`, trailing spaces ignored, shows `count` times; returns the
 * lines, or throws with the pane's text after the timeout).
 */
function pane(t, sb, cmd, width) {
  const sock = `kizu-test-${process.pid}-${++sessions}`;
  const tenv = { PATH: process.env.PATH, HOME: sb.home, TMUX_TMPDIR: sb.base, LANG: 'C.UTF-8' };
  const tmux = (args, { allowFail = false } = {}) => {
    const r = spawnSync('tmux', ['-L', sock, '-f', '/dev/null', ...args], { env: tenv, encoding: 'utf8' });
    if (r.error) {
      if (r.error.code === 'ENOENT') throw new Error('tmux is not installed: the terminal tests need it to run git kizu in a real terminal (apt-get install -y tmux)');
      throw r.error;
    }
    if (r.status !== 0 && !allowFail) throw new Error(`tmux ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
    return r.stdout;
  };
  tmux(['new-session', '-d', '-x', String(width), '-y', '50', '-c', sb.dir, cmd]);
  t.after(() => tmux(['kill-server'], { allowFail: true }));
  const p = {
    screen(escapes = false) {
      const out = tmux(['capture-pane', '-p', '-J', ...(escapes ? ['-e'] : []), '-S', '-', '-E', '-']);
      const ls = out.split('\n').map((l) => l.trimEnd());
      while (ls.length && ls[ls.length - 1] === '') ls.pop();
      return ls;
    },
    type(str) {
      tmux(['send-keys', '-l', str]);
    },
    key(...names) {
      tmux(['send-keys', ...names]);
    },
    async waitFor(str, count = 1, timeout = 20000) {
      const end = Date.now() + timeout;
      str = str.trimEnd();
      for (;;) {
        const ls = p.screen();
        if (ls.join('\n').split(str).length - 1 >= count) return ls;
        if (Date.now() > end) throw new Error(`timed out waiting for ${JSON.stringify(str)} x${count}; the pane shows:\n${ls.join('\n')}`);
        await sleep(40);
      }
    },
  };
  return p;
}

/**
 * `git kizu <argv>` in a terminal `width` columns wide, with `env` added to the sandbox env.
 * After the command the pane prints `EXIT=<status>` and `TTY: <isig|-isig> <icanon|-icanon>
 * <echo|-echo>` (the terminal mode left behind). Returns the pane's controls (see pane) and
 * done(): waits for the TTY line and returns the whole pane.
 */
export function terminal(t, sb, argv, { env = {}, width = 200 } = {}) {
  const cmd =
    `${kizuCommand(sb, argv, env)}; echo EXIT=$?; ` +
    `echo TTY: $(stty -a | tr ' ;' '\\n\\n' | grep -x -e isig -e -isig -e icanon -e -icanon -e echo -e -echo); sleep 120`;
  const p = pane(t, sb, cmd, width);
  return {
    ...p,
    async done() {
      await p.waitFor('TTY: ');
      return p.screen();
    },
  };
}

/**
 * `git kizu <argv>` in a terminal 250 columns wide, for a command that asks a question: the
 * pane prints `EXIT=<status>` when it ends. Returns waitFor(str) (see pane), answer(str) (types
 * `str` and Enter) and done() (waits for the EXIT line; returns the pane's non-blank lines).
 */
export function promptTerminal(t, sb, argv) {
  const p = pane(t, sb, `${kizuCommand(sb, argv, {})}; echo EXIT=$?; sleep 120`, 250);
  return {
    waitFor: (str) => p.waitFor(str),
    answer(str) {
      p.type(str);
      p.key('Enter');
    },
    async done() {
      await p.waitFor('EXIT=');
      return p.screen().filter(Boolean);
    },
  };
}

/**
 * `git kizu <argv>` with stdin, stdout and stderr on a pseudo-terminal (util-linux script(1):
 * `script -qec <command> /dev/null`), in `cwd` (default the sandbox repo) with the sandbox env
 * plus `env` (a value `undefined` unsets the variable). Returns {status, out}: the exit status
 * and every byte the terminal received (stdout and stderr together, newlines as \r\n, colour
 * escapes kept). Throws when script(1) is missing (util-linux; CI has it).
 */
export function scriptRun(sb, argv, { env = {}, cwd } = {}) {
  const r = spawnSync('script', ['-qec', kizuCommand(sb, argv, env), '/dev/null'], { cwd: cwd ?? sb.dir, env: { PATH: sb.env.PATH, TERM: 'xterm' }, encoding: 'utf8' });
  if (r.error) throw new Error(`script(1) could not run (${r.error.message}): the terminal tests need util-linux's script`);
  return { status: r.status, out: r.stdout };
}
