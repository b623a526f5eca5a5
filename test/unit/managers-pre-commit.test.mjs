// The pre-commit framework adapter (src/install/managers/pre-commit-framework.ts) on many
// .pre-commit-config.yaml shapes: the exact text after its one insertion (in the file's list
// style), the insertion spliced back out gives the original bytes, the YAML reads as the same
// data plus the `repo: local` hook, `has`, and the shapes it prints instead of editing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { src } from '../helpers/sandbox.mjs';
import { withInsertion, withoutInsertion } from '../helpers/hook-managers.mjs';

const { preCommitFramework: pc, PRE_COMMIT_SNIPPET, PRE_COMMIT_SNIPPET_STAGES, PRE_COMMIT_ENTRY } = await import(src('install/managers/pre-commit-framework.ts'));
const { GUARD_COMMAND, GUARD_COMMENT } = await import(src('install/managers/guard-line.ts'));
const { yamlData } = await import(src('install/managers/yaml-edit.ts'));
const { KizuError } = await import(src('errors.ts'));

const FILE = '/repo/.pre-commit-config.yaml';
const D = { id: 'pre-commit', file: FILE, label: 'pre-commit (.pre-commit-config.yaml)' };
const HOOK = { id: 'git-kizu', name: 'git-kizu review scars', entry: PRE_COMMIT_ENTRY, language: 'system', pass_filenames: false, always_run: true };
const FOLD = [
  `sh -c 'kizu_guard="$(git rev-parse --git-common-dir)/kizu/git-kizu";`,
  'if [ -x "$kizu_guard" ]; then "$kizu_guard" hook pre-commit || exit $?;',
  'elif command -v git-kizu >/dev/null 2>&1 && command -v node >/dev/null 2>&1; then git-kizu hook pre-commit || exit $?;',
  'else echo "git-kizu: review-scar check skipped: git-kizu is not installed for this clone (npm install -g git-kizu, then: git kizu init)" >&2;',
  "fi'",
];
const sp = (n) => ' '.repeat(n);
/** The list item: dash at `dash`, item keys `inner` after it, hooks dash `hd` deeper than `hooks:`, hook keys `hi` after that dash. */
const entry = (dash, inner = 2, hd = 2, hi = 2) => {
  const k = dash + inner + hd + hi;
  return [
    `${sp(dash)}# ${GUARD_COMMENT}`,
    `${sp(dash)}-${sp(inner - 1)}repo: local`,
    `${sp(dash + inner)}hooks:`,
    `${sp(dash + inner + hd)}-${sp(hi - 1)}id: git-kizu`,
    `${sp(k)}name: git-kizu review scars`,
    `${sp(k)}entry: >-`,
    ...FOLD.map((l) => sp(k + 2) + l),
    `${sp(k)}language: system`,
    `${sp(k)}pass_filenames: false`,
    `${sp(k)}always_run: true`,
  ];
};
const lines = (ls, eol = '\n') => ls.join(eol) + eol;

/** Plans `before`, checks every property of the insertion, and returns the text after it. */
function inserted(before) {
  const p = pc.plan(before, D);
  assert.equal(p.kind, 'insert', JSON.stringify(p));
  const after = withInsertion(before, p.insertion);
  assert.equal(withoutInsertion(after, p.insertion), before ?? '');
  const want = yamlData(before ?? '') ?? {};
  (want.repos ??= []).push({ repo: 'local', hooks: [HOOK] });
  assert.deepEqual(yamlData(after), want, 'same data plus the repo: local hook');
  assert.equal(pc.has(after), true);
  if (before !== null) assert.equal(pc.has(before), false);
  assert.deepEqual(pc.plan(after, D), { kind: 'present' });
  return after;
}

const printed = (text, why) => assert.deepEqual(pc.plan(text, D), { kind: 'print', snippet: PRE_COMMIT_SNIPPET, why });

test('the entry: sh -c with the guard as one argument, folded so that it reads back exactly', () => {
  assert.equal(PRE_COMMIT_ENTRY, `sh -c '${GUARD_COMMAND}'`);
  assert.equal(PRE_COMMIT_SNIPPET, lines(['repos:', ...entry(2)]));
});

