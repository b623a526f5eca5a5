// The Gemini CLI adapter (src/agents/gemini/): payloads as Gemini CLI 0.61.0 sent them in a
// real run (test/e2e/gemini.test.mjs drives the same CLI; paths shortened to /repo), the
// answers it reads, and the installer's plans on real files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { src } from '../helpers/sandbox.mjs';

const { parseHookInput } = await import(src('agents/gemini/payload.ts'));
const { PayloadError } = await import(src('hooks/contract.ts'));
const { renderAnswer } = await import(src('agents/gemini/envelope.ts'));
const { installer, folderTrust } = await import(src('agents/gemini/install.ts'));
const { loadHookAdapter, loadInstaller } = await import(src('agents/registry.ts'));

const SESSION = '8af8711e-0a95-44eb-9d8d-4165314bde9f';
const TRANSCRIPT = `/home/u/.gemini/tmp/repo/chats/session-2026-12-02T00-33-8af8711e.jsonl`;
const base = (event) => ({ session_id: SESSION, transcript_path: TRANSCRIPT, cwd: '/repo', hook_event_name: event, timestamp: '2026-12-02T00:33:34.452Z' });
const DIFF_STAT = { model_added_lines: 1, model_removed_lines: 1, model_added_chars: 13, model_removed_chars: 12, user_added_lines: 0, user_removed_lines: 0, user_added_chars: 0, user_removed_chars: 0 };

/** AfterTool after `replace` on an existing file (recorded). */
const REPLACE = {
  ...base('AfterTool'),
  tool_name: 'replace',
  tool_input: { file_path: '/repo/src/app.js', old_string: 'const b = 2;', new_string: 'const b = 20;', instruction: 'x' },
  tool_response: {
    llmContent: 'Successfully modified file: /repo/src/app.js (1 replacements). Here is the updated code:\nconst a = 1;\nconst b = 20;\n',
    returnDisplay: {
      fileDiff: 'Index: app.js\n===================================================================\n--- app.js\tCurrent\n+++ app.js\tProposed\n@@ -1,2 +1,2 @@\n const a = 1;\n-const b = 2;\n+const b = 20;\n',
      fileName: 'app.js',
      filePath: '/repo/src/app.js',
      originalContent: 'const a = 1;\nconst b = 2;\n',
      newContent: 'const a = 1;\nconst b = 20;\n',
      diffStat: DIFF_STAT,
      isNewFile: false,
      isBuildFile: false,
    },
  },
};

/** AfterTool after `write_file` creating a file (recorded). */
const WRITE_NEW = {
  ...base('AfterTool'),
  tool_name: 'write_file',
  tool_input: { file_path: '/repo/new.txt', content: 'hello\n' },
  tool_response: {
    llmContent: 'Successfully created and wrote to new file: /repo/new.txt. Here is the updated code:\nhello\n',
    returnDisplay: {
      fileDiff: 'Index: new.txt\n===================================================================\n--- new.txt\tOriginal\n+++ new.txt\tWritten\n@@ -0,0 +1,1 @@\n+hello\n',
      fileName: 'new.txt',
      filePath: '/repo/new.txt',
      originalContent: '',
      newContent: 'hello\n',
      diffStat: { ...DIFF_STAT, model_added_chars: 5, model_removed_lines: 0, model_removed_chars: 0 },
      isNewFile: true,
      isBuildFile: false,
    },
  },
};

/** AfterAgent (recorded) and BeforeAgent (recorded). */
const AFTER_AGENT = { ...base('AfterAgent'), prompt: 'Edit things.', prompt_response: 'done', stop_hook_active: false };
const BEFORE_AGENT = { ...base('BeforeAgent'), prompt: 'Edit things.' };

const parse = (event, payload, env = {}) => parseHookInput(event, typeof payload === 'string' ? payload : JSON.stringify(payload), env);
const buf = (s) => Buffer.from(s, 'utf8');

