// The error classes (src/errors.ts and its subclasses): instanceof tells them apart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { src } from '../helpers/sandbox.mjs';

test('instanceof: a plain KizuError is none of its subclasses; PayloadError is no KizuError', async () => {
  // Subclasses: a plain KizuError is not one of them (it once was, through an inherited brand
  // check, so patch apply took any KizuError for a patch mismatch).
  const { PatchMismatch } = await import(src('rollback/journal/patch-apply.ts'));
  const { PatchError } = await import(src('rollback/journal/patch-parse.ts'));
  const { KizuError } = await import(src('errors.ts'));
  const { PayloadError } = await import(src('agents/claude/payload.ts'));
  const e = new KizuError('boom', { hint: 'h', exitCode: 1 });
  assert.deepEqual([e.message, e.hint, e.exitCode, e.name], ['boom', 'h', 1, 'KizuError']);
  assert.equal(new Error('plain') instanceof KizuError, false);
  assert.equal({ name: 'KizuError' } instanceof KizuError, false);
  assert.equal(new KizuError('k') instanceof PatchMismatch, false);
  assert.equal(new KizuError('k') instanceof PatchError, false);
  assert.equal(new PatchError('k') instanceof PatchMismatch, false);
  assert.equal(new PatchMismatch('k') instanceof PatchMismatch, true);
  assert.equal(new PatchMismatch('k') instanceof KizuError, true);
  assert.equal(new PayloadError('bad').message, 'bad');
  assert.equal(new KizuError('k') instanceof PayloadError, false);
  assert.equal(new PayloadError('k') instanceof KizuError, false);
});
