// The pre-commit guard's text edits (src/install/managers/): each is one insertion that
// removeInsertion takes out again byte for byte; when a file cannot be edited safely the plan
// is a print; which manager wins when several are detected; recognising generated hooks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync, existsSync, symlinkSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { src } from '../helpers/sandbox.mjs';

const { GUARD_COMMAND, GUARD_COMMENT } = await import(src('install/managers/guard-line.ts'));
const { planShellAppend, guardLines } = await import(src('install/managers/shell-script.ts'));
const { simpleGitHooks, SGH_SUFFIX } = await import(src('install/managers/simple-git-hooks.ts'));
const { applyInsertion, removeInsertion, generatedBy, chooseManager } = await import(src('install/managers/index.ts'));

const LINES = `# ${GUARD_COMMENT}\n${GUARD_COMMAND}\n`;
const apply = (text, plan) => text.slice(0, plan.insertion.offset) + plan.insertion.text + text.slice(plan.insertion.offset);

test('shell scripts: appended at the end; a missing final newline is added first; LF lines even in a CRLF file (sh would read `fi\\r`); exit/exec last and other interpreters are printed', () => {
  assert.deepEqual(planShellAppend('npm test\n', 'X', 'f'), { kind: 'insert', insertion: { offset: 9, text: LINES } });
  assert.deepEqual(planShellAppend('npm test', 'X', 'f'), { kind: 'insert', insertion: { offset: 8, text: '\n' + LINES } });
  assert.deepEqual(planShellAppend('a\r\nb', 'X', 'f'), { kind: 'insert', insertion: { offset: 4, text: `\n# ${GUARD_COMMENT}\n${GUARD_COMMAND}\n` } });
  assert.deepEqual(planShellAppend('a\r\nb\r\n', 'X', 'f'), { kind: 'insert', insertion: { offset: 6, text: LINES } });
  assert.deepEqual(planShellAppend(null, 'X', 'f'), { kind: 'insert', insertion: { offset: 0, text: 'X' } });
  assert.deepEqual(planShellAppend('a\n' + LINES, 'X', 'f'), { kind: 'present' });
  assert.deepEqual(planShellAppend('lint\nexit 0\n# done\n', 'X', 'f'), {
    kind: 'print',
    snippet: guardLines(),
    why: 'f ends with `exit 0`, so a line added after it would never run; add these lines before it',
  });
  assert.equal(planShellAppend('exec lint-staged\n', 'X', 'f').kind, 'print');
  assert.deepEqual(planShellAppend('#!/usr/bin/env node\nrun()\n', 'X', 'f'), {
    kind: 'print',
    snippet: guardLines(),
    why: 'f is not a shell script (#!/usr/bin/env node), so git-kizu does not edit it; run this command from it',
  });
  assert.equal(planShellAppend('#!/bin/bash\nx\n', 'X', 'f').kind, 'insert');
});

test('simple-git-hooks: `&& { guard; }` inside the JSON string; new keys in the file\'s own layout; unsafe commands and other shapes printed', () => {
  const d = { id: 'simple-git-hooks', file: '/r/package.json', label: 'x' };
  const esc = JSON.stringify(SGH_SUFFIX).slice(1, -1);
  const pkg = '{\n  "simple-git-hooks": {\n    "pre-commit": "lint"\n  }\n}\n';
  const p1 = simpleGitHooks.plan(pkg, d);
  assert.deepEqual(p1, { kind: 'insert', insertion: { offset: pkg.indexOf('lint"') + 4, text: esc } });
  assert.equal(JSON.parse(apply(pkg, p1))['simple-git-hooks']['pre-commit'], 'lint' + SGH_SUFFIX);
  assert.deepEqual(simpleGitHooks.plan(apply(pkg, p1), d), { kind: 'present' });

  const other = '{\n  "simple-git-hooks": {\n    "pre-push": "t"\n  }\n}\n';
  const p2 = simpleGitHooks.plan(other, d);
  assert.equal(apply(other, p2), `{\n  "simple-git-hooks": {\n    "pre-push": "t",\n    "pre-commit": ${JSON.stringify(GUARD_COMMAND)}\n  }\n}\n`);
  const flat = '{"name":"x","devDependencies":{"simple-git-hooks":"2"}}';
  assert.equal(apply(flat, simpleGitHooks.plan(flat, d)), `{"name":"x","devDependencies":{"simple-git-hooks":"2"}, "simple-git-hooks": { "pre-commit": ${JSON.stringify(GUARD_COMMAND)} }}`);
  const empty = '{"simple-git-hooks": {}}';
  assert.equal(apply(empty, simpleGitHooks.plan(empty, d)), `{"simple-git-hooks": { "pre-commit": ${JSON.stringify(GUARD_COMMAND)} }}`);

  assert.equal(simpleGitHooks.plan('{"simple-git-hooks": {"pre-commit": "lint || exit 1"}}', d).kind, 'insert');
  for (const cmd of ['lint;', 'lint &', 'a # b', 'a\\nb', '', 'exit 0', 'lint && exit 0', 'exec lint-staged', 'exit 1 || lint']) {
    assert.equal(simpleGitHooks.plan(`{"simple-git-hooks": {"pre-commit": "${cmd}"}}`, d).kind, 'print', cmd);
  }
  assert.equal(simpleGitHooks.plan('{"simple-git-hooks": {"pre-commit": 1}}', d).kind, 'print');
  assert.equal(simpleGitHooks.plan('{"simple-git-hooks": "./cfg.json"}', d).kind, 'print');
  assert.equal(simpleGitHooks.plan('x', { ...d, file: '/r/.simple-git-hooks.js' }).kind, 'print');
  assert.throws(() => simpleGitHooks.plan('{"a": 1,}', d), /not valid JSON \(PropertyNameExpected at offset 8\)/);
  assert.equal(simpleGitHooks.generatedHook(apply(pkg, p1), d).endsWith('\nfi\nlint' + SGH_SUFFIX), true);
  assert.equal(simpleGitHooks.generatedHook(other, d), null);
});