test('AfterTool (replace, write_file) → post-tool-use: the edited path', () => {
  assert.deepEqual(parse('post-tool-use', REPLACE), { input: { session: SESSION, cwd: '/repo', paths: ['/repo/src/app.js'] }, hookEventName: 'AfterTool' });
  assert.deepEqual(parse('post-tool-use', WRITE_NEW), { input: { session: SESSION, cwd: '/repo', paths: ['/repo/new.txt'] }, hookEventName: 'AfterTool' });
  // A relative path is passed on as sent (resolved against cwd by the handler); without one, the path Gemini resolved.
  assert.deepEqual(parse('post-tool-use', { ...REPLACE, tool_input: { ...REPLACE.tool_input, file_path: 'src/app.js' } }).input.paths, ['src/app.js']);
  assert.deepEqual(parse('post-tool-use', { ...REPLACE, tool_input: {} }).input.paths, ['/repo/src/app.js']);
  // Another tool (a matcher the user widened): no path.
  assert.deepEqual(parse('post-tool-use', { ...base('AfterTool'), tool_name: 'read_file', tool_input: { file_path: '/repo/src/app.js' }, tool_response: {} }).input.paths, []);
});

test('AfterTool → journal: before and after from returnDisplay', () => {
  assert.deepEqual(parse('journal', REPLACE), {
    input: {
      session: SESSION,
      cwd: '/repo',
      edit: { tool: 'replace', toolUseId: null, paths: ['/repo/src/app.js'], reported: { before: buf('const a = 1;\nconst b = 2;\n'), beforeUnknown: false, after: buf('const a = 1;\nconst b = 20;\n') } },
    },
    hookEventName: 'AfterTool',
  });
  assert.deepEqual(parse('journal', WRITE_NEW).input.edit, {
    tool: 'write_file',
    toolUseId: null,
    paths: ['/repo/new.txt'],
    reported: { before: null, beforeUnknown: false, after: buf('hello\n') },
  });
  // replace creating a file returns a string for returnDisplay; it wrote new_string.
  const created = { ...base('AfterTool'), tool_name: 'replace', tool_input: { file_path: '/repo/n.js', old_string: '', new_string: 'x\n' }, tool_response: { llmContent: 'Created new file: /repo/n.js with provided content.', returnDisplay: 'Created n.js' } };
  assert.deepEqual(parse('journal', created).input.edit.reported, { before: null, beforeUnknown: false, after: buf('x\n') });
  // No returnDisplay content: before unknown, after from the file.
  assert.deepEqual(parse('journal', { ...WRITE_NEW, tool_response: {} }).input.edit.reported, { before: null, beforeUnknown: true, after: undefined });
  assert.deepEqual(parse('journal', { ...REPLACE, tool_response: { returnDisplay: { newContent: 'n' } } }).input.edit.reported, { before: null, beforeUnknown: true, after: buf('n') });
  // A failed call, another tool, no path: nothing to record.
  const failed = { ...REPLACE, tool_response: { llmContent: 'Failed to edit', returnDisplay: 'Error: x', error: { message: 'Failed to edit, 0 occurrences found', type: 'edit_no_occurrence_found' } } };
  assert.equal(parse('journal', failed).input.edit, null);
  assert.equal(parse('journal', { ...REPLACE, tool_name: 'run_shell_command' }).input.edit, null);
  assert.equal(parse('journal', { ...REPLACE, tool_input: {}, tool_response: {} }).input.edit, null);
});

test('AfterAgent → stop (retry = stop_hook_active); BeforeAgent → user-prompt-submit', () => {
  assert.deepEqual(parse('stop', AFTER_AGENT), { input: { session: SESSION, cwd: '/repo', retry: false, subagent: null }, hookEventName: 'AfterAgent' });
  assert.deepEqual(parse('stop', { ...AFTER_AGENT, stop_hook_active: true }).input, { session: SESSION, cwd: '/repo', retry: true, subagent: null });
  assert.deepEqual(parse('user-prompt-submit', BEFORE_AGENT), { input: { session: SESSION, cwd: '/repo', prompt: 'Edit things.' }, hookEventName: 'BeforeAgent' });
  // No cwd: GEMINI_PROJECT_DIR, else the process's; no session id: null; no prompt: ''.
  const { cwd, session_id, prompt, ...bare } = BEFORE_AGENT;
  void cwd, session_id, prompt;
  assert.deepEqual(parse('user-prompt-submit', bare, { GEMINI_PROJECT_DIR: '/p' }).input, { session: null, cwd: '/p', prompt: '' });
  assert.equal(parse('stop', { hook_event_name: 'AfterAgent' }).input.cwd, process.cwd());
});

