// The edit journal through the real bin in real temp repos: `git kizu hook journal` fed the
// PostToolUse payloads Claude Code 2.1.332 sends (Edit with structuredPatch and originalFile,
// Write create and update, NotebookEdit), bad and unrelated payloads, concurrent hooks, and
// `git kizu journal` output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BIN, hook, sandbox, spawnAsync } from '../helpers/sandbox.mjs';
import { expectRun } from '../helpers/expect.mjs';
import { agentWrite, blob, common, entries, noMs, quiet } from '../helpers/journal.mjs';
import { journalTip } from '../helpers/refs.mjs';

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
  const id = journalTip(sb);
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
    worktree: realpathSync(sb.dir),
    otherWorktree: false,
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
  assert.equal(journalTip(sb), '');
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
  expectRun(sb, ['rollback', 'patch', '--yes', u.shortId], {
    status: 1,
    stderr:
      `git-kizu: error: cannot roll back ${u.shortId} (Write a.txt): its old content was not recorded (the agent did not report it, e.g. for a very large file or a Cursor edit), so it cannot be put back\n` +
      'hint: nothing was changed; put the old content back by hand, or from a snapshot (git kizu snapshot list, then git kizu rollback snapshot <id> --dry-run)\n',
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
    return spawnAsync('sh', ['-c', 'exec "$0" "$1" hook journal < "$2"', process.execPath, BIN, file], { cwd: sb.dir, env: sb.env }).then((r) => ({ status: r.status, out: r.stdout + r.stderr }));
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
