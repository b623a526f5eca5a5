// The lefthook adapter (src/install/managers/lefthook.ts) on many config shapes: the exact
// text after its one insertion, the insertion spliced back out gives the original bytes, the
// YAML reads as the same data plus the git-kizu command, `has`, and the shapes it prints
// instead of editing; detection of lefthook's config names in lefthook's order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { src } from '../helpers/sandbox.mjs';
import { withInsertion, withoutInsertion } from '../helpers/hook-managers.mjs';

const { lefthook, lefthookSnippet } = await import(src('install/managers/lefthook.ts'));
const { GUARD_COMMAND, GUARD_COMMENT } = await import(src('install/managers/guard-line.ts'));
const { yamlData } = await import(src('install/managers/yaml-edit.ts'));
const { KizuError } = await import(src('errors.ts'));

const FILE = '/repo/lefthook.yml';
const D = { id: 'lefthook', file: FILE, label: 'lefthook (lefthook.yml)' };
/** The guard as the folded scalar's lines. */
const FOLD = [
  'kizu_guard="$(git rev-parse --git-common-dir)/kizu/git-kizu";',
  'if [ -x "$kizu_guard" ]; then "$kizu_guard" hook pre-commit || exit $?;',
  'elif command -v git-kizu >/dev/null 2>&1 && command -v node >/dev/null 2>&1; then git-kizu hook pre-commit || exit $?;',
  'else echo "git-kizu: review-scar check skipped: git-kizu is not installed for this clone (npm install -g git-kizu, then: git kizu init)" >&2;',
  'fi',
];
const sp = (n) => ' '.repeat(n);
/** The command's lines with its key at column `col`, nesting by `step`. */
const cmd = (col, step = 2) => [`${sp(col)}# ${GUARD_COMMENT}`, `${sp(col)}git-kizu:`, `${sp(col + step)}run: >-`, ...FOLD.map((l) => sp(col + 2 * step) + l)];
/** The whole `pre-commit:` block at column 0. */
const BLOCK = ['pre-commit:', '  commands:', ...cmd(4)];
const lines = (ls, eol = '\n') => ls.join(eol) + eol;

/** Plain data of `text` with the git-kizu command added where the adapter adds it. */
function expectedData(text) {
  const data = yamlData(text ?? '') ?? {};
  data['pre-commit'] ??= {};
  const hook = data['pre-commit'];
  if ('jobs' in hook && !('commands' in hook)) (hook.jobs ??= []).push({ name: 'git-kizu', run: GUARD_COMMAND });
  else (hook.commands ??= {})['git-kizu'] = { run: GUARD_COMMAND };
  return data;
}

/** Plans `before`, checks every property of the insertion, and returns the text after it. */
function inserted(before) {
  const p = lefthook.plan(before, D);
  assert.equal(p.kind, 'insert', JSON.stringify(p));
  const after = withInsertion(before, p.insertion);
  assert.equal(withoutInsertion(after, p.insertion), before ?? '', 'splicing the insertion out gives the original');
  assert.deepEqual(yamlData(after), expectedData(before), 'same data plus the command');
  assert.equal(lefthook.has(after), true);
  if (before !== null) assert.equal(lefthook.has(before), false);
  assert.deepEqual(lefthook.plan(after, D), { kind: 'present' });
  return after;
}

const printed = (text, why, file = FILE) => {
  assert.deepEqual(lefthook.plan(text, { ...D, file }), { kind: 'print', snippet: lefthookSnippet(file), why });
};

test('absent, empty, comments only (with and without a final newline): the whole pre-commit block', () => {
  assert.equal(inserted(null), lines(BLOCK));
  assert.equal(inserted(''), lines(BLOCK));
  assert.equal(inserted('# hooks\n'), '# hooks\n' + lines(BLOCK));
  assert.equal(inserted('# hooks'), '# hooks\n' + BLOCK.join('\n'));
  assert.equal(lefthookSnippet(FILE), lines(BLOCK));
});

test('an existing pre-commit with commands and parallel: a new command after the last one, before the next hook', () => {
  const before = 'pre-commit:\n  parallel: true\n  commands:\n    lint:\n      glob: "*.js"\n      run: eslint {staged_files} # lint\n      # stage_fixed: true\n    # a note\npre-push:\n  commands:\n    test:\n      run: npm test\n';
  assert.equal(
    inserted(before),
    'pre-commit:\n  parallel: true\n  commands:\n    lint:\n      glob: "*.js"\n      run: eslint {staged_files} # lint\n      # stage_fixed: true\n' +
      lines(cmd(4)) +
      '    # a note\npre-push:\n  commands:\n    test:\n      run: npm test\n',
  );
});

