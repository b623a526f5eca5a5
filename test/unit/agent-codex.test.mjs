// The Codex CLI adapter (src/agents/codex/): payloads recorded from Codex CLI 0.171.0 parsed
// into git-kizu's hook inputs, answers rendered, the journal fed from an apply_patch payload,
// and the installer: hooks.json, the trust entries in config.toml, idempotence, byte-exact
// removal and state().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sandbox, src } from '../helpers/sandbox.mjs';
import { installContext, installerOf, runnerText, writePlan } from '../helpers/agents.mjs';

const { parseHookInput } = await import(src('agents/codex/payload.ts'));
const { renderAnswer } = await import(src('agents/codex/envelope.ts'));
const { codexHookHash, trustedHashes, projectTrusted } = await import(src('agents/codex/install.ts'));
const { PayloadError } = await import(src('hooks/contract.ts'));

// Recorded with Codex CLI 0.171.0 (`codex exec` against test/helpers/fake-responses.mjs).
const SESSION = '01a23430-8f5d-7381-adb4-0753c1d9d784';
const TURN = '01a23430-904f-75b3-99c9-9d01f269ec4d';
const TRANSCRIPT = '/tmp/kizu-test-Wc0nL2/home/.codex/sessions/2026/12/02/rollout-2026-12-02T00-38-47-01a23430-8f5d-7381-adb4-0753c1d9d784.jsonl';
const CWD = '/tmp/kizu-test-Wc0nL2/repo';
const PATCH = '*** Begin Patch\n*** Update File: app.js\n@@\n-const c = 3;\n+const c = 30;\n*** End Patch\n';
const POST = {
  session_id: SESSION,
  turn_id: TURN,
  transcript_path: TRANSCRIPT,
  cwd: CWD,
  hook_event_name: 'PostToolUse',
  model: 'gpt-5.5',
  permission_mode: 'bypassPermissions',
  tool_name: 'apply_patch',
  tool_input: { command: PATCH },
  tool_response: 'Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\nM app.js\n',
  tool_use_id: 'call_000001mx5edzqp',
};
const STOP = {
  session_id: SESSION,
  turn_id: TURN,
  transcript_path: TRANSCRIPT,
  cwd: CWD,
  hook_event_name: 'Stop',
  model: 'gpt-5.5',
  permission_mode: 'bypassPermissions',
  stop_hook_active: false,
  last_assistant_message: 'done',
};
const PROMPT = { session_id: SESSION, turn_id: TURN, transcript_path: TRANSCRIPT, cwd: CWD, hook_event_name: 'UserPromptSubmit', model: 'gpt-5.5', permission_mode: 'bypassPermissions', prompt: 'Edit it.' };

const parse = (event, payload) => parseHookInput(event, typeof payload === 'string' ? payload : JSON.stringify(payload), {});

test('payloads: PostToolUse apply_patch, Stop (first and retry), SubagentStop, UserPromptSubmit', () => {
  assert.deepEqual(parse('post-tool-use', POST), { input: { session: SESSION, cwd: CWD, paths: ['app.js'] }, hookEventName: 'PostToolUse' });
  assert.deepEqual(parse('stop', STOP), { input: { session: SESSION, cwd: CWD, retry: false, subagent: null }, hookEventName: 'Stop' });
  assert.deepEqual(parse('stop', { ...STOP, stop_hook_active: true }).input.retry, true);
  assert.deepEqual(parse('stop', { ...STOP, hook_event_name: 'SubagentStop', agent_id: 'a1', agent_type: 'worker' }).input.subagent, 'a1');
  assert.deepEqual(parse('user-prompt-submit', PROMPT), { input: { session: SESSION, cwd: CWD, prompt: 'Edit it.' }, hookEventName: 'UserPromptSubmit' });
  // Every path of a patch, moves included; the Edit/Write matcher aliases with the same shape.
  const multi = '*** Begin Patch\n*** Add File: a.txt\n+a\n*** Delete File: b.txt\n*** Update File: c.txt\n*** Move to: d/c.txt\n@@\n-x\n+y\n*** End Patch\n';
  assert.deepEqual(parse('post-tool-use', { ...POST, tool_name: 'Edit', tool_input: { command: multi } }).input.paths, ['a.txt', 'b.txt', 'c.txt', 'd/c.txt']);
  // Another tool: nothing edited, nothing to journal.
  assert.deepEqual(parse('post-tool-use', { ...POST, tool_name: 'exec_command', tool_input: { cmd: 'ls' } }).input.paths, []);
  assert.equal(parse('journal', { ...POST, tool_name: 'exec_command', tool_input: { cmd: 'ls' } }).input.edit, null);
});