test('garbage and other agents\' payloads → PayloadError naming the problem', () => {
  const cases = [
    ['stop', '', 'empty hook payload on stdin'],
    ['stop', '  \n', 'empty hook payload on stdin'],
    ['stop', 'not json', 'hook payload is not JSON (Unexpected token \'o\', "not json" is not valid JSON)'],
    ['stop', '[]', 'hook payload is not a JSON object'],
    ['stop', 'null', 'hook payload is not a JSON object'],
    ['stop', '{}', 'hook payload has no "hook_event_name" (is this a Gemini CLI hook payload?)'],
    // Claude Code / Codex Stop, Copilot agentStop (camelCase, no hook_event_name), Codex PostToolUse.
    ['stop', { session_id: 's', cwd: '/repo', hook_event_name: 'Stop', stop_hook_active: false }, 'hook payload is for event "Stop", expected AfterAgent (Gemini CLI)'],
    ['stop', { sessionId: 's', cwd: '/repo', stopReason: 'end_turn' }, 'hook payload has no "hook_event_name" (is this a Gemini CLI hook payload?)'],
    ['post-tool-use', { hook_event_name: 'PostToolUse', tool_name: 'apply_patch', tool_input: { command: '*** Begin Patch' } }, 'hook payload is for event "PostToolUse", expected AfterTool (Gemini CLI)'],
    // Gemini's own payload for another hook.
    ['stop', REPLACE, 'hook payload is for event "AfterTool", expected AfterAgent (Gemini CLI)'],
    ['user-prompt-submit', AFTER_AGENT, 'hook payload is for event "AfterAgent", expected BeforeAgent (Gemini CLI)'],
    ['journal', BEFORE_AGENT, 'hook payload is for event "BeforeAgent", expected AfterTool (Gemini CLI)'],
    // Fields of the wrong type.
    ['stop', { ...AFTER_AGENT, stop_hook_active: 'yes' }, 'hook payload field "stop_hook_active" should be a boolean, got "yes"'],
    ['stop', { ...AFTER_AGENT, cwd: 7 }, 'hook payload field "cwd" should be a string, got 7'],
    ['stop', { ...AFTER_AGENT, hook_event_name: null }, 'hook payload field "hook_event_name" should be a string, got null'],
    ['post-tool-use', { ...REPLACE, tool_input: ['x'] }, 'hook payload field "tool_input" should be an object, got ["x"]'],
    ['journal', { ...REPLACE, tool_response: 'ok' }, 'hook payload field "tool_response" should be an object, got "ok"'],
    ['journal', { ...REPLACE, tool_response: { error: 'bad' } }, 'hook payload field "tool_response.error" should be an object, got "bad"'],
    ['user-prompt-submit', { ...BEFORE_AGENT, prompt: ['x'] }, 'hook payload field "prompt" should be a string, got ["x"]'],
  ];
  for (const [event, payload, message] of cases) {
    assert.throws(() => parse(event, payload), (e) => e instanceof PayloadError && e.message === message, `${event} ${JSON.stringify(payload)}`);
  }
});

test('answers: block, context, allow with a user message, nothing', () => {
  assert.equal(renderAnswer({ kind: 'block', reason: 'R' }, 'AfterAgent'), '{"decision":"block","reason":"R"}\n');
  assert.equal(renderAnswer({ kind: 'block', reason: 'R', userMessage: 'U' }, 'AfterAgent'), '{"decision":"block","reason":"R","systemMessage":"U"}\n');
  assert.equal(renderAnswer({ kind: 'context', context: 'C <x>' }, 'AfterTool'), '{"hookSpecificOutput":{"hookEventName":"AfterTool","additionalContext":"C <x>"}}\n');
  assert.equal(renderAnswer({ kind: 'allow', userMessage: 'U' }, 'AfterAgent'), '{"systemMessage":"U"}\n');
  assert.equal(renderAnswer({ kind: 'none' }, 'BeforeAgent'), '');
});

