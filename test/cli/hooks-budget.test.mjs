// The budget of the hooks' lists (src/hooks/text.ts LIST_MAX_PER_KIND, LIST_MAX_BYTES):
// with thousands of scars (or queue items) the Stop reason, the PostToolUse context and the
// pre-commit refusal list the first ones, then one line with how many more and the command
// that lists them all; the bounded retries still key the whole set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { hook, sandbox } from '../helpers/sandbox.mjs';
import { PROTOCOL, contextOutput, editPayload, stopPayload } from '../helpers/hooks.mjs';
import { Q, TEMPLATE, queueJson } from '../helpers/queue.mjs';

const PER_KIND = 50;
const BUDGET = 8192; // bytes: the whole message stays under this

/** `n` free scars, one a line: `// @kizu[free]: task <i>` (1-based line = i + 1). */
const scarText = (n, body = (i) => `task ${i}`) => Array.from({ length: n }, (_, i) => `// @kizu[free]: ${body(i)}\n`).join('');
const scarLine = (file, i, body = `task ${i}`) => `- "${file}":${i + 1} [free] ${body} → do what it says, then delete the scar line`;
const listed = (file, k) => Array.from({ length: k }, (_, i) => scarLine(file, i));

function stopReason(sb, active) {
  const r = hook(sb, 'stop', stopPayload(sb, active));
  assert.equal(r.status, 0);
  assert.equal(r.stderr, '');
  const out = JSON.parse(r.stdout);
  assert.equal(out.decision, 'block');
  return out.reason;
}

test('stop: 3,000 scars → the first 50 listed, one line with how many more and `git kizu scan`, that the stop stays blocked until all are resolved; under 8 KB', () => {
  const sb = sandbox({ files: { 'a.js': 'x\n' } });
  sb.write({ 'a.js': scarText(3000) + 'x\n' });
  const reason = stopReason(sb, false);
  assert.equal(
    reason,
    'git-kizu: a human reviewer left 3000 scars that are still unresolved. Resolve each one before you stop:\n' +
      listed('a.js', PER_KIND).join('\n') +
      '\n- … and 2950 more scars, not listed here: `git kizu scan` lists them all\n' +
      PROTOCOL +
      '\nOnly 50 of the 3000 are listed; the stop stays blocked until all 3000 are resolved, the ones not listed too.',
  );
  assert.ok(Buffer.byteLength(reason) < BUDGET, `${Buffer.byteLength(reason)} bytes`);
});

test('stop: 50 scars are all listed as before (no summary line); 51 → the 51st is summed up', () => {
  const sb = sandbox({ files: { 'a.js': 'x\n' } });
  sb.write({ 'a.js': scarText(50) + 'x\n' });
  assert.equal(
    stopReason(sb, false),
    'git-kizu: a human reviewer left 50 scars that are still unresolved. Resolve each one before you stop:\n' + listed('a.js', 50).join('\n') + '\n' + PROTOCOL,
  );
  sb.write({ 'a.js': scarText(51) + 'x\n' });
  assert.equal(
    stopReason(sb, false),
    'git-kizu: a human reviewer left 51 scars that are still unresolved. Resolve each one before you stop:\n' +
      listed('a.js', 50).join('\n') +
      '\n- … and 1 more scar, not listed here: `git kizu scan` lists them all\n' +
      PROTOCOL +
      '\nOnly 50 of the 51 are listed; the stop stays blocked until all 51 are resolved, the ones not listed too.',
  );
});

test('stop: long scars → fewer than 50 listed, within 6 KB of lines; the reason stays under 8 KB', () => {
  const sb = sandbox({ files: { 'a.js': 'x\n' } });
  const body = (i) => `task ${String(i).padStart(4, '0')} ` + 'y'.repeat(300);
  sb.write({ 'a.js': scarText(100, body) + 'x\n' });
  const reason = stopReason(sb, false);
  const one = Buffer.byteLength(scarLine('a.js', 0, body(0))) + 1;
  const k = Math.floor(6144 / one);
  assert.equal(k, 16);
  const lines = reason.split('\n');
  assert.deepEqual(lines.slice(1, k + 2), [...Array.from({ length: k }, (_, i) => scarLine('a.js', i, body(i))), `- … and ${100 - k} more scars, not listed here: \`git kizu scan\` lists them all`]);
  assert.ok(Buffer.byteLength(reason) < BUDGET, `${Buffer.byteLength(reason)} bytes`);
});