test('journal input: the patch per path; a failed or refused patch records nothing', () => {
  const { input } = parse('journal', POST);
  assert.deepEqual({ ...input, edit: { ...input.edit, reportedByPath: Object.keys(input.edit.reportedByPath) } }, {
    session: SESSION,
    cwd: CWD,
    edit: { tool: 'apply_patch', toolUseId: 'call_000001mx5edzqp', paths: ['app.js'], reported: null, reportedByPath: ['app.js'] },
  });
  assert.deepEqual(input.edit.reportedByPath['app.js'].beforeFrom.derive(Buffer.from('const c = 30;\n')), Buffer.from('const c = 3;\n'));
  assert.equal(parse('journal', { ...POST, tool_response: 'Exit code: 1\nWall time: 0 seconds\nOutput:\nerror\n' }).input.edit, null);
  assert.equal(parse('journal', { ...POST, tool_response: 'apply_patch verification failed: Failed to read file to update /r/src/src/app.js' }).input.edit, null);
});

test('garbage and other agents\' payloads: PayloadError with one line', () => {
  const claude = { session_id: 's', transcript_path: '/t', cwd: '/r', hook_event_name: 'PostToolUse', tool_name: 'Edit', tool_input: { file_path: '/r/a', old_string: 'a', new_string: 'b' } };
  const cases = [
    ['post-tool-use', '', 'empty hook payload on stdin'],
    ['post-tool-use', 'not json', 'hook payload is not JSON (Unexpected token \'o\', "not json" is not valid JSON)'],
    ['stop', '[1]', 'hook payload is not a JSON object'],
    ['post-tool-use', JSON.stringify(claude), 'hook payload has no "hook_event_name" or "turn_id" (is this a Codex CLI hook payload?)'],
    ['stop', JSON.stringify(POST), 'hook payload is for event "PostToolUse", expected Stop or SubagentStop'],
    ['stop', JSON.stringify({ ...STOP, stop_hook_active: 'yes' }), 'hook payload field "stop_hook_active" should be a boolean, got "yes"'],
    ['post-tool-use', JSON.stringify({ ...POST, tool_input: { patch: PATCH } }), 'hook payload field "tool_input" of apply_patch should hold the patch text as "command", got {"patch":"*** Begin Patch\\n*** Update File: app.js\\n@@\\n-const c = 3;\\n+const c '],
    ['journal', JSON.stringify({ ...POST, tool_input: { command: 'rm -rf /' } }), "the apply_patch patch in the hook payload cannot be read: the first line of the patch must be '*** Begin Patch'"],
  ];
  for (const [event, text, message] of cases) {
    assert.throws(() => parseHookInput(event, text, {}), (e) => e instanceof PayloadError && e.message === message && !e.message.includes('\n'), `${event} ${text}`);
  }
});

test('answers: block, allow, context, none', () => {
  assert.equal(renderAnswer({ kind: 'block', reason: 'R' }, 'Stop'), '{"decision":"block","reason":"R"}\n');
  assert.equal(renderAnswer({ kind: 'block', reason: 'R', userMessage: 'U' }, 'Stop'), '{"decision":"block","reason":"R","systemMessage":"U"}\n');
  assert.equal(renderAnswer({ kind: 'allow', userMessage: 'U' }, 'Stop'), '{"systemMessage":"U"}\n');
  assert.equal(renderAnswer({ kind: 'context', context: 'C' }, 'PostToolUse'), '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"C"}}\n');
  assert.equal(renderAnswer({ kind: 'none' }, 'Stop'), '');
});

