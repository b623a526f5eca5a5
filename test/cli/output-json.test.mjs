// `--json` on every listing: each command that lists things prints JSON that parses, with
// the shape its doc comment and the README give; `baseline` / `baseline show --json` exactly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sandbox } from '../helpers/sandbox.mjs';
import { kizuOk } from '../helpers/expect.mjs';

test('baseline --json and baseline show --json: {rev, oid, fromRef}, for HEAD and for refs/kizu/baseline', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  const head = sb.git('rev-parse', 'HEAD').trim();
  for (const argv of [['baseline', '--json'], ['baseline', 'show', '--json'], ['baseline', '--json', 'show']]) {
    assert.equal(kizuOk(sb, argv), `{"rev":"HEAD","oid":"${head}","fromRef":false}\n`, argv.join(' '));
  }
  sb.write({ 'a.txt': 'b\n' });
  sb.git('commit', '-qam', 'two');
  kizuOk(sb, ['baseline', 'set', head]);
  assert.equal(kizuOk(sb, ['baseline', 'show', '--json']), `{"rev":"refs/kizu/baseline","oid":"${head}","fromRef":true}\n`);
  assert.equal(kizuOk(sb, ['baseline', 'show']), `baseline: refs/kizu/baseline ${head}\n`);
});

test('--json on every listing parses as the documented shape', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  sb.write({ 'a.txt': 'a\nb\n', 'b.py': '# @kizu[ask]: why\n' });
  const snap = JSON.parse(kizuOk(sb, ['snapshot', '--json'])).name;
  kizuOk(sb, ['queue', 'add', 'check this']);
  const [h] = JSON.parse(kizuOk(sb, ['hunks', '--json']));
  kizuOk(sb, ['tap', h.shortId]);
  const json = (argv, status = 0) => {
    const r = sb.kizu([...argv, '--json']);
    assert.equal(r.status, status, `${argv.join(' ')}: ${r.stderr}`);
    return JSON.parse(r.stdout);
  };
  assert.deepEqual(Object.keys(json(['hunks'])[0]), ['id', 'shortId', 'path', 'kind', 'range', 'oldStart', 'oldCount', 'newStart', 'newCount', 'added', 'removed', 'mark']);
  assert.deepEqual(json(['scan'], 1).map((x) => Object.keys(x)), [['path', 'line', 'kind', 'body'], ['path', 'line', 'kind', 'body', 'queue']]);
  assert.deepEqual(Object.keys(json(['status'], 1)), ['baseline', 'hunks', 'scars', 'queue', 'hooks', 'storage', 'config', 'hidden', 'integrity', 'unscanned', 'lost', 'unchecked']);
  assert.deepEqual(json(['journal']), []);
  assert.deepEqual(Object.keys(json(['snapshot', 'list'])[0]), ['id', 'ref', 'name', 'time', 'kind', 'message', 'files', 'skipped', 'head', 'worktree', 'by']);
  assert.deepEqual(Object.keys(json(['snapshot', 'show', snap])), ['snapshot', 'changes']);
  assert.deepEqual(json(['task', 'list']), []);
  assert.deepEqual(Object.keys(json(['queue', 'list'])[0]), ['id', 'checked', 'kind', 'path', 'line', 'text', 'queueLine']);
  assert.deepEqual(Object.keys(json(['marks', 'list'])[h.id]), ['state', 'time', 'by', 'path', 'range']);
  assert.deepEqual(Object.keys(json(['baseline'])), ['rev', 'oid', 'fromRef']);
});