test('absent, empty, comments only: a repos: list with the entry', () => {
  assert.equal(inserted(null), lines(['repos:', ...entry(2)]));
  assert.equal(inserted(''), lines(['repos:', ...entry(2)]));
  assert.equal(inserted('# hooks\n'), '# hooks\n' + lines(['repos:', ...entry(2)]));
  assert.equal(inserted('# hooks'), '# hooks\n' + ['repos:', ...entry(2)].join('\n'));
});

test("pre-commit's own sample style (`-   repo:` at column 0): the entry in the same style, after the last repo", () => {
  const before =
    'default_stages: [pre-commit]\nrepos:\n-   repo: https://github.com/pre-commit/pre-commit-hooks\n    rev: v4.6.0\n    hooks:\n    -   id: trailing-whitespace\n    -   id: check-yaml\n        args: [--unsafe]\n';
  assert.equal(inserted(before), before + lines(entry(0, 4, 0, 4)));
});

test('indented lists, keys after repos:, comments, CRLF, no final newline', () => {
  const indented = 'repos:\n  - repo: local\n    hooks:\n      - id: lint\n        name: lint\n        entry: eslint\n        language: system\n  # more repos here\nfail_fast: true\n';
  assert.equal(
    inserted(indented),
    'repos:\n  - repo: local\n    hooks:\n      - id: lint\n        name: lint\n        entry: eslint\n        language: system\n' + lines(entry(2)) + '  # more repos here\nfail_fast: true\n',
  );
  const crlf = 'repos:\r\n- repo: local\r\n  hooks:\r\n  - id: a\r\n    name: a\r\n    entry: a\r\n    language: system\r\n';
  assert.equal(inserted(crlf), crlf + lines(entry(0, 2, 0, 2), '\r\n'));
  const noNl = 'repos:\n  - repo: meta\n    hooks:\n      - id: check-useless-excludes';
  assert.equal(inserted(noNl), noNl + '\n' + entry(2).join('\n'));
  const flowHooks = 'repos:\n  - repo: meta\n    hooks: [{id: identity}]\n';
  assert.equal(inserted(flowHooks), flowHooks + lines(entry(2, 2, 2, 2)));
});

test('repos: missing or empty: added', () => {
  assert.equal(inserted('minimum_pre_commit_version: 3.0.0\n'), 'minimum_pre_commit_version: 3.0.0\n' + lines(['repos:', ...entry(2)]));
  assert.equal(inserted('repos:\nci:\n  skip: [a]\n'), 'repos:\n' + lines(entry(2)) + 'ci:\n  skip: [a]\n');
  assert.equal(inserted('repos: # none yet\n'), 'repos: # none yet\n' + lines(entry(2)));
});

test('shapes an insertion cannot extend safely, and generated files, are printed with the reason', () => {
  const f = '.pre-commit-config.yaml';
  printed('repos: []\n', `${f}: \`repos:\` is written in flow style ([...])`);
  printed('{repos: []}\n', `${f}: the top level is written in flow style ({...})`);
  printed('r: &r\n  - repo: meta\n    hooks: [{id: identity}]\nrepos: *r\n', `${f}: \`repos:\` is an alias (*r): the lines it points to are shared`);
  printed('repos: &r\n  - repo: meta\n    hooks: [{id: identity}]\n', `${f}: \`repos:\` carries an anchor (&r): other places reuse it`);
  printed('repos: !!seq\n  - repo: meta\n    hooks: [{id: identity}]\n', `${f}: \`repos:\` has an explicit tag (tag:yaml.org,2002:seq)`);
  printed('? repos\n: - repo: meta\n', `${f}: \`repos:\` is written as an explicit or multi-line key`);
  printed('repos: local\n', `${f}: \`repos:\` is not a list`);
  printed('repos:\n- repo: a\nrepos:\n- repo: b\n', `${f}: \`repos:\` appears twice`);
  printed('b: &b\n  repos: []\n<<: *b\n', `${f}: the top level has a merge key (<<): a new \`repos:\` would hide a merged one`);
  printed('repos:\n- a\n---\nrepos:\n- b\n', `${f}: the file holds several YAML documents (pre-commit reads one)`);
  printed('# This file is generated by tools/gen-hooks.py; DO NOT EDIT.\nrepos:\n- repo: meta\n  hooks:\n  - id: identity\n', `${f}: the file says it is generated ("This file is generated by tools/gen-hooks.py; DO NOT EDIT."): add the entry where it is generated from`);
  printed('repos:\n- # first\n  repo: meta\n', `${f}: the first item of \`repos:\` has a shape git-kizu does not edit`);
});