test('journal: an apply_patch edit recorded with the before content reversed from the working tree', async () => {
  const sb = sandbox({ files: { 'app.js': 'const a = 1;\nconst c = 3;\n' } });
  sb.write({ 'app.js': 'const a = 1;\nconst c = 30;\n' }); // what Codex's patch left
  const patch = '*** Begin Patch\n*** Update File: app.js\n@@\n const a = 1;\n-const c = 3;\n+const c = 30;\n*** Add File: new.txt\n+hi\n*** End Patch\n';
  sb.write({ 'new.txt': 'hi\n' });
  const { journalHook } = await import(src('hooks/edit-journal.ts'));
  const { readJournal } = await import(src('rollback/journal/journal.ts'));
  await journalHook(parse('journal', { ...POST, cwd: sb.dir, tool_input: { command: patch } }).input, new Date('2026-12-02T00:00:00.000Z'));
  const blob = (s) => sb.git('hash-object', '--stdin', { input: s }).trim();
  const [e] = await readJournal(sb.dir);
  assert.deepEqual(
    { tool: e.tool, session: e.session, toolUseId: e.toolUseId, time: e.time, files: e.files.map(({ path: p, before, after, beforeUnknown }) => ({ p, before, after, beforeUnknown })) },
    {
      tool: 'apply_patch',
      session: SESSION,
      toolUseId: 'call_000001mx5edzqp',
      time: '2026-12-02T00:00:00.000Z',
      files: [
        { p: 'app.js', before: blob('const a = 1;\nconst c = 3;\n'), after: blob('const a = 1;\nconst c = 30;\n'), beforeUnknown: undefined },
        { p: 'new.txt', before: null, after: blob('hi\n'), beforeUnknown: undefined },
      ],
    },
  );
  // So the entry rolls back: the file as it was, the added file gone.
  const rb = sb.kizu(['rollback', 'patch', '--yes', e.id]);
  assert.equal(rb.status, 0, rb.stderr);
  assert.equal(sb.read('app.js'), 'const a = 1;\nconst c = 3;\n');
  assert.equal(existsSync(sb.path('new.txt')), false);
});

test('journal: a moved file is a deletion of the old path (its content reversed from the new one) and a new file; a deleted file is not recorded', async () => {
  const sb = sandbox({ files: { 'old.txt': 'x\nkeep\n', 'gone.txt': 'bye\n' } });
  sb.git('mv', 'old.txt', 'moved.txt');
  sb.write({ 'moved.txt': 'y\nkeep\n' });
  sb.git('rm', '-q', 'gone.txt');
  const patch = '*** Begin Patch\n*** Update File: old.txt\n*** Move to: moved.txt\n@@\n-x\n+y\n*** Delete File: gone.txt\n*** End Patch\n';
  const { journalHook } = await import(src('hooks/edit-journal.ts'));
  const { readJournal } = await import(src('rollback/journal/journal.ts'));
  await journalHook(parse('journal', { ...POST, cwd: sb.dir, tool_input: { command: patch } }).input);
  const blob = (s) => sb.git('hash-object', '--stdin', { input: s }).trim();
  const [e] = await readJournal(sb.dir);
  assert.deepEqual(e.files.map(({ path: p, before, after }) => ({ p, before, after })), [
    { p: 'old.txt', before: blob('x\nkeep\n'), after: null },
    { p: 'moved.txt', before: null, after: blob('y\nkeep\n') },
  ]);
});

