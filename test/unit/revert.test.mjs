// The write plans behind `git kizu revert -m` (src/scars/insert.ts scarIntoBuffer,
// src/hunks/revert.ts planRevert/commitPlan): computed without writing, checked again right
// before writing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { sandbox, src } from '../helpers/sandbox.mjs';
import { expectRun } from '../helpers/expect.mjs';
import { bytes, countedLines, text } from '../helpers/files.mjs';

const lines30 = countedLines(30);

test('scarIntoBuffer (factored out of writeScar) computes exactly what scar writes, without writing', async () => {
  const { scarIntoBuffer } = await import(src('scars/insert.ts'));
  const content = Buffer.from('\ufeffline 1\r\n  line 2\r\nlast');
  const sb = sandbox({ files: { 'x.rb': content } });
  const e = await scarIntoBuffer({ rel: 'x.rb', buf: content, line: 2, kind: 'reject', body: 'no', syntaxOverrides: {} });
  assert.deepEqual(bytes(sb, 'x.rb'), content);
  expectRun(sb, ['scar', 'x.rb:2', '-k', 'reject', '-m', 'no'], { status: 0, stdout: 'scarred x.rb:2  # @kizu[reject]: no\n' });
  assert.deepEqual(e.buf, bytes(sb, 'x.rb'));
  assert.deepEqual({ scarLine: e.scarLine, text: e.text, noop: e.noop }, { scarLine: 2, text: '  # @kizu[reject]: no', noop: false });
  const again = await scarIntoBuffer({ rel: 'x.rb', buf: e.buf, line: 3, kind: 'reject', body: 'no', syntaxOverrides: {} });
  assert.deepEqual({ noop: again.noop, scarLine: again.scarLine, same: again.buf.equals(e.buf) }, { noop: true, scarLine: 2, same: true });
  await assert.rejects(scarIntoBuffer({ rel: 'd.json', buf: Buffer.from('{}\n'), line: 1, kind: 'ask', body: 'x', syntaxOverrides: {} }), {
    message: 'd.json: this file type has no comment syntax, so a scar cannot be written into it',
  });
});

test('commitPlan re-verifies right before writing: a file changed after planning is not written (exit 1)', async () => {
  const { listHunks } = await import(src('hunks/listing.ts'));
  const { planRevert, commitPlan } = await import(src('hunks/revert.ts'));
  const sb = sandbox({ files: { 'a.txt': text(lines30) } });
  const mod = lines30.slice();
  mod[4] = 'L5';
  sb.write({ 'a.txt': text(mod) });
  const root = sb.git('rev-parse', '--show-toplevel').trim();
  const { baseline, hunks: hs } = await listHunks(root);
  const plan = await planRevert(root, hs[0], baseline.oid);
  assert.equal(plan.after.content.toString(), text(lines30));
  writeFileSync(sb.path('a.txt'), text(mod) + 'appended\n');
  await assert.rejects(commitPlan(plan), (e) => e.exitCode === 1 && e.message === `a.txt changed since hunk ${hs[0].id.slice(0, 8)} was listed; nothing was reverted`);
  assert.equal(sb.read('a.txt'), text(mod) + 'appended\n');
});