test('invalid YAML: KizuError (exit 2) naming the file, line and column', () => {
  assert.throws(
    () => pc.plan('repos:\n- repo: local\n  hooks: [\n', D),
    (e) => {
      assert.ok(e instanceof KizuError);
      assert.equal(e.exitCode, 2);
      assert.match(e.message, /^\/repo\/\.pre-commit-config\.yaml:4:1: not valid YAML: /);
      assert.equal(e.hint, 'fix .pre-commit-config.yaml (its hook manager cannot read it either), then run git kizu init again');
      return true;
    },
  );
});

test('present: a git-kizu hook in any repo (repo: local, or git-kizu\'s repository by URL)', () => {
  for (const t of [
    'repos:\n- repo: local\n  hooks:\n  - id: git-kizu\n    name: mine\n    entry: git kizu hook pre-commit\n    language: system\n',
    'repos:\n- repo: https://example.invalid/git-kizu\n  rev: v0.1.0\n  hooks:\n  - id: git-kizu\n',
    '# generated: the entry is already there\nrepos:\n- repo: x\n  rev: v1\n  hooks: [{id: git-kizu}]\n',
  ]) {
    assert.deepEqual(pc.plan(t, D), { kind: 'present' }, t);
    assert.equal(pc.has(t), true, t);
  }
  assert.equal(pc.has('repos:\n- repo: local\n  hooks:\n  - id: lint\n'), false);
  assert.equal(pc.has('repos: [\n'), false);
});

test('detect: .pre-commit-config.yaml at the top of the working tree, the same for a local-only install', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'kizu-pre-commit-'));
  try {
    assert.equal(pc.detect({ root, hooksPath: null, local: false }), null);
    writeFileSync(path.join(root, '.pre-commit-config.yml'), 'repos: []\n');
    assert.equal(pc.detect({ root, hooksPath: null, local: false }), null, 'pre-commit reads no other name');
    writeFileSync(path.join(root, '.pre-commit-config.yaml'), 'repos: []\n');
    const want = { id: 'pre-commit', file: path.join(root, '.pre-commit-config.yaml'), label: 'pre-commit (.pre-commit-config.yaml)', reinstall: 'pre-commit install',
      afterEdit: 'next: git add .pre-commit-config.yaml (the pre-commit framework runs no hook while its configuration has unstaged changes)' };
    assert.deepEqual(pc.detect({ root, hooksPath: null, local: false }), want);
    assert.deepEqual(pc.detect({ root, hooksPath: null, local: true }), want);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('default_stages without the commit stage: printed with the reason, and a git-kizu hook there does not count (it would not run on git commit)', () => {
  const why =
    '.pre-commit-config.yaml: `default_stages` leaves out the commit stage, so the guard would not run on git commit: give the git-kizu hook `stages: [pre-commit]` (`[commit]` before pre-commit 3.2)';
  const text = 'default_stages: [push]\nrepos:\n- repo: local\n  hooks:\n  - id: u\n    name: u\n    entry: "true"\n    language: system\n';
  assert.deepEqual(pc.plan(text, D), { kind: 'print', snippet: PRE_COMMIT_SNIPPET_STAGES, why });
  assert.equal(PRE_COMMIT_SNIPPET_STAGES, PRE_COMMIT_SNIPPET.replace(/\n$/, '\n        stages: [pre-commit]\n'));
  const withOurs = text + '- repo: local\n  hooks:\n  - id: git-kizu\n    name: x\n    entry: x\n    language: system\n';
  assert.equal(pc.has(withOurs), false);
  assert.equal(pc.has(withOurs + '    stages: [pre-commit]\n'), true);
  assert.equal(pc.has(withOurs + '    stages: [commit]\n'), true);
  assert.equal(pc.plan(withOurs + '    stages: [pre-commit]\n', D).kind, 'present');
  // Our hook's own stages without the commit stage: the same.
  const pushOnly = 'repos:\n- repo: local\n  hooks:\n  - id: git-kizu\n    name: x\n    entry: x\n    language: system\n    stages: [push]\n';
  assert.equal(pc.has(pushOnly), false);
  assert.match(pc.plan(pushOnly, D).why, /the git-kizu hook's `stages:` leaves out the commit stage/);
  assert.equal(pc.plan('default_stages: [pre-commit, push]\nrepos: []\n', D).why.includes('default_stages'), false);
});