test('lefthook 2 jobs: a new job at the end of the list, in the list\'s own dash style', () => {
  const job = (dash, inner) => [`${sp(dash)}# ${GUARD_COMMENT}`, `${sp(dash)}-${sp(inner - 1)}name: git-kizu`, `${sp(dash + inner)}run: >-`, ...FOLD.map((l) => sp(dash + inner + 2) + l)];
  assert.equal(inserted('pre-commit:\n  jobs:\n    - name: lint\n      run: eslint\n'), 'pre-commit:\n  jobs:\n    - name: lint\n      run: eslint\n' + lines(job(4, 2)));
  assert.equal(inserted('pre-commit:\n  jobs:\n  - run: eslint\n    glob: "*.js"\nx: 1\n'), 'pre-commit:\n  jobs:\n  - run: eslint\n    glob: "*.js"\n' + lines(job(2, 2)) + 'x: 1\n');
  assert.equal(inserted('pre-commit:\n  jobs:\n    -\n      run: eslint\n'), 'pre-commit:\n  jobs:\n    -\n      run: eslint\n' + lines(job(4, 2)));
  assert.equal(inserted('pre-commit:\n  jobs:\n  -   run: eslint\n'), 'pre-commit:\n  jobs:\n  -   run: eslint\n' + lines(job(2, 4)));
  // commands and jobs both present: the command goes to commands (lefthook runs both kinds)
  assert.equal(inserted('pre-commit:\n  jobs:\n    - run: a\n  commands:\n    b:\n      run: b\n'), 'pre-commit:\n  jobs:\n    - run: a\n  commands:\n    b:\n      run: b\n' + lines(cmd(4)));
});

test('other hooks only, a pre-commit without commands, empty values: the missing levels are added', () => {
  assert.equal(inserted('pre-push:\n  commands:\n    t:\n      run: npm test\n'), 'pre-push:\n  commands:\n    t:\n      run: npm test\n' + lines(BLOCK));
  assert.equal(inserted('pre-commit:\n  piped: true\n'), 'pre-commit:\n  piped: true\n  commands:\n' + lines(cmd(4)));
  assert.equal(inserted('pre-commit:\npre-push:\n  piped: true\n'), 'pre-commit:\n  commands:\n' + lines(cmd(4)) + 'pre-push:\n  piped: true\n');
  assert.equal(inserted('pre-commit: # empty for now\n'), 'pre-commit: # empty for now\n  commands:\n' + lines(cmd(4)));
  assert.equal(inserted('pre-commit:\n  commands:\n'), 'pre-commit:\n  commands:\n' + lines(cmd(4)));
  assert.equal(inserted('pre-commit:\n  jobs:'), 'pre-commit:\n  jobs:\n' + [`    # ${GUARD_COMMENT}`, '    - name: git-kizu', '      run: >-', ...FOLD.map((l) => sp(8) + l)].join('\n'));
  assert.equal(inserted('---\nmin_version: 1.5.0\n'), '---\nmin_version: 1.5.0\n' + lines(BLOCK));
  assert.equal(inserted('min_version: 1.5.0\n...\n'), 'min_version: 1.5.0\n' + lines(BLOCK) + '...\n');
});

test('CRLF line breaks, no final newline, odd indentation, a quoted key: the file\'s own style', () => {
  const crlf = 'pre-commit:\r\n  commands:\r\n    lint:\r\n      run: eslint\r\n';
  assert.equal(inserted(crlf), crlf + lines(cmd(4), '\r\n'));
  assert.equal(inserted('pre-commit:\n  commands:\n    lint:\n      run: eslint'), 'pre-commit:\n  commands:\n    lint:\n      run: eslint\n' + cmd(4).join('\n'));
  const odd = 'pre-push:\n   commands:\n      t:\n         run: npm test\n';
  assert.equal(inserted(odd), odd + lines(['pre-commit:', '   commands:', ...cmd(6, 3)]));
  const three = 'pre-commit:\n   commands:\n      lint:\n         run: eslint\n';
  assert.equal(inserted(three), three + lines(cmd(6, 3)));
  const bom = '\uFEFFpre-push:\n  piped: true\n';
  assert.equal(inserted(bom), bom + lines(BLOCK), 'a byte order mark takes no column');
  const quoted = '"pre-commit":\n  commands:\n    \'lint\':\n      run: "eslint"\n';
  assert.equal(inserted(quoted), quoted + lines(cmd(4)));
});

