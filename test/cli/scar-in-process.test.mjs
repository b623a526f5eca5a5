// kizuScar (test/helpers/scars.mjs) runs `git kizu scar` in the test process, so that the
// syntax tests can place hundreds of scars without a node process each: for every kind of
// outcome it prints, exits and writes exactly what the bin does for the same command line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sandbox } from '../helpers/sandbox.mjs';
import { kizuScar } from '../helpers/scars.mjs';

const CASES = [
  // [what, files, target, extra]
  ['placed', { 'a.py': 'x\n' }, 'a.py:1', []],
  ['placed in a subdirectory, kind and body', { 'dir/b.ts': 'run();\n' }, 'dir/b.ts:2', ['-k', 'reject', '-m', 'not this']],
  ['free with a body', { 'c.rs': 'fn main() {}\n' }, 'c.rs:1', ['--kind', 'free', '--message', 'add a test']],
  ['moved, with a warning', { 'i.html': '<script type="application/ld+json">\n{"a": 1,\n "b": 2}\n</script>\n' }, 'i.html:3', []],
  ['unknown type, with a warning', { 'notes.txt': 'hello\n' }, 'notes.txt:1', []],
  ['ignored file: scan will not see it', { '.gitignore': 'gen/\n', 'gen/x.py': 'x\n' }, 'gen/x.py:1', []],
  ['refused: no comment syntax', { 'data.json': '{\n  "a": 1\n}\n' }, 'data.json:2', []],
  ['refused: beyond the end', { 'a.py': 'x\n' }, 'a.py:9', []],
  ['refused: free without a body', { 'a.py': 'x\n' }, 'a.py:1', ['-k', 'free']],
  ['refused: no such file', { 'a.py': 'x\n' }, 'nope.py:1', []],
  ['config override', { '.kizurc.json': JSON.stringify({ scar: { syntax: { txt: '//' } } }), 'n.txt': 'x\n' }, 'n.txt:1', []],
  ['invalid config', { '.kizurc.json': JSON.stringify({ scar: { syntax: { bas: 'REMARK' } } }), 'a.bas': '1\n' }, 'a.bas:1', []],
];

test('kizuScar = the bin: placed, moved, warned, refused, configured; same exit code, stdout, stderr and file', async () => {
  for (const [what, files, target, extra] of CASES) {
    const viaBin = sandbox({ files });
    const here = sandbox({ files });
    const a = viaBin.kizu(['scar', target, ...extra]);
    const b = await kizuScar(here, target, extra);
    // The sandboxes differ in their paths only (an invalid config names its file).
    const norm = (r, sb) => ({ status: r.status, stdout: r.stdout.split(sb.base).join('<base>'), stderr: r.stderr.split(sb.base).join('<base>') });
    assert.deepEqual(norm(b, here), norm(a, viaBin), what);
    const rel = target.replace(/:\d+$/, '');
    if (rel in files) assert.equal(here.read(rel), viaBin.read(rel), what);
  }
});