test('removeInsertion: at its offset, else its single occurrence; ambiguous, missing and symlinked files left alone; a created file holding only it is deleted', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'kizu-unit-'));
  const f = path.join(dir, 'pre-commit');
  writeFileSync(f, 'a\n', { mode: 0o750 });
  const ins = { offset: 2, text: 'GUARD\n' };
  applyInsertion(f, 'a\n', 0o750, ins);
  assert.equal(readFileSync(f, 'utf8'), 'a\nGUARD\n');
  assert.equal(statSync(f).mode & 0o777, 0o750, 'mode kept');
  writeFileSync(f, 'zz\na\nGUARD\nb\n'); // edited above and below since
  assert.equal(removeInsertion(f, ins, false).kind, 'removed');
  assert.equal(readFileSync(f, 'utf8'), 'zz\na\nb\n');
  assert.deepEqual(removeInsertion(f, ins, false), { kind: 'not-found' });
  writeFileSync(f, 'GUARD\nGUARD\nx');
  assert.deepEqual(removeInsertion(f, { offset: 9, text: 'GUARD\n' }, false), { kind: 'ambiguous' });
  assert.equal(readFileSync(f, 'utf8'), 'GUARD\nGUARD\nx');

  const g = path.join(dir, 'created');
  applyInsertion(g, null, null, { offset: 0, text: 'ALL\n' }, 0o755);
  assert.equal(statSync(g).mode & 0o777, 0o755);
  assert.equal(removeInsertion(g, { offset: 0, text: 'ALL\n' }, true).kind, 'deleted');
  assert.ok(!existsSync(g));
  assert.deepEqual(removeInsertion(g, { offset: 0, text: 'ALL\n' }, true), { kind: 'absent' });

  const target = path.join(dir, 'target');
  writeFileSync(target, 'a\nGUARD\n');
  symlinkSync(target, path.join(dir, 'link'));
  assert.deepEqual(removeInsertion(path.join(dir, 'link'), ins, false), { kind: 'link' });
  assert.equal(readFileSync(target, 'utf8'), 'a\nGUARD\n');
});

test('generated hooks are recognised; the manager whose hook runs wins, then the one owning core.hooksPath, then list order', () => {
  assert.equal(generatedBy('#!/usr/bin/env sh\n. "$(dirname "$0")/h"'), 'husky');
  assert.equal(generatedBy('#!/bin/sh\nif [ "$LEFTHOOK" = "0" ]; then\n  exit 0\nfi\n'), 'lefthook');
  assert.equal(generatedBy('#!/usr/bin/env bash\n# File generated by pre-commit: https://pre-commit.com\n'), 'pre-commit');
  assert.equal(generatedBy('#!/bin/sh\nif [ "$SKIP_SIMPLE_GIT_HOOKS" = "1" ]; then\n'), 'simple-git-hooks');
  assert.equal(generatedBy('#!/bin/sh\nnpm test\n'), null);

  const mk = (id, extra = {}) => ({ id, detect: () => ({ id, file: `/r/${id}`, label: id, ...extra }), plan: () => ({ kind: 'present' }), has: () => true });
  const ms = [mk('husky'), mk('simple-git-hooks'), mk('hooks-path', { ownsHooksPath: true }), { ...mk('lefthook'), detect: () => { throw new Error('x'); } }];
  const i = { root: '/r', hooksPath: null, local: false };
  assert.equal(chooseManager(i, '#!/bin/sh\n"$SKIP_SIMPLE_GIT_HOOKS"', ms).detected.id, 'simple-git-hooks');
  assert.equal(chooseManager(i, null, ms).detected.id, 'hooks-path');
  assert.equal(chooseManager(i, null, ms.slice(0, 2)).detected.id, 'husky');
  assert.equal(chooseManager(i, null, ms.slice(3)), null);
});