test('trust hash: the values codex app-server hooks/list reported for these handlers', () => {
  const post = '"$(git rev-parse --show-toplevel)"/.codex/hooks/kizu-hook.sh post-tool-use codex';
  assert.equal(codexHookHash('post_tool_use', 'apply_patch', post, 30), 'sha256:59f6f711dbd5f3ce3737aa8fda4700bb14ff3aeced0315efcc678ebb74319ec1');
  assert.equal(codexHookHash('stop', undefined, 'x stop codex', 30), 'sha256:0f4768fc74b0550a3e7a60f59b12c59d3fba01f984c6b95e0cfc81ef31260b4c');
  assert.equal(codexHookHash('post_tool_use', 'apply_patch', 'y journal codex', 30, true), 'sha256:0919bfaa73cc7f0dbab18d9071b675b49286a4866ecad98170658c5f859e7964');
  assert.equal(codexHookHash('user_prompt_submit', undefined, 'z user-prompt-submit codex', 30), 'sha256:97ac5b14393d5b41fca82bb43786395795aa78893e9c7203dcbaf3a46cb47c66');
  assert.equal(codexHookHash('subagent_stop', undefined, 'x stop codex', 30), 'sha256:ad2e2085540201a90448e839a033dc5c865eefb2a6bfab4d5edc34d0ecdeec9f');
});

const cmd = (hook) => `"$(git rev-parse --show-toplevel)"/.codex/hooks/kizu-hook.sh ${hook} codex`;
const EXPECTED_HOOKS = {
  hooks: {
    PostToolUse: [
      { matcher: 'apply_patch', hooks: [{ type: 'command', command: cmd('post-tool-use'), timeout: 30 }] },
      { matcher: 'apply_patch', hooks: [{ type: 'command', command: cmd('journal'), timeout: 30 }] },
    ],
    Stop: [{ hooks: [{ type: 'command', command: cmd('stop'), timeout: 30 }] }],
    SubagentStop: [{ hooks: [{ type: 'command', command: cmd('stop'), timeout: 30 }] }],
    UserPromptSubmit: [{ hooks: [{ type: 'command', command: cmd('user-prompt-submit'), timeout: 30 }] }],
    PreToolUse: [{ matcher: 'Bash|apply_patch', hooks: [{ type: 'command', command: cmd('pre-tool-use'), timeout: 30 }] }],
  },
};

function trustBlock(hooksFile, keys) {
  const lines = [`# git-kizu: trust for its Codex hooks in ${hooksFile} (git kizu init --agent codex; removed by git kizu teardown --agent codex)`];
  for (const [key, event, matcher, command] of keys) lines.push(`[hooks.state."${hooksFile}:${key}"]`, `trusted_hash = "${codexHookHash(event, matcher, command, 30)}"`);
  lines.push(`# end of git-kizu's Codex hook trust for ${hooksFile}`);
  return '\n' + lines.join('\n') + '\n';
}

const PROJECT_KEYS = [
  ['post_tool_use:0:0', 'post_tool_use', 'apply_patch', cmd('post-tool-use')],
  ['post_tool_use:1:0', 'post_tool_use', 'apply_patch', cmd('journal')],
  ['stop:0:0', 'stop', undefined, cmd('stop')],
  ['subagent_stop:0:0', 'subagent_stop', undefined, cmd('stop')],
  ['user_prompt_submit:0:0', 'user_prompt_submit', undefined, cmd('user-prompt-submit')],
  ['pre_tool_use:0:0', 'pre_tool_use', 'Bash|apply_patch', cmd('pre-tool-use')],
];

