// Helpers shared by snapshot.test.mjs and undo.test.mjs.
import { spawnSync } from 'node:child_process';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';

/** Every path under `dir` except .git: files {mode, hex}, symlinks {link}, directories {dir}. */
export function tree(dir) {
  const out = {};
  const walk = (d) => {
    for (const e of readdirSync(d).sort()) {
      const p = path.join(d, e);
      const rel = path.relative(dir, p).split(path.sep).join('/');
      if (rel === '.git') continue;
      const st = lstatSync(p);
      if (st.isSymbolicLink()) out[rel] = { link: readlinkSync(p) };
      else if (st.isDirectory()) {
        out[rel + '/'] = { dir: true };
        walk(p);
      } else out[rel] = { mode: (st.mode & 0o7777).toString(8), hex: readFileSync(p).toString('hex') };
    }
  };
  walk(dir);
  return out;
}

let sessions = 0;
const q = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`;

/**
 * Runs `git kizu <argv>` in a real terminal (a detached tmux session with its own socket
 * inside the sandbox; tmux is required, CI installs it). The pane prints `EXIT=<status>` when
 * the command ends. Returns {waitFor(str), type(str), done()} (done: the pane's lines).
 */
export function terminal(t, sb, argv) {
  const sock = `kizu-snap-${process.pid}-${++sessions}`;
  const tenv = { PATH: process.env.PATH, HOME: sb.home, TMUX_TMPDIR: sb.base, LANG: 'C.UTF-8' };
  const tmux = (args, allowFail = false) => {
    const r = spawnSync('tmux', ['-L', sock, '-f', '/dev/null', ...args], { env: tenv, encoding: 'utf8' });
    if (r.error) throw r.error.code === 'ENOENT' ? new Error('tmux is not installed: the terminal tests need it (apt-get install -y tmux)') : r.error;
    if (r.status !== 0 && !allowFail) throw new Error(`tmux ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
    return r.stdout;
  };
  const assigns = Object.entries(sb.env).map(([k, v]) => `${k}=${q(v)}`);
  tmux(['new-session', '-d', '-x', '250', '-y', '50', '-c', sb.dir, `env ${assigns.join(' ')} git kizu ${argv.map(q).join(' ')}; echo EXIT=$?; sleep 120`]);
  t.after(() => tmux(['kill-server'], true));
  const screen = () => tmux(['capture-pane', '-p', '-J', '-S', '-', '-E', '-']).split('\n').map((l) => l.trimEnd());
  const s = {
    async waitFor(str, timeout = 20000) {
      const end = Date.now() + timeout;
      for (;;) {
        const ls = screen();
        if (ls.join('\n').includes(str)) return ls;
        if (Date.now() > end) throw new Error(`timed out waiting for ${JSON.stringify(str)}; the pane shows:\n${ls.join('\n')}`);
        await new Promise((r) => setTimeout(r, 40));
      }
    },
    type(str) {
      tmux(['send-keys', '-l', str]);
      tmux(['send-keys', 'Enter']);
    },
    async done() {
      await s.waitFor('EXIT=');
      return screen().filter(Boolean);
    },
  };
  return s;
}