test('block scalars before the insertion keep their value (clip, keep chomping, trailing blank lines)', () => {
  const keep = 'pre-commit:\n  commands:\n    lint:\n      run: |+\n        eslint\n\n\npre-push:\n  piped: true\n';
  assert.equal(inserted(keep), 'pre-commit:\n  commands:\n    lint:\n      run: |+\n        eslint\n\n\n' + lines(cmd(4)) + 'pre-push:\n  piped: true\n');
  const clip = 'pre-commit:\n  commands:\n    lint:\n      run: |\n        eslint\n        prettier\n\n';
  assert.equal(inserted(clip), 'pre-commit:\n  commands:\n    lint:\n      run: |\n        eslint\n        prettier\n' + lines(cmd(4)) + '\n');
  inserted('pre-commit:\n  commands:\n    lint:\n      run: >\n        a\n        b\n# end\n');
  inserted('pre-commit:\n  commands:\n    lint:\n      run: "a\n        b"\n');
});

test('merge keys: a merged pre-commit stays merged; an explicit pre-commit next to a merge key is edited', () => {
  printed('base: &b\n  pre-commit:\n    commands:\n      a:\n        run: a\n<<: *b\n', 'lefthook.yml: the top level has a merge key (<<): a new `pre-commit:` would hide a merged one');
  const withPc = 'x: &b\n  piped: true\n<<: {min_version: 1.0.0}\npre-commit:\n  commands:\n    a:\n      run: a\n';
  assert.equal(inserted(withPc), withPc + lines(cmd(4)));
  printed('p: &p\n  piped: true\npre-commit:\n  <<: *p\n  commands:\n    a:\n      run: a\n', 'lefthook.yml: `pre-commit:` has a merge key (<<)');
});

test('shapes an insertion cannot extend safely are printed with the reason', () => {
  printed('{pre-commit: {commands: {}}}\n', 'lefthook.yml: the top level is written in flow style ({...})');
  printed('pre-commit: {commands: {a: {run: a}}}\n', 'lefthook.yml: `pre-commit:` is written in flow style ({...})');
  printed('pre-commit:\n  commands: {a: {run: a}}\n', 'lefthook.yml: `pre-commit: commands:` is written in flow style ({...})');
  printed('pre-commit:\n  jobs: [{run: a}]\n', 'lefthook.yml: `pre-commit: jobs:` is written in flow style ([...])');
  printed('pre-commit: &pc\n  commands:\n    a:\n      run: a\npre-push: *pc\n', 'lefthook.yml: `pre-commit:` carries an anchor (&pc): other places reuse it');
  printed('c: &c\n  a:\n    run: a\npre-commit:\n  commands: *c\n', 'lefthook.yml: `pre-commit: commands:` is an alias (*c): the lines it points to are shared');
  printed('pre-commit: lint\n', 'lefthook.yml: `pre-commit:` is not a mapping');
  printed('pre-commit: ~\n', 'lefthook.yml: `pre-commit:` is not a mapping');
  printed('- a\n- b\n', 'lefthook.yml: the top level is not a mapping');
  printed('pre-commit:\n  piped: true\npre-commit:\n  parallel: true\n', 'lefthook.yml: `pre-commit:` appears twice');
  printed('pre-commit:\n  commands:\n    a:\n      run: a\n  commands:\n    b:\n      run: b\n', 'lefthook.yml: `commands:` or `jobs:` appears twice under `pre-commit:`');
  printed('pre-push:\n  piped: true\n---\npre-commit:\n  piped: true\n', 'lefthook.yml: the file holds several YAML documents (lefthook reads only the first)');
  printed('? pre-commit\n:\n  piped: true\n', 'lefthook.yml: `pre-commit:` is written as an explicit or multi-line key');
  printed('pre-commit:\n  ? commands\n  : a:\n      run: a\n', 'lefthook.yml: `commands:` is written as an explicit or multi-line key');
  printed('# nothing\n...\n', 'lefthook.yml: the document ends with `...`');
  printed('pre-commit:\n  jobs:\n    - # lint\n      run: a\n', 'lefthook.yml: the first job under `pre-commit: jobs:` has a shape git-kizu does not edit');
});

test('an alias bomb does not throw: it is planned like any file (the data check gives up, the text is edited)', () => {
  const ten = (x) => `[${Array(10).fill(x).join(', ')}]`;
  const bomb = `a: &a ${ten('x')}\nb: &b ${ten('*a')}\nc: &c ${ten('*b')}\nd: &d ${ten('*c')}\n`;
  const p = lefthook.plan(bomb, D);
  assert.deepEqual(p, { kind: 'insert', insertion: { offset: bomb.length, text: lines(BLOCK) } });
  assert.equal(lefthook.has(bomb), false);
});

