// hunks/tap/reject/untap through the bin print, exit and write exactly what the CLI's main
// (src/main.ts, the commander program) does for the same command line when called in-process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sandbox, src } from '../helpers/sandbox.mjs';

/** Runs the CLI's main (commander) in-process in a child node. */
function inProcess(sb, args, cwd = sb.dir) {
  const code = `const { main } = await import(${JSON.stringify(src('main.ts'))}); await main([process.execPath, 'git-kizu', ...${JSON.stringify(args)}]);`;
  return sb.runModule(code, { cwd });
}

/** Runs `git kizu <args>` through the bin and in-process; asserts the same status, stdout and stderr; returns the bin's run. */
function same(sb, args, cwd = sb.dir) {
  const a = sb.kizu(args, { cwd });
  const b = inProcess(sb, args, cwd);
  const r = (x) => ({ status: x.status, stdout: x.stdout, stderr: x.stderr });
  assert.deepEqual(r(a), r(b), `git kizu ${args.join(' ')}`);
  return a;
}

test('bin = in-process CLI: hunks (text, --json, paths, errors) and tap/reject/untap (ids, path:line, --all, errors)', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n', 'sub/b.txt': 'x\n' } });
  sb.write({ 'a.txt': 'a\nB\nc\nd\ne\nf\ng\nh\ni\nJ\n', 'sub/b.txt': 'y\n', 'new.txt': 'n' });
  const hs = JSON.parse(same(sb, ['hunks', '--json']).stdout);
  assert.equal(hs.length, 4);
  same(sb, ['hunks']);
  same(sb, ['hunks', 'b.txt', '--json'], sb.path('sub'));
  same(sb, ['hunks', 'nope.txt']);
  same(sb, ['hunks', '../..']);
  // Marking: compare the outputs, then undo the write so both runs start from the same state.
  const marks = () => sb.git('rev-parse', '-q', '--verify', 'refs/kizu/marks', { allowFail: true }).trim();
  const mark = (args, cwd) => {
    const before = marks();
    const a = sb.kizu(args, { cwd });
    const afterFast = marks();
    if (before) sb.git('update-ref', 'refs/kizu/marks', before);
    else if (afterFast) sb.git('update-ref', '-d', 'refs/kizu/marks');
    const b = inProcess(sb, args, cwd);
    assert.deepEqual({ status: a.status, stdout: a.stdout, stderr: a.stderr }, { status: b.status, stdout: b.stdout, stderr: b.stderr }, args.join(' '));
    assert.equal(afterFast === before, marks() === before, `${args.join(' ')} writes in both or in neither`);
    return a;
  };
  mark(['tap', hs[0].shortId, 'a.txt:10']);
  mark(['reject', 'b.txt:1'], sb.path('sub'));
  mark(['untap', hs[0].shortId]);
  mark(['tap', '--all']);
  mark(['tap', 'ffff']);
  mark(['reject', 'a.txt']);
  mark(['tap']);
  mark(['untap', '--all', hs[1].shortId]);
  mark(['tap', 'zz']);
  // Forms not compared above (--help, `--`) work through the bin.
  const h = sb.kizu(['hunks', '--help']);
  assert.equal(h.status, 0);
  assert.match(h.stdout, /^Usage: git kizu hunks \[options\] \[paths\.\.\.\]/);
  const t = sb.kizu(['tap', '--', hs[2].shortId]);
  assert.equal(t.stderr, '');
  assert.equal(t.stdout, `tapped ${hs[2].shortId} ${hs[2].range}\n`);
});
