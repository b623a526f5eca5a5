// install/exclude.ts (the lines a local install adds to git's exclude file, removed exactly)
// and agents/claude/settings.ts (with agents/hooks-json.ts) recognising the launcher commands of a local install.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { src } from '../helpers/sandbox.mjs';

const { appendExcludeLines, removeExcludeLines } = await import(src('install/exclude.ts'));
const { kizuEntries } = await import(src('agents/claude/settings.ts'));
const { hasKizuHooks, mergeKizuHooks, removeKizuHooks } = await import(src('agents/hooks-json.ts'));

test('exclude lines: appended after a missing final newline, removed at their offset, else their single occurrence, else reported', () => {
  const { text, added } = appendExcludeLines('/x/exclude', '# mine\n*.log', ['.claude/settings.local.json', '.claude/commands/kizu.md']);
  assert.equal(text, '# mine\n*.log\n/.claude/settings.local.json\n/.claude/commands/kizu.md\n');
  assert.deepEqual(added, [
    { file: '/x/exclude', offset: 12, text: '\n/.claude/settings.local.json\n', createdFile: false },
    { file: '/x/exclude', offset: 42, text: '/.claude/commands/kizu.md\n', createdFile: false },
  ]);
  assert.deepEqual(removeExcludeLines(text, added), { text: '# mine\n*.log', missing: [] });
  // The user added a line above ours: found by its single occurrence.
  assert.deepEqual(removeExcludeLines('top\n' + text, added), { text: 'top\n# mine\n*.log', missing: [] });
  // Ours twice (copied by hand), or gone: left alone and reported.
  const twice = 'top\n' + text + '/.claude/commands/kizu.md\n';
  assert.deepEqual(removeExcludeLines(twice, added), {
    text: 'top\n# mine\n*.log\n/.claude/commands/kizu.md\n/.claude/commands/kizu.md\n',
    missing: [added[1]],
  });
  assert.deepEqual(removeExcludeLines('# mine\n', added), { text: '# mine\n', missing: [added[1], added[0]] });
  assert.deepEqual(appendExcludeLines('/x/exclude', null, ['a']), { text: '/a\n', added: [{ file: '/x/exclude', offset: 0, text: '/a\n', createdFile: true }] });
});

test('settings: a local install\'s launcher commands are ours; init replaces the runner entries of an earlier local install by them', () => {
  const launcher = (h) => `'/r/my repo/.git/kizu/git-kizu' hook ${h}`;
  const runner = (h) => `"$CLAUDE_PROJECT_DIR"/.claude/hooks/kizu-hook.sh ${h}`;
  const old = mergeKizuHooks('s.json', null, kizuEntries(runner)).text;
  const merged = mergeKizuHooks('s.json', old, kizuEntries(launcher));
  assert.equal(merged.text, mergeKizuHooks('s.json', null, kizuEntries(launcher)).text);
  assert.deepEqual(merged.addedEvents, []);
  assert.equal(hasKizuHooks('s.json', merged.text), true);
  assert.equal(mergeKizuHooks('s.json', merged.text, kizuEntries(launcher)).changed, false);
  const removed = removeKizuHooks('s.json', merged.text, { events: null, dropEvents: 'emptied', dropHooksKey: 'emptied' });
  assert.equal(removed.text, '{}\n');
  // Another program's git-kizu command is not one of our launchers.
  assert.equal(hasKizuHooks('s.json', '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"git-kizu hook stop"}]}]}}'), false);
});

test('settings: our groups laid out by hand (one line each, keys in another order) are equal, so a re-merge leaves the bytes alone', () => {
  const runner = (h) => `"$CLAUDE_PROJECT_DIR"/.claude/hooks/kizu-hook.sh ${h}`;
  const events = {};
  for (const e of kizuEntries(runner)) {
    const g = e.group;
    // Keys in reverse order, the whole group on one line.
    const hooks = g.hooks.map((h) => Object.fromEntries(Object.entries(h).reverse()));
    (events[e.event] ??= []).push(JSON.stringify(g.matcher !== undefined ? { hooks, matcher: g.matcher } : { hooks }));
  }
  const text = '{\n  "hooks": {\n' + Object.entries(events).map(([ev, gs]) => `    "${ev}": [\n      ${gs.join(',\n      ')}\n    ]`).join(',\n') + '\n  }\n}\n';
  const merged = mergeKizuHooks('s.json', text, kizuEntries(runner));
  assert.equal(merged.changed, false);
  assert.equal(merged.text, text);
});