test('the registry loads the Gemini adapter and installer', async () => {
  const a = await loadHookAdapter('gemini');
  assert.equal(a.parseHookInput, parseHookInput);
  assert.equal(a.renderAnswer, renderAnswer);
  assert.equal(await loadInstaller('gemini'), installer);
});

// ------------------------------------------------------------------------------- installer

function dirs() {
  const b = mkdtempSync(path.join(tmpdir(), 'kizu-gemini-'));
  const root = path.join(b, 'repo');
  const home = path.join(b, 'home');
  mkdirSync(root);
  mkdirSync(home);
  return { b, root, home, cleanup: () => rmSync(b, { recursive: true, force: true }) };
}

const RUNNER = '#!/bin/sh\n# kizu-hook.sh: Generated by git-kizu\n';
const ctxOf = (d, scope = 'project', env = {}) => ({ scope, root: d.root, home: d.home, env, runner: RUNNER, initCmd: 'git kizu init --agent gemini', teardownCmd: 'git kizu teardown --agent gemini' });

function apply(plan) {
  for (const w of plan.writes) {
    mkdirSync(path.dirname(w.file), { recursive: true });
    writeFileSync(w.file, w.text);
    if (w.mode) chmodSync(w.file, w.mode);
  }
}

const PROJECT_CMD = (hook) => `"\${GEMINI_PROJECT_DIR}/.gemini/hooks/kizu-hook.sh" ${hook} gemini`;
const handler = (name, hook, timeout, cmd = PROJECT_CMD) => ({ name, type: 'command', command: cmd(hook), timeout });
const MATCHER = '^(write_file|replace)$';
const HOOKS = (cmd = PROJECT_CMD) => ({
  AfterAgent: [{ hooks: [handler('kizu-stop', 'stop', 30000, cmd)] }],
  AfterTool: [
    { matcher: MATCHER, hooks: [handler('kizu-post-tool-use', 'post-tool-use', 10000, cmd)] },
    { matcher: MATCHER, hooks: [handler('kizu-journal', 'journal', 30000, cmd)] },
  ],
  BeforeAgent: [{ hooks: [handler('kizu-snapshot', 'user-prompt-submit', 30000, cmd)] }],
  BeforeTool: [{ matcher: '^(run_shell_command|write_file|replace)$', hooks: [handler('kizu-pre-tool-gate', 'pre-tool-use', 30000, cmd)] }],
});

