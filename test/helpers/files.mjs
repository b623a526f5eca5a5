// Reading and building file contents in tests.
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';

/**
 * Every path under `dir` except a top-level .git, keyed by '/'-separated relative path: files
 * {mode (permission bits, octal string), hex (bytes)}, symlinks {link}, directories
 * (key ending in '/') {dir: true}. Two calls compare equal when nothing under `dir` changed.
 */
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

/** The bytes of `rel` in the sandbox repo (a Buffer). */
export const bytes = (sb, rel) => readFileSync(sb.path(rel));

/** Lines joined into file text, each ending in '\n'. */
export const text = (lines) => lines.map((l) => l + '\n').join('');

/** `n` distinct lines `<prefix>1` … `<prefix><n>` (an array of strings). */
export const countedLines = (n, prefix = 'l') => Array.from({ length: n }, (_, k) => `${prefix}${k + 1}`);
