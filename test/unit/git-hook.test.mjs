// install/git-hook.ts: when a pre-commit.kizu-chained file is a leftover init may delete.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linkSync, mkdtempSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { src } from '../helpers/sandbox.mjs';

const { inspectPreCommit, staleChained } = await import(src('install/git-hook.ts'));

test('staleChained: never while both names are one file (another init is mid-chain), true for a separate copy', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'kizu-hooks-'));
  const hook = path.join(dir, 'pre-commit');
  writeFileSync(hook, '#!/bin/sh\necho mine\n', { mode: 0o755 });
  // Another init linked the user's hook to the chained name and has not yet put ours in place.
  linkSync(hook, path.join(dir, 'pre-commit.kizu-chained'));
  assert.equal(staleChained(inspectPreCommit(dir)), false);

  const dir2 = mkdtempSync(path.join(tmpdir(), 'kizu-hooks-'));
  writeFileSync(path.join(dir2, 'pre-commit'), '#!/bin/sh\necho mine\n', { mode: 0o755 });
  copyFileSync(path.join(dir2, 'pre-commit'), path.join(dir2, 'pre-commit.kizu-chained'));
  assert.equal(staleChained(inspectPreCommit(dir2)), true);
});