test('install (project): the runner and .gemini/settings.json; a second plan writes the same bytes; notes say the trust step', () => {
  const d = dirs();
  try {
    const ctx = ctxOf(d);
    assert.equal(installer.detect(ctx), false);
    const plan = installer.planInstall(ctx);
    const settings = path.join(d.root, '.gemini', 'settings.json');
    assert.deepEqual(plan.writes, [
      { file: path.join(d.root, '.gemini', 'hooks', 'kizu-hook.sh'), text: RUNNER, mode: 0o755, owned: true },
      { file: settings, text: JSON.stringify({ hooks: HOOKS() }, null, 2) + '\n', owned: false },
    ]);
    assert.deepEqual(plan.notes, [
      `Gemini CLI runs hooks only in a trusted folder: trust ${d.root} when Gemini CLI asks at start (or add "${d.root}": "TRUST_FOLDER" to ~/.gemini/trustedFolders.json); headless runs (gemini -p) need GEMINI_CLI_TRUST_WORKSPACE=true (--skip-trust does not read the project settings)`,
      'Gemini CLI reads .gemini/settings.json from the folder it starts in: start it at the repository root. The first run lists the new project hooks in a warning and records them in ~/.gemini/trusted_hooks.json.',
      'Gemini CLI has no background hooks: the edit journal hook runs beside the review hook after each write_file or replace.',
    ]);
    assert.deepEqual(installer.state(ctx), { installed: 'missing', trust: 'untrusted', file: settings, fix: 'run `git kizu init --agent gemini`' });
    apply(plan);
    assert.equal(installer.detect(ctx), true);
    assert.deepEqual(installer.planInstall(ctx).writes, plan.writes, 'idempotent');
    assert.deepEqual(installer.state(ctx), {
      installed: 'installed',
      trust: 'untrusted',
      file: settings,
      fix: `trust ${d.root} in Gemini CLI (its trust dialog at start, or "${d.root}": "TRUST_FOLDER" in ~/.gemini/trustedFolders.json)`,
    });
    // Trusted: the note and the fix go.
    mkdirSync(path.join(d.home, '.gemini'));
    writeFileSync(path.join(d.home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [d.root]: 'TRUST_FOLDER' }));
    assert.deepEqual(installer.state(ctx), { installed: 'installed', trust: 'trusted', file: settings, fix: null });
    assert.equal(installer.planInstall(ctx).notes.length, 2);
    // Hooks turned off in Gemini's own settings: the fix says where.
    const userSettings = path.join(d.home, '.gemini', 'settings.json');
    writeFileSync(userSettings, JSON.stringify({ hooksConfig: { disabled: ['kizu-stop', 'other'] } }));
    assert.equal(installer.state(ctx).fix, `Gemini CLI's hooksConfig.disabled lists kizu-stop (${userSettings}): take them out of that list`);
    writeFileSync(userSettings, JSON.stringify({ hooksConfig: { enabled: false } }));
    assert.equal(installer.state(ctx).fix, `Gemini CLI's hooks are turned off: set "hooksConfig": {"enabled": true} in ${userSettings}`);
    rmSync(userSettings);
    // One entry gone: partial.
    const s = JSON.parse(readFileSync(settings, 'utf8'));
    delete s.hooks.BeforeAgent;
    writeFileSync(settings, JSON.stringify(s));
    assert.deepEqual(installer.state(ctx), { installed: 'partial', trust: 'trusted', file: settings, fix: 'run `git kizu init --agent gemini`' });
    writeFileSync(settings, '{');
    assert.equal(installer.state(ctx).installed, 'missing');
    assert.throws(() => installer.planInstall(ctx), (e) => e.name === 'KizuError' && e.exitCode === 2 && e.message.startsWith(`${settings} is not valid JSON`));
  } finally {
    d.cleanup();
  }
});

test('install (user): ~/.gemini, the runner by absolute path', () => {
  const d = dirs();
  try {
    const ctx = ctxOf(d, 'user');
    const plan = installer.planInstall(ctx);
    const runner = path.join(d.home, '.gemini', 'hooks', 'kizu-hook.sh');
    assert.deepEqual(plan.writes, [
      { file: runner, text: RUNNER, mode: 0o755, owned: true },
      { file: path.join(d.home, '.gemini', 'settings.json'), text: JSON.stringify({ hooks: HOOKS((h) => `${runner} ${h} gemini`) }, null, 2) + '\n', owned: false },
    ]);
    apply(plan);
    assert.equal(installer.detect(ctx), true);
    assert.equal(installer.state(ctx).installed, 'installed');
    assert.deepEqual(installer.planRemove(ctx), { writes: [{ file: path.join(d.home, '.gemini', 'settings.json'), text: null, empty: '{}\n' }], deletes: [runner], notes: [] });
  } finally {
    d.cleanup();
  }
});