test('stop: 3,000 scars and 60 open queue items → each kind summed up with its own command', () => {
  const sb = sandbox({ files: { 'a.js': 'x\n' } });
  sb.write({ 'a.js': scarText(3000) + 'x\n', [Q]: TEMPLATE + Array.from({ length: 60 }, (_, i) => `- [ ] item ${i}\n`).join('') });
  const items = queueJson(sb);
  assert.equal(items.length, 60);
  const reason = stopReason(sb, false);
  const lines = reason.split('\n');
  assert.equal(lines[0], 'git-kizu: a human reviewer left 3000 scars that are still unresolved and 60 open items in .claude/review-queue.md. Resolve each one before you stop:');
  assert.equal(lines[51], '- … and 2950 more scars, not listed here: `git kizu scan` lists them all');
  // The scars took part of the 6 KB: the items get the rest.
  const itemLines = lines.slice(52).filter((l) => l.startsWith('- ['));
  assert.ok(itemLines.length > 0 && itemLines.length < 50, `${itemLines.length} items listed`);
  assert.equal(itemLines[0], `- [${items[0].id}] item 0 → do what it says, then run \`git kizu queue done ${items[0].id}\``);
  assert.equal(lines[52 + itemLines.length], `- … and ${60 - itemLines.length} more open items, not listed here: \`git kizu queue list\` lists them all`);
  assert.equal(lines.at(-1), `Only ${50 + itemLines.length} of the 3060 are listed; the stop stays blocked until all 3060 are resolved, the ones not listed too.`);
  assert.ok(Buffer.byteLength(reason) < BUDGET, `${Buffer.byteLength(reason)} bytes`);
});

test('stop: the bounded retries key all 3,000 scars: resolving one that is not listed is progress, no change is not', () => {
  const sb = sandbox({ files: { 'a.js': 'x\n' } });
  sb.write({ 'a.js': scarText(3000) + 'x\n' });
  stopReason(sb, false);
  assert.ok(stopReason(sb, true).endsWith('\n(Block 2 of 3 without progress; after that the stop is allowed and the user is told.)'));
  // Resolve the last scar (line 3000, far past the listed 50): the listed part is the same.
  sb.write({ 'a.js': scarText(2999) + 'x\n' });
  const after = stopReason(sb, true);
  assert.ok(!after.includes('(Block'), 'progress');
  assert.ok(after.includes('\n- … and 2949 more scars, not listed here: `git kizu scan` lists them all\n'));
  assert.ok(stopReason(sb, true).endsWith('\n(Block 2 of 3 without progress; after that the stop is allowed and the user is told.)'));
  stopReason(sb, true);
  const r = hook(sb, 'stop', stopPayload(sb, true));
  const msg = JSON.parse(r.stdout).systemMessage;
  assert.ok(msg.startsWith('git-kizu: allowing the stop after 3 blocks without progress; 2999 scars still unresolved:\n' + listed('a.js', PER_KIND).join('\n') + '\n- … and 2949 more scars'), msg.slice(0, 300));
  assert.ok(Buffer.byteLength(msg) < BUDGET, `${Buffer.byteLength(msg)} bytes`);
});

