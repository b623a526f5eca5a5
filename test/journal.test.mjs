// The edit journal and `git kizu rollback patch` through the real bin in real temp repos:
// `git kizu hook journal` fed the PostToolUse payloads Claude Code 2.1.332 sends (Edit with
// structuredPatch and originalFile, Write create and update, NotebookEdit), `git kizu journal`
// output, and rolling entries back: unchanged files, later non-overlapping edits (context
// match), three-way merges, overlapping edits (refusal naming them, --cascade), created files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { sandbox, hook, spawn, BIN } from './helpers.mjs';

const TEN = Array.from({ length: 10 }, (_, k) => `l${k + 1}`).join('\n') + '\n';
const blob = (sb, s) => sb.git('hash-object', '--stdin', { input: s }).trim();
const tip = (sb) => sb.git('rev-parse', '-q', '--verify', 'refs/kizu/journal', { allowFail: true }).trim();
const noMs = (t) => t.replace(/\.\d{3}Z$/, 'Z');

function entries(sb, args = []) {
  const r = sb.kizu(['journal', '--json', ...args]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  return JSON.parse(r.stdout);
}

function quiet(r, what = 'hook') {
  assert.deepEqual({ status: r.status, stdout: r.stdout, stderr: r.stderr }, { status: 0, stdout: '', stderr: '' }, what);
}

function expectRun(sb, args, { status, stdout = '', stderr = '' }) {
  const r = sb.kizu(args);
  assert.deepEqual({ status: r.status, stdout: r.stdout, stderr: r.stderr }, { status, stdout, stderr }, `git kizu ${args.join(' ')}`);
  return r;
}

/** The jsdiff-style structuredPatch Claude Code sends (one hunk, 3 lines of context). */
function structuredPatch(a, b) {
  const x = a.split('\n');
  const y = b.split('\n');
  let p = 0;
  while (p < x.length && p < y.length && x[p] === y[p]) p++;
  let s = 0;
  while (s < x.length - p && s < y.length - p && x[x.length - 1 - s] === y[y.length - 1 - s]) s++;
  const from = Math.max(0, p - 3);
  const xe = Math.min(x.length - 1, x.length - s + 3);
  const ye = Math.min(y.length - 1, y.length - s + 3);
  const lines = [
    ...x.slice(from, p).map((l) => ' ' + l),
    ...x.slice(p, x.length - s).map((l) => '-' + l),
    ...y.slice(p, y.length - s).map((l) => '+' + l),
    ...x.slice(x.length - s, xe).map((l) => ' ' + l),
  ];
  return [{ oldStart: from + 1, oldLines: xe - from, newStart: from + 1, newLines: ye - from, lines }];
}

const common = (sb, session) => ({
  session_id: session,
  transcript_path: path.join(sb.home, '.claude/projects/x/' + session + '.jsonl'),
  cwd: sb.dir,
  prompt_id: 'prompt-1',
  permission_mode: 'acceptEdits',
  effort: { level: 'high' },
  hook_event_name: 'PostToolUse',
});

let useCounter = 0;

/** Does what Claude Code's Edit does to `rel`, then feeds the journal hook its PostToolUse payload. */
function agentEdit(sb, rel, oldS, newS, { session = 'sess-1', replaceAll = false } = {}) {
  const abs = sb.path(rel);
  const original = readFileSync(abs, 'utf8');
  const updated = replaceAll ? original.split(oldS).join(newS) : original.replace(oldS, () => newS);
  writeFileSync(abs, updated);
  quiet(
    hook(sb, 'journal', {
      ...common(sb, session),
      tool_name: 'Edit',
      tool_input: { file_path: abs, old_string: oldS, new_string: newS, replace_all: replaceAll },
      tool_response: { filePath: abs, oldString: oldS, newString: newS, originalFile: original, structuredPatch: structuredPatch(original, updated), userModified: false, replaceAll },
      tool_use_id: `toolu_edit_${++useCounter}`,
      duration_ms: 4,
    }),
    `Edit ${rel}`,
  );
  return entries(sb).at(-1);
}

/** Does what Claude Code's Write does, then feeds the journal hook its payload. */
function agentWrite(sb, rel, content, { session = 'sess-1' } = {}) {
  const abs = sb.path(rel);
  const original = existsSync(abs) ? readFileSync(abs, 'utf8') : null;
  mkdirSync(path.dirname(abs), { recursive: true });
  writeFileSync(abs, content);
  quiet(
    hook(sb, 'journal', {
      ...common(sb, session),
      tool_name: 'Write',
      tool_input: { file_path: abs, content },
      tool_response: { type: original === null ? 'create' : 'update', filePath: abs, content, structuredPatch: original === null ? [] : structuredPatch(original, content), originalFile: original },
      tool_use_id: `toolu_write_${++useCounter}`,
      duration_ms: 3,
    }),
    `Write ${rel}`,
  );
  return entries(sb).at(-1);
}

test('hook journal: an Edit payload is recorded with exact blobs, counts and ids; nothing on stdout', () => {
  const sb = sandbox({ files: { 'src/app.js': 'const a = 1;\nconst b = 2;\nconst c = 3;\n' } });
  const abs = sb.path('src/app.js');
  writeFileSync(abs, 'const a = 1;\nconst b = 20;\nconst c = 3;\n');
  const payload = {
    ...common(sb, 'd5c3a1f0-0000-4000-8000-000000000001'),
    tool_name: 'Edit',
    tool_input: { file_path: abs, old_string: 'const b = 2;', new_string: 'const b = 20;', replace_all: false },
    tool_response: {
      filePath: abs,
      oldString: 'const b = 2;',
      newString: 'const b = 20;',
      originalFile: 'const a = 1;\nconst b = 2;\nconst c = 3;\n',
      structuredPatch: [{ oldStart: 1, oldLines: 3, newStart: 1, newLines: 3, lines: [' const a = 1;', '-const b = 2;', '+const b = 20;', ' const c = 3;'] }],
      userModified: false,
      replaceAll: false,
    },
    tool_use_id: 'toolu_01ABCDEFGHIJKLMNOPQRSTUV',
    duration_ms: 12,
  };
  quiet(hook(sb, 'journal', payload));
  // The same tool call reported twice (e.g. hooks installed in two settings scopes): one entry.
  quiet(hook(sb, 'journal', payload));
  assert.equal(entries(sb).length, 1);
  const [e] = entries(sb);
  const id = tip(sb);
  assert.match(e.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.deepEqual(e, {
    id,
    shortId: id.slice(0, 8),
    time: e.time,
    tool: 'Edit',
    session: 'd5c3a1f0-0000-4000-8000-000000000001',
    toolUseId: 'toolu_01ABCDEFGHIJKLMNOPQRSTUV',
    files: [
      {
        path: 'src/app.js',
        before: blob(sb, 'const a = 1;\nconst b = 2;\nconst c = 3;\n'),
        after: blob(sb, 'const a = 1;\nconst b = 20;\nconst c = 3;\n'),
        added: 1,
        removed: 1,
        mode: 0o644,
      },
    ],
    rollbackOf: [],
    rolledBackBy: null,
  });
  // Storage: a commit whose message holds the entry and whose tree keeps both blobs reachable.
  assert.equal(sb.git('log', '-1', '--format=%s', id).trim(), 'kizu journal: Edit src/app.js');
  assert.equal(sb.git('ls-tree', id), `100644 blob ${e.files[0].after}\t0.after\n100644 blob ${e.files[0].before}\t0.before\n`);
  assert.equal(sb.git('cat-file', '-p', e.files[0].before), 'const a = 1;\nconst b = 2;\nconst c = 3;\n');
  expectRun(sb, ['journal'], { status: 0, stdout: `${id.slice(0, 8)}  ${noMs(e.time)}  Edit src/app.js  +1 -1  session d5c3a1f0\n` });
  // The working tree and the index are untouched.
  assert.equal(sb.git('status', '--porcelain'), ' M src/app.js\n');
});

test('hook journal: Write create, Write overwrite and NotebookEdit payloads', () => {
  const sb = sandbox({ files: { 'README.md': '# old\n' } });
  const created = agentWrite(sb, 'docs/new.md', 'hello\nworld\n');
  assert.deepEqual(created.files, [{ path: 'docs/new.md', before: null, after: blob(sb, 'hello\nworld\n'), added: 2, removed: 0, mode: 0o644 }]);
  assert.equal(created.tool, 'Write');
  const over = agentWrite(sb, 'README.md', '# new\n\ntext\n');
  assert.deepEqual(over.files, [{ path: 'README.md', before: blob(sb, '# old\n'), after: blob(sb, '# new\n\ntext\n'), added: 3, removed: 1, mode: 0o644 }]);

  const nbBefore = JSON.stringify({ cells: [{ cell_type: 'code', id: 'c1', source: ['x = 1'], metadata: {}, outputs: [], execution_count: null }], metadata: {}, nbformat: 4, nbformat_minor: 5 }, null, 1) + '\n';
  const nbAfter = nbBefore.replace('"x = 1"', '"x = 2"');
  sb.write({ 'nb.ipynb': nbBefore });
  sb.git('add', 'nb.ipynb');
  sb.git('commit', '-qm', 'nb');
  writeFileSync(sb.path('nb.ipynb'), nbAfter);
  quiet(
    hook(sb, 'journal', {
      ...common(sb, 'sess-nb'),
      tool_name: 'NotebookEdit',
      tool_input: { notebook_path: sb.path('nb.ipynb'), cell_id: 'c1', new_source: 'x = 2', edit_mode: 'replace' },
      tool_response: { new_source: 'x = 2', old_source: 'x = 1', cell_id: 'c1', cell_type: 'code', language: 'python', edit_mode: 'replace', notebook_path: sb.path('nb.ipynb'), original_file: nbBefore, updated_file: nbAfter },
      tool_use_id: 'toolu_nb',
    }),
  );
  const nb = entries(sb).at(-1);
  assert.deepEqual(
    { tool: nb.tool, session: nb.session, toolUseId: nb.toolUseId, files: nb.files },
    { tool: 'NotebookEdit', session: 'sess-nb', toolUseId: 'toolu_nb', files: [{ path: 'nb.ipynb', before: blob(sb, nbBefore), after: blob(sb, nbAfter), added: 1, removed: 1, mode: 0o644 }] },
  );
  const all = entries(sb);
  assert.deepEqual(all.map((e) => e.tool), ['Write', 'Write', 'NotebookEdit']);
  // The chain: three commits, each the parent of the next.
  assert.equal(sb.git('rev-list', '--count', 'refs/kizu/journal').trim(), '3');
  assert.equal(sb.git('rev-parse', 'refs/kizu/journal~1').trim(), all[1].id);
});

test('hook journal: bad payloads exit 0 with one stderr line and nothing on stdout; unrelated payloads record nothing', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  const bad = [
    ['not json', /^git-kizu: ignored a bad hook payload: hook payload is not JSON \([^\n]*\)\n$/],
    ['', /^git-kizu: ignored a bad hook payload: empty hook payload on stdin\n$/],
    ['[1]', /^git-kizu: ignored a bad hook payload: hook payload is not a JSON object\n$/],
    ['{}', /^git-kizu: ignored a bad hook payload: hook payload has no "hook_event_name" \(is this a Claude Code hook payload\?\)\n$/],
    [JSON.stringify({ hook_event_name: 'PostToolUse', tool_name: 'Edit', tool_input: { file_path: 'a.txt' }, tool_response: 'oops' }), /^git-kizu: ignored a bad hook payload: hook payload field "tool_response" should be an object, got "oops"\n$/],
    [JSON.stringify({ hook_event_name: 'PostToolUse', tool_name: 'Edit', tool_use_id: 7 }), /^git-kizu: ignored a bad hook payload: hook payload field "tool_use_id" should be a string, got 7\n$/],
    [JSON.stringify({ hook_event_name: 'Stop' }), /^git-kizu: ignored a bad hook payload: hook payload is for event "Stop", expected PostToolUse\n$/],
  ];
  for (const [input, re] of bad) {
    const r = hook(sb, 'journal', input);
    assert.equal(r.status, 0, input);
    assert.equal(r.stdout, '', input);
    assert.match(r.stderr, re, input);
  }
  writeFileSync(sb.base + '/outside.txt', 'x\n');
  for (const p of [
    { ...common(sb, 's'), tool_name: 'Read', tool_input: { file_path: sb.path('a.txt') }, tool_response: {} },
    { ...common(sb, 's'), tool_name: 'Write', tool_input: { file_path: sb.path('a.txt'), content: 'b\n' }, tool_response: { type: 'update', staged: true, originalFile: 'a\n', content: 'b\n' } },
    { ...common(sb, 's'), tool_name: 'Write', tool_input: { file_path: sb.base + '/outside.txt', content: 'x\n' }, tool_response: { type: 'create', originalFile: null, content: 'x\n' } },
    { ...common(sb, 's'), tool_name: 'Write', tool_input: { file_path: sb.path('.git/description'), content: 'x\n' }, tool_response: { type: 'update', originalFile: 'y\n', content: 'x\n' } },
    { ...common(sb, 's'), tool_name: 'Write', tool_input: { file_path: sb.path('a.txt'), content: 'a\n' }, tool_response: { type: 'update', originalFile: 'a\n', content: 'a\n' } },
  ]) {
    quiet(hook(sb, 'journal', p), p.tool_name);
  }
  assert.equal(tip(sb), '');
  expectRun(sb, ['journal'], {
    status: 0,
    stdout: "no journal entries (the journal hook installed by `git kizu init` records the agent's edits; `git kizu patch apply` records its patches)\n",
  });
  expectRun(sb, ['journal', '--json'], { status: 0, stdout: '[]\n' });
});

test('hook journal: a file already edited again when the async hook runs keeps the payload version; CRLF files keep their bytes', () => {
  const sb = sandbox({ files: { 'a.txt': 'one\ntwo\n', 'w.txt': 'x\r\ny\r\n' } });
  // The Edit wrote "one\nTWO\n", but a later edit changed the file before this hook ran.
  writeFileSync(sb.path('a.txt'), 'one\nTWO\nthree\n');
  quiet(
    hook(sb, 'journal', {
      ...common(sb, 's'),
      tool_name: 'Edit',
      tool_input: { file_path: sb.path('a.txt'), old_string: 'two', new_string: 'TWO', replace_all: false },
      tool_response: { filePath: sb.path('a.txt'), oldString: 'two', newString: 'TWO', originalFile: 'one\ntwo\n', structuredPatch: [], userModified: false, replaceAll: false },
      tool_use_id: 'toolu_a',
    }),
  );
  // Claude Code hands the hook LF text for a CRLF file and writes CRLF back.
  writeFileSync(sb.path('w.txt'), 'x\r\nY\r\n');
  quiet(
    hook(sb, 'journal', {
      ...common(sb, 's'),
      tool_name: 'Edit',
      tool_input: { file_path: sb.path('w.txt'), old_string: 'y', new_string: 'Y', replace_all: false },
      tool_response: { filePath: sb.path('w.txt'), oldString: 'y', newString: 'Y', originalFile: 'x\ny\n', structuredPatch: [], userModified: false, replaceAll: false },
      tool_use_id: 'toolu_w',
    }),
  );
  const [a, w] = entries(sb);
  assert.deepEqual(a.files[0], { path: 'a.txt', before: blob(sb, 'one\ntwo\n'), after: blob(sb, 'one\nTWO\n'), added: 1, removed: 1, mode: 0o644 });
  assert.deepEqual(w.files[0], { path: 'w.txt', before: blob(sb, 'x\r\ny\r\n'), after: blob(sb, 'x\r\nY\r\n'), added: 1, removed: 1, mode: 0o644 });
  // An Edit whose old content Claude Code did not send: recorded, but marked unknown.
  writeFileSync(sb.path('a.txt'), 'big\n');
  quiet(
    hook(sb, 'journal', {
      ...common(sb, 's'),
      tool_name: 'Write',
      tool_input: { file_path: sb.path('a.txt'), content: 'big\n' },
      tool_response: { type: 'update', filePath: sb.path('a.txt'), content: 'big\n', structuredPatch: [], originalFile: null },
      tool_use_id: 'toolu_big',
    }),
  );
  const u = entries(sb).at(-1);
  assert.deepEqual(u.files[0], { path: 'a.txt', before: null, after: blob(sb, 'big\n'), added: null, removed: null, mode: 0o644, beforeUnknown: true });
  expectRun(sb, ['rollback', 'patch', u.shortId], {
    status: 1,
    stderr:
      `git-kizu: error: cannot roll back ${u.shortId} (Write a.txt): its old content was not recorded (Claude Code did not send it, e.g. for a very large file), so it cannot be put back\n` +
      'hint: the overlapping change is not in the journal: edit the file by hand (git kizu undo and git kizu revert can help)\n',
  });
});

test('git kizu journal: text listing of several sessions, --session filter, concurrent hooks all recorded', async () => {
  const sb = sandbox({ files: Object.fromEntries(Array.from({ length: 8 }, (_, k) => [`f${k}.txt`, `v0 ${k}\n`])) });
  // Eight async hooks at once (Claude Code does not wait for them): compare-and-swap retries keep every entry.
  const runs = Array.from({ length: 8 }, (_, k) => {
    const abs = sb.path(`f${k}.txt`);
    writeFileSync(abs, `v1 ${k}\n`);
    const payload = JSON.stringify({
      ...common(sb, k % 2 ? 'bbbbbbbb-odd' : 'aaaaaaaa-even'),
      tool_name: 'Write',
      tool_input: { file_path: abs, content: `v1 ${k}\n` },
      tool_response: { type: 'update', filePath: abs, content: `v1 ${k}\n`, structuredPatch: [], originalFile: `v0 ${k}\n` },
      tool_use_id: `toolu_${k}`,
    });
    const file = path.join(sb.base, `payload-${k}.json`);
    writeFileSync(file, payload);
    return new Promise((resolve) => {
      const c = spawn('sh', ['-c', 'exec "$0" "$1" hook journal < "$2"', process.execPath, BIN, file], { cwd: sb.dir, env: sb.env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      c.stdout.on('data', (d) => (out += d));
      c.stderr.on('data', (d) => (out += d));
      c.on('close', (status) => resolve({ status, out }));
    });
  });
  for (const r of await Promise.all(runs)) assert.deepEqual(r, { status: 0, out: '' });
  const all = entries(sb);
  assert.equal(all.length, 8);
  assert.deepEqual(all.map((e) => e.files[0].path).sort(), Array.from({ length: 8 }, (_, k) => `f${k}.txt`));
  assert.equal(sb.git('rev-list', '--count', 'refs/kizu/journal').trim(), '8');
  const line = (e) => `${e.shortId}  ${noMs(e.time)}  Write ${e.files[0].path}  +1 -1  session ${e.session.slice(0, 8)}`;
  expectRun(sb, ['journal'], { status: 0, stdout: all.map(line).join('\n') + '\n' });
  const odd = all.filter((e) => e.session === 'bbbbbbbb-odd');
  assert.equal(odd.length, 4);
  expectRun(sb, ['journal', '--session', 'bbbb'], { status: 0, stdout: odd.map(line).join('\n') + '\n' });
  assert.deepEqual(entries(sb, ['--session', 'bbbbbbbb-odd']), odd);
  expectRun(sb, ['journal', '--session', 'cccc'], { status: 0, stdout: 'no journal entries for session cccc\n' });
});

// ---------------------------------------------------------------------------------------
// rollback patch

const SNAP = /^safety snapshot (\S+) was taken first; git kizu undo reverses this rollback$/;

/** Runs a rollback that succeeds; checks stdout: `lines`, the journal line, the snapshot line. Returns the rollback entry. */
function rollbackOk(sb, args, lines) {
  const r = sb.kizu(['rollback', 'patch', ...args]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  const out = r.stdout.split('\n');
  assert.equal(out.pop(), '');
  const rb = entries(sb).at(-1);
  assert.deepEqual(out.slice(0, -2), lines);
  assert.equal(out.at(-2), `journal entry ${rb.shortId} records this rollback; git kizu rollback patch ${rb.shortId} re-applies it`);
  assert.match(out.at(-1), SNAP);
  return rb;
}

test('rollback patch: a file unchanged since gets its old bytes back exactly; --dry-run writes nothing; the rollback is itself an entry; git kizu undo reverses it', () => {
  const sb = sandbox({ files: { 'f.txt': TEN } });
  const e = agentEdit(sb, 'f.txt', 'l5\n', 'five\nFIVE\n');
  assert.equal(sb.read('f.txt'), TEN.replace('l5\n', 'five\nFIVE\n'));
  expectRun(sb, ['rollback', 'patch', e.shortId, '--dry-run'], {
    status: 0,
    stdout: `would roll back ${e.shortId} (Edit): restored f.txt (unchanged since, put back exactly)\ndry run: 1 file would change; nothing written\n`,
  });
  assert.equal(sb.read('f.txt'), TEN.replace('l5\n', 'five\nFIVE\n'));
  const rb = rollbackOk(sb, [e.id.slice(0, 6)], [`rolled back ${e.shortId} (Edit): restored f.txt (unchanged since, put back exactly)`]);
  assert.equal(sb.read('f.txt'), TEN);
  assert.deepEqual(rb.rollbackOf, [e.id]);
  assert.deepEqual(rb.files, [{ path: 'f.txt', before: e.files[0].after, after: e.files[0].before, added: 1, removed: 2 }]);
  expectRun(sb, ['journal'], {
    status: 0,
    stdout:
      `${e.shortId}  ${noMs(e.time)}  Edit f.txt  +2 -1  rolled back by ${rb.shortId}  session sess-1\n` +
      `${rb.shortId}  ${noMs(rb.time)}  rollback f.txt  +1 -2  undoes ${e.shortId}\n`,
  });
  // Rolled back already: nothing to do, nothing written, no snapshot.
  expectRun(sb, ['rollback', 'patch', e.shortId], {
    status: 0,
    stdout: `nothing to do for ${e.shortId} (Edit): f.txt already holds its content from before it\nnothing to write: the files already hold their content from before these entries\n`,
  });
  // git kizu undo reverses the rollback (its safety snapshot); then the entry can be rolled back again.
  const u = sb.kizu(['undo', '--yes']);
  assert.equal(u.status, 0, u.stderr);
  assert.equal(sb.read('f.txt'), TEN.replace('l5\n', 'five\nFIVE\n'));
  const rb2 = rollbackOk(sb, [e.shortId], [`rolled back ${e.shortId} (Edit): restored f.txt (unchanged since, put back exactly)`]);
  assert.equal(sb.read('f.txt'), TEN);
  // Rolling back the rollback re-applies the entry.
  rollbackOk(sb, [rb2.shortId], [`rolled back ${rb2.shortId} (rollback): restored f.txt (unchanged since, put back exactly)`]);
  assert.equal(sb.read('f.txt'), TEN.replace('l5\n', 'five\nFIVE\n'));
  // Ids: unknown, not hex, none.
  expectRun(sb, ['rollback', 'patch', 'ffff0000'], { status: 1, stderr: 'git-kizu: error: no journal entry ffff0000\nhint: list the entries with git kizu journal\n' });
  expectRun(sb, ['rollback', 'patch', 'xyz'], { status: 2, stderr: 'git-kizu: error: not a journal entry id: "xyz"\nhint: entry ids are hex (at least 4 digits); see git kizu journal\n' });
});

test('rollback patch: a later edit elsewhere in the file is kept (hunks reversed by context), also when it moved the lines', () => {
  const sb = sandbox({ files: { 'f.txt': TEN } });
  const e1 = agentEdit(sb, 'f.txt', 'l5\n', 'L5\n');
  agentEdit(sb, 'f.txt', 'l9\n', 'L9\n');
  writeFileSync(sb.path('f.txt'), 'new first line\n' + sb.read('f.txt')); // a human edit above: everything moves down
  rollbackOk(sb, [e1.shortId], [`rolled back ${e1.shortId} (Edit): reversed 1 hunk in f.txt (later edits kept)`]);
  assert.equal(sb.read('f.txt'), 'new first line\n' + TEN.replace('l9\n', 'L9\n'));
  // A hunk that touched line 1 stays anchored at the start (git-apply(1) does the same): with
  // a line added above it, the reversal falls back to the three-way merge, which keeps it.
  const e3 = agentEdit(sb, 'f.txt', 'new first line\nl1\n', 'new first line\nL1\n');
  writeFileSync(sb.path('f.txt'), 'another top line\n' + sb.read('f.txt'));
  rollbackOk(sb, [e3.shortId], [`rolled back ${e3.shortId} (Edit): merged the reversal into f.txt (three-way merge; later edits kept)`]);
  assert.equal(sb.read('f.txt'), 'another top line\nnew first line\n' + TEN.replace('l9\n', 'L9\n'));
});

test('rollback patch: where the context changed, a three-way merge keeps both', () => {
  const sb = sandbox({ files: { 'f.txt': TEN } });
  const e = agentEdit(sb, 'f.txt', 'l5\n', 'L5\n');
  writeFileSync(sb.path('f.txt'), sb.read('f.txt').replace('l7\n', 'human 7\n')); // inside the hunk's context
  rollbackOk(sb, [e.shortId], [`rolled back ${e.shortId} (Edit): merged the reversal into f.txt (three-way merge; later edits kept)`]);
  assert.equal(sb.read('f.txt'), TEN.replace('l7\n', 'human 7\n'));
});

test('rollback patch: an overlapping later entry is named and nothing is written; --cascade undoes both, newest first', () => {
  const sb = sandbox({ files: { 'f.txt': TEN } });
  const e1 = agentEdit(sb, 'f.txt', 'l5\n', 'L5\n');
  const e2 = agentEdit(sb, 'f.txt', 'l9\n', 'L9\n'); // does not overlap
  const e3 = agentEdit(sb, 'f.txt', 'L5\n', 'LL5\n'); // overlaps e1
  const now = sb.read('f.txt');
  const line = (e, c) => `    ${e.shortId}  ${noMs(e.time)}  Edit f.txt  ${c}`;
  for (const dry of [[], ['--dry-run']]) {
    expectRun(sb, ['rollback', 'patch', e1.shortId, ...dry], {
      status: 1,
      stderr:
        `git-kizu: error: cannot roll back ${e1.shortId} (Edit f.txt): its change conflicts with what changed in f.txt since\n` +
        '  overlapping later changes:\n' +
        line(e3, '+1 -1') +
        '\n' +
        `hint: roll the overlapping entries back first (git kizu rollback patch ${e3.shortId} ${e1.shortId}), or add --cascade to undo them newest first\n`,
    });
  }
  assert.equal(sb.read('f.txt'), now);
  assert.equal(entries(sb).length, 3);
  expectRun(sb, ['rollback', 'patch', '--cascade', '--dry-run', e1.shortId], {
    status: 0,
    stdout:
      `would roll back ${e3.shortId} (Edit): restored f.txt (unchanged since, put back exactly)\n` +
      `would roll back ${e1.shortId} (Edit): reversed 1 hunk in f.txt (later edits kept)\n` +
      'dry run: 1 file would change; nothing written\n',
  });
  const rb = rollbackOk(sb, ['--cascade', e1.shortId], [
    `rolled back ${e3.shortId} (Edit): restored f.txt (unchanged since, put back exactly)`,
    `rolled back ${e1.shortId} (Edit): reversed 1 hunk in f.txt (later edits kept)`,
  ]);
  assert.equal(sb.read('f.txt'), TEN.replace('l9\n', 'L9\n'));
  assert.deepEqual(rb.rollbackOf, [e3.id, e1.id]);
  assert.equal(entries(sb).find((e) => e.id === e2.id).rolledBackBy, null);
});

test('rollback patch: an overlapping edit made outside the journal is named; --cascade cannot undo it', () => {
  const sb = sandbox({ files: { 'f.txt': TEN } });
  const e = agentEdit(sb, 'f.txt', 'l5\n', 'L5\n');
  writeFileSync(sb.path('f.txt'), sb.read('f.txt').replace('L5\n', 'human\n'));
  for (const c of [[], ['--cascade']]) {
    expectRun(sb, ['rollback', 'patch', ...c, e.shortId], {
      status: 1,
      stderr:
        `git-kizu: error: cannot roll back ${e.shortId} (Edit f.txt): its change conflicts with what changed in f.txt since\n` +
        '  overlapping later changes:\n' +
        `    edits after ${e.shortId} that are not in the journal\n` +
        'hint: the overlapping change is not in the journal: edit the file by hand (git kizu undo and git kizu revert can help)\n',
    });
  }
  assert.equal(sb.read('f.txt'), TEN.replace('l5\n', 'human\n'));
});

test('rollback patch: a created file is deleted only while unchanged; a Write over an existing file restores it', () => {
  const sb = sandbox({ files: { 'keep.txt': 'original\n' } });
  const c1 = agentWrite(sb, 'new/one.txt', 'one\n');
  rollbackOk(sb, [c1.shortId], [`rolled back ${c1.shortId} (Write): deleted new/one.txt (it created the file, unchanged since)`]);
  assert.ok(!existsSync(sb.path('new')));

  const c2 = agentWrite(sb, 'two.txt', 'two\n');
  writeFileSync(sb.path('two.txt'), 'two\nhuman line\n');
  expectRun(sb, ['rollback', 'patch', c2.shortId], {
    status: 1,
    stderr:
      `git-kizu: error: cannot roll back ${c2.shortId} (Write two.txt): it created two.txt, which changed since; a created file is deleted only while it holds exactly what the entry wrote\n` +
      '  overlapping later changes:\n' +
      `    edits after ${c2.shortId} that are not in the journal\n` +
      'hint: the overlapping change is not in the journal: edit the file by hand (git kizu undo and git kizu revert can help)\n',
  });
  assert.equal(sb.read('two.txt'), 'two\nhuman line\n');

  // Changed by a later agent edit instead: --cascade undoes that edit, then deletes the file.
  const c3 = agentWrite(sb, 'three.txt', 'three\n');
  const e3 = agentEdit(sb, 'three.txt', 'three\n', 'three\nmore\n');
  expectRun(sb, ['rollback', 'patch', c3.shortId], {
    status: 1,
    stderr:
      `git-kizu: error: cannot roll back ${c3.shortId} (Write three.txt): it created three.txt, which changed since; a created file is deleted only while it holds exactly what the entry wrote\n` +
      '  overlapping later changes:\n' +
      `    ${e3.shortId}  ${noMs(e3.time)}  Edit three.txt  +1 -0\n` +
      `hint: roll the overlapping entries back first (git kizu rollback patch ${e3.shortId} ${c3.shortId}), or add --cascade to undo them newest first\n`,
  });
  rollbackOk(sb, ['--cascade', c3.shortId], [
    `rolled back ${e3.shortId} (Edit): restored three.txt (unchanged since, put back exactly)`,
    `rolled back ${c3.shortId} (Write): deleted three.txt (it created the file, unchanged since)`,
  ]);
  assert.ok(!existsSync(sb.path('three.txt')));

  const w = agentWrite(sb, 'keep.txt', 'replaced entirely\n');
  rollbackOk(sb, [w.shortId], [`rolled back ${w.shortId} (Write): restored keep.txt (unchanged since, put back exactly)`]);
  assert.equal(sb.read('keep.txt'), 'original\n');
  // Even after later edits, a Write over an existing file is never a deletion.
  const w2 = agentWrite(sb, 'keep.txt', 'a\nb\nc\nd\ne\nf\ng\nh\n');
  agentEdit(sb, 'keep.txt', 'h\n', 'H\n');
  const r = sb.kizu(['rollback', 'patch', w2.shortId]);
  assert.equal(r.status, 1);
  assert.ok(existsSync(sb.path('keep.txt')));
  rollbackOk(sb, ['--cascade', w2.shortId], [
    `rolled back ${entries(sb).at(-1).shortId} (Edit): restored keep.txt (unchanged since, put back exactly)`,
    `rolled back ${w2.shortId} (Write): restored keep.txt (unchanged since, put back exactly)`,
  ]);
  assert.equal(sb.read('keep.txt'), 'original\n');
});