test('install then remove keeps a user\'s own settings.json byte for byte (other keys, own hooks, 4-space indent)', () => {
  const d = dirs();
  try {
    const ctx = ctxOf(d);
    const file = path.join(d.root, '.gemini', 'settings.json');
    const own = [
      '{',
      '    "model": {',
      '        "name": "gemini-2.5-pro"',
      '    },',
      '    "hooks": {',
      '        "AfterTool": [',
      '            {',
      '                "matcher": "run_shell_command",',
      '                "hooks": [{"name": "audit", "type": "command", "command": "./audit.sh", "timeout": 5000}]',
      '            }',
      '        ],',
      '        "AfterAgent": [{"hooks": [{"name": "notify", "type": "command", "command": "notify-send done", "timeout": 1000}]}]',
      '    },',
      '    "ui": {"theme": "GitHub"}',
      '}',
      '',
    ].join('\n');
    mkdirSync(path.dirname(file));
    writeFileSync(file, own);
    const plan = installer.planInstall(ctx);
    const merged = plan.writes[1].text;
    const v = JSON.parse(merged);
    assert.deepEqual(v.model, { name: 'gemini-2.5-pro' });
    assert.deepEqual(v.ui, { theme: 'GitHub' });
    assert.deepEqual(v.hooks, {
      AfterTool: [{ matcher: 'run_shell_command', hooks: [{ name: 'audit', type: 'command', command: './audit.sh', timeout: 5000 }] }, ...HOOKS().AfterTool],
      AfterAgent: [{ hooks: [{ name: 'notify', type: 'command', command: 'notify-send done', timeout: 1000 }] }, ...HOOKS().AfterAgent],
      BeforeAgent: HOOKS().BeforeAgent,
      BeforeTool: HOOKS().BeforeTool,
    });
    assert.ok(merged.includes('\n        "BeforeAgent": [\n            {\n                "hooks": [\n'), merged); // the file's own indent
    apply(plan);
    assert.deepEqual(installer.planInstall(ctx).writes[1].text, merged, 'idempotent');
    const rm = installer.planRemove(ctx);
    assert.deepEqual(rm, { writes: [{ file, text: own, empty: '{}\n' }], deletes: [path.join(d.root, '.gemini', 'hooks', 'kizu-hook.sh')], notes: [] });
    // Nothing of ours: nothing to write.
    writeFileSync(file, own);
    rmSync(path.join(d.root, '.gemini', 'hooks'), { recursive: true });
    assert.deepEqual(installer.planRemove(ctx), { writes: [], deletes: [], notes: [] });
  } finally {
    d.cleanup();
  }
});

test('folder trust from ~/.gemini/trustedFolders.json (longest rule wins, TRUST_PARENT, DO_NOT_TRUST), settings and a symlinked folder', () => {
  const d = dirs();
  try {
    const ctx = ctxOf(d);
    const tf = path.join(d.home, '.gemini', 'trustedFolders.json');
    mkdirSync(path.dirname(tf));
    const trust = (rules, folder = d.root) => {
      writeFileSync(tf, typeof rules === 'string' ? rules : JSON.stringify(rules));
      return folderTrust(ctx, folder);
    };
    assert.equal(trust({}), 'untrusted');
    assert.equal(trust({ [d.root]: 'TRUST_FOLDER' }), 'trusted');
    assert.equal(trust({ [d.b]: 'TRUST_FOLDER' }), 'trusted', 'a parent folder trusts its children');
    assert.equal(trust({ [path.join(d.root, 'x')]: 'TRUST_PARENT' }), 'trusted');
    assert.equal(trust({ [d.b]: 'TRUST_FOLDER', [d.root]: 'DO_NOT_TRUST' }), 'untrusted');
    assert.equal(trust({ [d.b]: 'DO_NOT_TRUST', [d.root]: 'TRUST_FOLDER' }), 'trusted');
    assert.equal(trust({ [path.join(d.root, 'sub')]: 'TRUST_FOLDER' }), 'untrusted', 'a child rule does not trust its parent');
    assert.equal(trust({ [`${d.root}x`]: 'TRUST_FOLDER' }), 'untrusted', 'no prefix match on names');
    assert.equal(trust(`{\n  // mine\n  "${d.root}": "TRUST_FOLDER",\n}`), 'trusted', 'comments and trailing commas, as Gemini CLI reads it');
    assert.equal(trust('{'), 'unknown');
    const link = path.join(d.b, 'link');
    symlinkSync(d.root, link);
    assert.equal(trust({ [d.root]: 'TRUST_FOLDER' }, link), 'trusted', 'by real path');
    assert.equal(trust({}, null), 'unknown');
    assert.equal(folderTrust(ctxOf(d, 'project', { GEMINI_CLI_TRUSTED_FOLDERS_PATH: path.join(d.b, 'none.json') }), d.root), 'untrusted');
    // Folder trust off in the user settings: every folder runs hooks.
    writeFileSync(tf, '{}');
    writeFileSync(path.join(d.home, '.gemini', 'settings.json'), JSON.stringify({ security: { folderTrust: { enabled: false } } }));
    assert.equal(folderTrust(ctx, d.root), 'trusted');
    assert.equal(folderTrust(ctx, null), 'trusted');
  } finally {
    d.cleanup();
  }
});