test('post-tool-use: a file with 3,000 scars → the first 50, then how many more and `git kizu scan --all <file>`; under 8 KB', () => {
  const sb = sandbox({ files: { 'src/a b.js': 'x\n' } });
  sb.write({ 'src/a b.js': scarText(3000) + 'x\n' });
  const r = hook(sb, 'post-tool-use', editPayload(sb, 'src/a b.js'));
  assert.equal(r.status, 0);
  assert.equal(r.stderr, '');
  const ctx =
    'git-kizu: the file you just edited holds 3000 review scars left by a human reviewer:\n' +
    listed('src/a b.js', PER_KIND).join('\n') +
    "\n- … and 2950 more scars, not listed here: `git kizu scan --all 'src/a b.js'` lists them all\n" +
    PROTOCOL +
    ' Resolve all 3000, the ones not listed too, before you finish your turn.';
  assert.deepEqual(JSON.parse(r.stdout), contextOutput(ctx));
  assert.ok(Buffer.byteLength(ctx) < BUDGET);
  // The command it names lists all of them.
  const scan = sb.kizu(['scan', '--all', 'src/a b.js']);
  assert.equal(scan.status, 1);
  assert.equal(scan.stdout.trim().split('\n').filter((l) => l.includes('task ')).length, 3000);
});

test('pre-commit: 3,000 staged scars → the first 50, then how many more and `git kizu scan --staged`', () => {
  const sb = sandbox({ files: { 'a.js': 'x\n' } });
  sb.write({ 'a.js': scarText(3000) + 'x\n' });
  sb.git('add', 'a.js');
  const r = sb.run(process.execPath, [path.join(sb.base, 'bin', 'git-kizu'), 'hook', 'pre-commit']);
  assert.equal(r.status, 1);
  assert.equal(r.stdout, '');
  assert.equal(
    r.stderr,
    'git-kizu: commit refused: 3000 unresolved scars are staged:\n' +
      Array.from({ length: PER_KIND }, (_, i) => `  "a.js":${i + 1}  [free]  task ${i}\n`).join('') +
      '  … and 2950 more staged scars, not listed here: git kizu scan --staged lists them all\n' +
      'Resolve each scar and remove its line (git kizu unscar <path>:<line>), then git add the file again.\n' +
      'If a scar cannot be resolved, ask the human reviewer: only they decide to commit it anyway.\n',
  );
  assert.ok(Buffer.byteLength(r.stderr) < BUDGET);
});

test('stop: 60 rejected and 60 unreviewed hunks (stop.requireReview) share the 6 KB: each kind summed up with `git kizu status` / `git kizu hunks`', () => {
  const sb = sandbox({ files: { 'README.md': '# x\n', '.kizurc.json': '{"stop": {"requireReview": true}}\n' } });
  const names = (p) => Array.from({ length: 60 }, (_, i) => `${p}${String(i).padStart(2, '0')}.js`);
  sb.write(Object.fromEntries(names('f').map((f) => [f, 'x\n'])));
  assert.equal(sb.kizu(['reject', '--all']).status, 0);
  sb.write(Object.fromEntries(names('g').map((f) => [f, 'y\n'])));
  const reason = stopReason(sb, false);
  const base = sb.git('rev-parse', 'HEAD').trim().slice(0, 12);
  const rej = (f) => `- "${f}":1 → a reviewer rejected this change without giving a reason: compare it with the baseline ("${f}" is a new file: the baseline ${base} does not have it), work out what is wrong, and rework or revert it`;
  const k = Math.floor(6144 / (Buffer.byteLength(rej('f00.js')) + 1));
  assert.equal(k, 27);
  assert.equal(
    reason,
    'git-kizu: a human reviewer left 60 rejected changes and 60 changes not reviewed yet. Resolve each one before you stop:\n' +
      names('f').slice(0, k).map(rej).join('\n') +
      `\n- … and ${60 - k} more rejected changes, not listed here: \`git kizu status\` lists them all` +
      // What the rejected lines leave of the 6 KB holds one unreviewed line.
      '\n- "g00.js":1 → not reviewed yet: only a human reviewer can tap or reject it (`git kizu review`); tell the user it is waiting for review' +
      '\n- … and 59 more changes not reviewed yet, not listed here: `git kizu hunks` lists them all' +
      `\nOnly ${k + 1} of the 120 are listed; the stop stays blocked until all 120 are resolved, the ones not listed too.`,
  );
  assert.ok(Buffer.byteLength(reason) < BUDGET);
});
