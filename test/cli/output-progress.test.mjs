// Progress on stderr (src/progress.ts, cli-progress) for a snapshot (files git has hashed) and
// a rollback (files written): on a terminal (script(1)) once the work has run for the delay
// (KIZU_PROGRESS_DELAY_MS=0 here, so no test depends on timing); never through a pipe or
// with --json.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sandbox } from '../helpers/sandbox.mjs';
import { kizuOk } from '../helpers/expect.mjs';
import { scriptRun } from '../helpers/terminal.mjs';

const NOW = { KIZU_PROGRESS_DELAY_MS: '0' };
/** The last state the bar drew (after its last carriage-return-free redraw). */
const lastBar = (out, title) => {
  const draws = out.split(/\x1b\[1G/).filter((d) => d.startsWith(title));
  return draws.length ? draws[draws.length - 1].replace(/\x1b\[0K.*$/s, '') : null;
};

function repo(n) {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  const files = {};
  for (let k = 0; k < n; k++) files[`new/f${k}.txt`] = `${k}\n`;
  sb.write(files);
  return sb;
}

test('progress: snapshot shows the files git hashed on a terminal; nothing through a pipe or with --json', () => {
  const sb = repo(40);
  const r = scriptRun(sb, ['snapshot'], { env: NOW });
  assert.equal(r.status, 0);
  assert.equal(lastBar(r.out, 'snapshot: hashing files'), 'snapshot: hashing files ██████████████████████████████ 100% (40/40)');
  assert.match(r.out, /\r\nsnapshot \d{8}-\d{6}-\d{3}-[0-9a-f]{8}: 41 files \(40 read again\)\r\n$/);
  sb.write({ 'new/f0.txt': 'changed\n' });
  const piped = sb.kizu(['snapshot'], { env: NOW });
  assert.equal(piped.status, 0);
  assert.equal(piped.stderr, '');
  sb.write({ 'new/f1.txt': 'changed\n' });
  const json = scriptRun(sb, ['snapshot', '--json'], { env: NOW });
  assert.equal(json.status, 0);
  assert.ok(!json.out.includes('hashing files'), json.out);
  assert.equal(JSON.parse(json.out).hashed, 1);
});

test('progress: rollback snapshot shows the files read and written on a terminal; nothing through a pipe or under the pager', () => {
  const sb = repo(30);
  const snap = JSON.parse(kizuOk(sb, ['snapshot', '--json'])).name;
  sb.run('rm', ['-r', 'new']);
  const r = scriptRun(sb, ['rollback', 'snapshot', snap, '--yes'], { env: NOW });
  assert.equal(r.status, 0);
  assert.equal(lastBar(r.out, 'rollback: writing files'), 'rollback: writing files ██████████████████████████████ 100% (30/30)');
  assert.match(r.out, /\r\nrolled back 30 paths to snapshot /);
  const u = scriptRun(sb, ['undo', '--yes'], { env: NOW });
  assert.equal(u.status, 0);
  assert.equal(lastBar(u.out, 'undo: writing files'), 'undo: writing files ██████████████████████████████ 100% (30/30)');
  // A --dry-run on a terminal goes through the pager: no progress is drawn over it (here the
  // working tree is read again, which reports progress without a pager).
  const files = {};
  for (let k = 0; k < 30; k++) files[`new/f${k}.txt`] = `changed ${k}\n`;
  sb.write(files);
  const bare = scriptRun(sb, ['--no-pager', 'rollback', 'snapshot', snap, '--dry-run'], { env: NOW });
  assert.equal(lastBar(bare.out, 'rollback: reading the working tree'), 'rollback: reading the working tree ██████████████████████████████ 100% (30/30)');
  sb.write(Object.fromEntries(Object.keys(files).map((f) => [f, 'again\n'])));
  const paged = scriptRun(sb, ['rollback', 'snapshot', snap, '--dry-run'], { env: { ...NOW, GIT_PAGER: 'cat >/dev/null' } });
  assert.deepEqual([paged.status, paged.out], [0, '']);
  sb.run('rm', ['-r', 'new']);
  const piped = sb.kizu(['rollback', 'snapshot', snap, '--yes'], { env: NOW });
  assert.equal(piped.status, 0);
  assert.equal(piped.stderr, '');
  assert.match(piped.stdout, /\nrolled back 30 paths to snapshot /);
});