test('install: a settings.json with comments and hooks.enabled/disabled (which Gemini CLI allows) is merged and restored byte for byte', () => {
  const d = dirs();
  try {
    const ctx = ctxOf(d);
    const file = path.join(d.root, '.gemini', 'settings.json');
    const own = ['{', '  // my model', '  "model": {"name": "gemini-2.5-pro"},', '  "hooks": {', '    "enabled": true, /* on */', '    "disabled": ["audit"]', '  }', '}', ''].join('\n');
    mkdirSync(path.dirname(file));
    writeFileSync(file, own);
    const plan = installer.planInstall(ctx);
    const merged = plan.writes[1].text;
    assert.ok(merged.startsWith('{\n  // my model\n  "model": {"name": "gemini-2.5-pro"},\n  "hooks": {\n    "enabled": true, /* on */\n    "disabled": ["audit"],\n'), merged);
    apply(plan);
    assert.equal(installer.state(ctx).installed, 'installed');
    assert.deepEqual(installer.planInstall(ctx).writes[1].text, merged, 'idempotent');
    assert.deepEqual(installer.planRemove(ctx), { writes: [{ file, text: own, empty: '{}\n' }], deletes: [path.join(d.root, '.gemini', 'hooks', 'kizu-hook.sh')], notes: [] });
  } finally {
    d.cleanup();
  }
});

// Recorded with Gemini CLI 0.61.0: BeforeTool payloads of its shell tool and write_file.
const PRE = { session_id: SESSION, transcript_path: '/t.jsonl', cwd: '/repo', hook_event_name: 'BeforeTool', timestamp: '2026-12-06T03:02:54.209Z' };

test('BeforeTool → pre-tool-use: run_shell_command is a shell call, write_file and replace write their file; a deny (and an ask) renders as a BeforeTool deny', () => {
  assert.deepEqual(parse('pre-tool-use', { ...PRE, tool_name: 'run_shell_command', tool_input: { command: 'echo hi > out.txt' } }), {
    input: { session: SESSION, cwd: '/repo', tool: 'run_shell_command', call: { kind: 'shell', command: 'echo hi > out.txt' } },
    hookEventName: 'BeforeTool',
  });
  assert.deepEqual(parse('pre-tool-use', { ...PRE, tool_name: 'write_file', tool_input: { file_path: '/repo/b.txt', content: 'hello\n' } }).input.call, { kind: 'write', writes: [{ path: '/repo/b.txt', content: 'hello\n' }] });
  assert.deepEqual(parse('pre-tool-use', { ...PRE, tool_name: 'replace', tool_input: { file_path: '/repo/b.txt', old_string: 'a', new_string: 'b', allow_multiple: true } }).input.call, {
    kind: 'write',
    writes: [{ path: '/repo/b.txt', replacements: [{ old: 'a', new: 'b', all: true }] }],
  });
  assert.deepEqual(parse('pre-tool-use', { ...PRE, tool_name: 'read_file', tool_input: { file_path: '/repo/b.txt' } }).input.call, { kind: 'other' });
  assert.throws(() => parse('pre-tool-use', { ...PRE, tool_name: 'write_file', tool_input: { content: 'x' } }), /names no file \(tool_input\.file_path\)/);
  assert.equal(renderAnswer({ kind: 'deny', reason: 'R' }, 'BeforeTool'), '{"decision":"deny","reason":"R"}\n');
  assert.equal(renderAnswer({ kind: 'ask', reason: 'R', userMessage: 'U' }, 'BeforeTool'), '{"decision":"deny","reason":"R","systemMessage":"U"}\n');
});