test('install (project): runner, hooks.json, trust entries, the project trust step; idempotent; state', async () => {
  const sb = sandbox();
  const installer = await installerOf('codex');
  const ctx = installContext(sb, 'codex');
  const hooksFile = sb.path('.codex/hooks.json');
  const configFile = path.join(sb.home, '.codex', 'config.toml');
  assert.equal(installer.detect(ctx), false);
  assert.deepEqual(installer.state(ctx), { installed: 'missing', trust: 'unknown', file: hooksFile, fix: 'git kizu init --agent codex' });
  const plan = installer.planInstall(ctx);
  assert.deepEqual(plan, {
    writes: [
      { file: sb.path('.codex/hooks/kizu-hook.sh'), text: runnerText('codex'), mode: 0o755, owned: true },
      { file: hooksFile, text: JSON.stringify(EXPECTED_HOOKS, null, 2) + '\n', owned: false },
      { file: configFile, text: trustBlock(hooksFile, PROJECT_KEYS), owned: false },
    ],
    notes: [
      `Codex will run git-kizu's hooks from ${hooksFile}; their trust entries (hash of each command) are in ${configFile}.`,
      `Codex runs project hooks only in a trusted project: add to ${configFile}:`,
      `  [projects."${sb.dir}"]`,
      `  trust_level = "trusted"`,
      `(or start codex in ${sb.dir} once and choose to trust it, or run \`codex exec --trust\` there).`,
    ],
  });
  writePlan(plan);
  assert.equal(statSync(sb.path('.codex/hooks/kizu-hook.sh')).mode & 0o777, 0o755);
  assert.equal(installer.detect(ctx), true);
  const again = installer.planInstall(ctx);
  assert.deepEqual(again.writes.map((w) => w.text), plan.writes.map((w) => w.text), 'a second plan writes the same bytes');
  assert.deepEqual(installer.state(ctx), {
    installed: 'installed',
    trust: 'untrusted',
    file: hooksFile,
    fix: `add [projects."${sb.dir}"] trust_level = "trusted" to ${configFile} (or run \`codex exec --trust\` in ${sb.dir} once)`,
  });
  writeFileSync(configFile, `[projects."${sb.dir}"]\ntrust_level = "trusted"\n` + readFileSync(configFile, 'utf8'));
  assert.deepEqual(installer.state(ctx), { installed: 'installed', trust: 'trusted', file: hooksFile, fix: null });
  assert.equal(installer.planInstall(ctx).notes.length, 1, 'no trust step once the project is trusted');
  // A changed command no longer matches its trusted hash.
  writeFileSync(hooksFile, readFileSync(hooksFile, 'utf8').replace('"timeout": 30', '"timeout": 31'));
  assert.deepEqual(installer.state(ctx).trust, 'untrusted');
  writePlan(installer.planInstall(ctx));
  assert.deepEqual(installer.state(ctx).trust, 'trusted', 'init again refreshes the trust entries');
  // Without the runner: partial.
  const { rmSync } = await import('node:fs');
  rmSync(sb.path('.codex/hooks/kizu-hook.sh'));
  assert.deepEqual(installer.state(ctx), { installed: 'partial', trust: 'trusted', file: hooksFile, fix: 'git kizu init --agent codex' });
});