test('JSON and TOML configs: printed in their own format', () => {
  printed('{"pre-push": {}}\n', 'lefthook.json: git-kizu edits only YAML lefthook configs', '/repo/lefthook.json');
  printed('[pre-push]\n', '.lefthook.toml: git-kizu edits only YAML lefthook configs', '/repo/.lefthook.toml');
  assert.deepEqual(JSON.parse(lefthookSnippet('/r/lefthook.json')), { 'pre-commit': { commands: { 'git-kizu': { run: GUARD_COMMAND } } } });
  assert.equal(lefthookSnippet('/r/lefthook.toml'), `[pre-commit.commands.git-kizu]\n# ${GUARD_COMMENT}\nrun = '${GUARD_COMMAND}'\n`);
  assert.equal(lefthook.has(lefthookSnippet('/r/lefthook.toml')), true);
  assert.equal(lefthook.has(lefthookSnippet('/r/lefthook.json')), true);
});

test('invalid YAML: KizuError (exit 2) naming the file, line and column; nothing planned', () => {
  assert.throws(
    () => lefthook.plan('pre-commit:\n  commands:\n    a: [\n  b: 1\n', D),
    (e) => {
      assert.ok(e instanceof KizuError);
      assert.equal(e.exitCode, 2);
      assert.equal(e.message, '/repo/lefthook.yml:4:3: not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]');
      assert.equal(e.hint, 'fix lefthook.yml (its hook manager cannot read it either), then run git kizu init again');
      return true;
    },
  );
  assert.throws(() => lefthook.plan('a: 1\n\tb: 2\n', D), /^KizuError: \/repo\/lefthook\.yml:2:1: not valid YAML: /);
  assert.equal(lefthook.has('a: [\n'), false);
});

test('present: a git-kizu command or job, whatever it runs; also through a merge key', () => {
  for (const t of [
    'pre-commit:\n  commands:\n    git-kizu:\n      run: my own\n',
    'pre-commit:\n  jobs:\n    - name: git-kizu\n      run: x\n',
    'k: &k\n  commands:\n    git-kizu:\n      run: x\npre-commit:\n  <<: *k\n',
  ]) {
    assert.deepEqual(lefthook.plan(t, D), { kind: 'present' }, t);
    assert.equal(lefthook.has(t), true, t);
  }
  assert.equal(lefthook.has('pre-push:\n  commands:\n    git-kizu:\n      run: x\n'), false);
});

test('detect: lefthook\'s names in its order (.yml before .yaml before .json/.toml; lefthook, .lefthook, .config/lefthook); the -local file for a local-only install', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'kizu-lefthook-'));
  try {
    const at = (local = false) => lefthook.detect({ root, hooksPath: null, local });
    const rel = (d) => d && [path.relative(root, d.file), d.label, d.reinstall];
    assert.equal(at(), null);
    assert.equal(at(true), null);
    mkdirSync(path.join(root, '.config'));
    writeFileSync(path.join(root, 'lefthook.toml'), '');
    assert.deepEqual(rel(at()), ['lefthook.toml', 'lefthook (lefthook.toml)', 'npx lefthook install']);
    assert.deepEqual(rel(at(true)), ['lefthook-local.yml', 'lefthook (lefthook-local.yml)', 'npx lefthook install']);
    writeFileSync(path.join(root, '.config/lefthook.yaml'), '');
    assert.deepEqual(rel(at())[0], '.config/lefthook.yaml');
    assert.deepEqual(rel(at(true))[0], '.config/lefthook-local.yaml');
    writeFileSync(path.join(root, '.lefthook.yml'), '');
    assert.deepEqual(rel(at())[0], '.lefthook.yml');
    assert.deepEqual(rel(at(true))[0], '.lefthook-local.yml');
    writeFileSync(path.join(root, 'lefthook.yml'), '');
    assert.deepEqual(rel(at())[0], 'lefthook.yml');
    writeFileSync(path.join(root, '.lefthook-local.yml'), '');
    assert.deepEqual(rel(at(true))[0], '.lefthook-local.yml');
    for (const f of ['lefthook.toml', '.config/lefthook.yaml', '.lefthook.yml', 'lefthook.yml']) rmSync(path.join(root, f));
    assert.deepEqual(rel(at())[0], '.lefthook-local.yml', 'only a local config: lefthook runs it, so it is the one');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a pre-commit hook with hook-level only: or skip: is printed (the guard would be skipped too), and a guard there does not count', () => {
  for (const key of ['only:\n    - ref: main', 'skip:\n    - merge']) {
    const text = `pre-commit:\n  ${key}\n  commands:\n    lint:\n      run: echo lint\n`;
    const p = lefthook.plan(text, D);
    assert.equal(p.kind, 'print');
    assert.match(p.why, /^lefthook\.yml: its `pre-commit` hook has `(only|skip):`, which would skip the git-kizu guard too on some commits/);
    const withOurs = text.replace('    lint:', '    git-kizu:\n      run: x\n    lint:');
    assert.equal(lefthook.has(withOurs), false);
  }
  assert.equal(lefthook.plan('pre-commit:\n  skip: false\n  commands:\n    lint:\n      run: x\n', D).kind, 'insert');
});
