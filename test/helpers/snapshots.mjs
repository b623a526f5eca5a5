// Snapshots (refs/kizu/snapshots) and the rollback modules: a repository with every kind of
// file, and the library (src/rollback) called in a child process.
import { chmodSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { sandbox, src } from './sandbox.mjs';
import { ok } from './expect.mjs';

/** `git kizu snapshot list --json` parsed; asserts exit 0. */
export function snapshots(sb) {
  return JSON.parse(ok(sb.kizu(['snapshot', 'list', '--json'])).stdout);
}

/** The config richRepo writes: .env kept in snapshots, files over 1000 bytes left out. */
const CONFIG = JSON.stringify({ snapshot: { include: ['.env'], maxFileBytes: 1000 } });

/** A repository with every kind of file; the user has a stash entry and staged nothing. */
export function richRepo() {
  const sb = sandbox({
    files: {
      '.gitattributes': '* text=auto\n',
      '.gitignore': 'build/\n.env\n',
      '.kizurc.json': CONFIG,
      'a.txt': 'alpha\n',
      'del.txt': 'delete me\n',
      'ren-old.txt': 'rename me\n',
      'run.sh': '#!/bin/sh\necho hi\n',
      'crlf.txt': 'one\r\ntwo\r\n',
      empty: '',
      secret: 'token\n',
    },
    commit: false,
  });
  chmodSync(sb.path('run.sh'), 0o755);
  symlinkSync('a.txt', sb.path('link'));
  sb.git('config', 'core.autocrlf', 'true');
  sb.git('add', '-A');
  sb.git('commit', '-q', '-m', 'initial');
  // A stash entry the snapshot code must leave alone.
  writeFileSync(sb.path('a.txt'), 'stashed change\n');
  sb.git('stash', '-q');
  // What git does not keep: the CRLF bytes in the working tree, a 0600 file.
  writeFileSync(sb.path('crlf.txt'), 'one\r\ntwo\r\n');
  chmodSync(sb.path('secret'), 0o600);
  sb.write({ 'notes.txt': 'untracked\n', '.env': 'KEY=1\n', 'build/out.log': 'log1\n', 'big.bin': 'x'.repeat(2000) });
  return sb;
}

/** Changes every kind of file richRepo made: modify, delete, rename, mode, symlink target, CRLF, empty, new, ignored. */
export function mutate(sb) {
  writeFileSync(sb.path('a.txt'), 'alpha changed\n');
  rmSync(sb.path('del.txt'));
  renameSync(sb.path('ren-old.txt'), sb.path('ren-new.txt'));
  chmodSync(sb.path('run.sh'), 0o644);
  chmodSync(sb.path('secret'), 0o644);
  rmSync(sb.path('link'));
  symlinkSync('crlf.txt', sb.path('link'));
  writeFileSync(sb.path('crlf.txt'), 'one\r\nTWO\r\n');
  writeFileSync(sb.path('empty'), 'now full\n');
  sb.write({ 'new/dir/file.txt': 'new\n' });
  rmSync(sb.path('notes.txt'));
  writeFileSync(sb.path('.env'), 'KEY=2\n');
  writeFileSync(sb.path('build/out.log'), 'log2\n');
  writeFileSync(sb.path('big.bin'), 'y'.repeat(3000));
}

/**
 * Runs ES module `code` in `cwd` (default the repo) with the rollback library imported: `snap`
 * (src/rollback/snapshots: snapshot.ts and restore.ts) and `log` (src/rollback/undo-log.ts);
 * asserts exit 0 and returns its stdout.
 */
export function snapshotLib(sb, code, cwd = sb.dir) {
  const prelude =
    `import * as snapshots from ${JSON.stringify(src('rollback/snapshots/snapshot.ts'))};\n` +
    `import * as restore from ${JSON.stringify(src('rollback/snapshots/restore.ts'))};\n` +
    `const snap = { ...snapshots, ...restore };\n` +
    `import * as log from ${JSON.stringify(src('rollback/undo-log.ts'))};\n`;
  return ok(sb.runModule(prelude + code, { cwd }), 'library call').stdout;
}