test('install then remove keeps the user\'s hooks.json and config.toml byte for byte', async () => {
  const sb = sandbox();
  const installer = await installerOf('codex');
  const ctx = installContext(sb, 'codex');
  const hooksFile = sb.path('.codex/hooks.json');
  const configFile = path.join(sb.home, '.codex', 'config.toml');
  const userHooks = '{\n\t"hooks": {\n\t\t"Stop": [{"hooks": [{"type": "command", "command": "./mine.sh"}]}]\n\t},\n\t"x": 1\n}';
  const userConfig = 'model = "o3"  # mine\n\n[projects."/elsewhere"]\ntrust_level = "trusted"';
  mkdirSync(path.dirname(hooksFile), { recursive: true });
  mkdirSync(path.dirname(configFile), { recursive: true });
  writeFileSync(hooksFile, userHooks);
  writeFileSync(configFile, userConfig);
  const plan = installer.planInstall(ctx);
  writePlan(plan);
  const hooks = JSON.parse(readFileSync(hooksFile, 'utf8'));
  assert.deepEqual(hooks.hooks.Stop[0], { hooks: [{ type: 'command', command: './mine.sh' }] });
  assert.deepEqual(hooks.hooks.Stop[1], EXPECTED_HOOKS.hooks.Stop[0]);
  const config = readFileSync(configFile, 'utf8');
  // Our Stop handler is the Stop event's second group: its trust key says so.
  assert.equal(config, userConfig + trustBlock(hooksFile, [PROJECT_KEYS[0], PROJECT_KEYS[1], ['stop:1:0', 'stop', undefined, cmd('stop')], PROJECT_KEYS[3], PROJECT_KEYS[4], PROJECT_KEYS[5]]));
  assert.deepEqual([...trustedHashes(config).keys()], [
    `${hooksFile}:post_tool_use:0:0`,
    `${hooksFile}:post_tool_use:1:0`,
    `${hooksFile}:stop:1:0`,
    `${hooksFile}:subagent_stop:0:0`,
    `${hooksFile}:user_prompt_submit:0:0`,
    `${hooksFile}:pre_tool_use:0:0`,
  ]);
  assert.equal(projectTrusted(config, '/elsewhere'), true);
  assert.equal(projectTrusted(config, sb.dir), false);
  const rm = installer.planRemove(ctx);
  assert.deepEqual(rm.writes, [
    { file: hooksFile, text: userHooks, empty: '{}\n' },
    { file: configFile, text: userConfig, empty: '' },
  ]);
  assert.deepEqual(rm.notes, []);
  // The block at the very start of the file (its blank line taken away) is still found: replaced, not doubled.
  writeFileSync(configFile, config.slice(userConfig.length + 1));
  assert.equal(installer.planInstall(ctx).writes[2].text, config.slice(userConfig.length));
  writeFileSync(configFile, config);
  // A table Codex put inside the block (`codex exec --trust` appends [projects."<repo>"]
  // after the last table): install and remove keep it in its place and take out only
  // git-kizu's tables.
  const trusted = `[projects.${JSON.stringify(sb.dir)}]\ntrust_level = "trusted"\n`;
  writeFileSync(configFile, config.replace('\n# end of', `\n${trusted}# end of`));
  const again = installer.planInstall(ctx).writes[2].text;
  assert.equal(again, `${userConfig}\n${trusted}${config.slice(userConfig.length)}`);
  assert.equal(projectTrusted(again, sb.dir), true);
  assert.deepEqual(installer.planInstall(ctx).notes.length, 1, 'no project trust step once trusted');
  assert.deepEqual(installer.planRemove(ctx).writes[1], { file: configFile, text: `${userConfig}\n${trusted}`, empty: '' });
  // The block's end line gone: its extent is unknown; install refuses, remove leaves it.
  writeFileSync(configFile, config.replace(/# end of[^\n]*\n/, ''));
  assert.throws(() => installer.planInstall(ctx), /has lost its end line/);
  assert.deepEqual(installer.planRemove(ctx).writes.map((w) => w.file), [hooksFile]);
});

test('install (user): $CODEX_HOME, absolute runner path, no project trust step; remove empties what init created', async () => {
  const sb = sandbox({ init: false });
  const installer = await installerOf('codex');
  const codexHome = path.join(sb.base, 'ch');
  const ctx = { ...installContext(sb, 'codex', { scope: 'user', env: { CODEX_HOME: codexHome } }), root: null };
  const runner = path.join(codexHome, 'hooks', 'kizu-hook.sh');
  const plan = installer.planInstall(ctx);
  assert.deepEqual(plan.writes.map((w) => w.file), [runner, path.join(codexHome, 'hooks.json'), path.join(codexHome, 'config.toml')]);
  assert.equal(JSON.parse(plan.writes[1].text).hooks.Stop[0].hooks[0].command, `${runner} stop codex`);
  assert.equal(plan.notes.length, 1);
  writePlan(plan);
  assert.deepEqual(installer.state(ctx), { installed: 'installed', trust: 'trusted', file: path.join(codexHome, 'hooks.json'), fix: null });
  const rm = installer.planRemove(ctx);
  assert.deepEqual(rm.writes, [
    { file: path.join(codexHome, 'hooks.json'), text: null, empty: '{}\n' },
    { file: path.join(codexHome, 'config.toml'), text: null, empty: '' },
  ]);
  assert.deepEqual(rm.deletes, [runner]);
  assert.equal(existsSync(runner), true);
});

test('install (user) through a linked $CODEX_HOME: the trust keys name the real path, as Codex canonicalises it; status sees them as trusted', async () => {
  const sb = sandbox({ init: false });
  const installer = await installerOf('codex');
  const real = path.join(sb.base, 'dotfiles', 'codex');
  mkdirSync(real, { recursive: true });
  const link = path.join(sb.base, 'linked-codex');
  symlinkSync(real, link);
  const ctx = { ...installContext(sb, 'codex', { scope: 'user', env: { CODEX_HOME: link } }), root: null };
  const plan = installer.planInstall(ctx);
  const config = plan.writes[2].text;
  const keys = [...trustedHashes(config).keys()];
  assert.deepEqual(keys, [
    `${real}/hooks.json:post_tool_use:0:0`,
    `${real}/hooks.json:post_tool_use:1:0`,
    `${real}/hooks.json:stop:0:0`,
    `${real}/hooks.json:subagent_stop:0:0`,
    `${real}/hooks.json:user_prompt_submit:0:0`,
    `${real}/hooks.json:pre_tool_use:0:0`,
  ]);
  writePlan(plan);
  assert.deepEqual(installer.state(ctx), { installed: 'installed', trust: 'trusted', file: path.join(link, 'hooks.json'), fix: null });
  // Removal finds the block and its tables again.
  assert.equal(installer.planRemove(ctx).writes.find((w) => w.file === path.join(link, 'config.toml')).text, null);
});

// Recorded with Codex CLI 0.171.0: a PreToolUse payload of its shell tool (exec_command, named
// Bash in hooks) and of apply_patch.
const PRE_SHELL = { session_id: SESSION, turn_id: TURN, transcript_path: TRANSCRIPT, cwd: CWD, hook_event_name: 'PreToolUse', model: 'gpt-5.5', permission_mode: 'bypassPermissions', tool_name: 'Bash', tool_input: { command: 'echo hi > out.txt' }, tool_use_id: 'call_1' };
const PRE_PATCH = { ...PRE_SHELL, tool_name: 'apply_patch', tool_input: { command: '*** Begin Patch\n*** Add File: b.txt\n+hello\n*** Delete File: c.txt\n*** Update File: d.txt\n*** Move to: e.txt\n@@\n-x\n+y\n*** End Patch\n' }, tool_use_id: 'call_2' };

test('PreToolUse → pre-tool-use: Bash is a shell call, apply_patch writes its files; a deny (and an ask, which Codex would run) renders as a PreToolUse deny', () => {
  const parse = (p) => parseHookInput('pre-tool-use', JSON.stringify(p), {});
  assert.deepEqual(parse(PRE_SHELL), { input: { session: SESSION, cwd: CWD, tool: 'Bash', call: { kind: 'shell', command: 'echo hi > out.txt' } }, hookEventName: 'PreToolUse' });
  assert.deepEqual(parse(PRE_PATCH).input.call, {
    kind: 'write',
    writes: [{ path: 'b.txt', content: 'hello\n' }, { path: 'c.txt', deletes: true }, { path: 'd.txt', deletes: true }, { path: 'e.txt' }],
  });
  assert.deepEqual(parse({ ...PRE_SHELL, tool_name: 'mcp__x__y', tool_input: {} }).input.call, { kind: 'other' });
  assert.throws(() => parse({ ...PRE_SHELL, tool_input: { cmd: 'ls' } }), (e) => e instanceof PayloadError && e.message === 'hook payload field "tool_input.command" of Bash should be a string, got undefined');
  const deny = '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"R"},"systemMessage":"U"}\n';
  assert.equal(renderAnswer({ kind: 'deny', reason: 'R', userMessage: 'U' }, 'PreToolUse'), deny);
  assert.equal(renderAnswer({ kind: 'ask', reason: 'R', userMessage: 'U' }, 'PreToolUse'), deny);
  assert.equal(renderAnswer({ kind: 'none' }, 'PreToolUse'), '');
});
