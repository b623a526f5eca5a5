// The review queue (.claude/review-queue.md) through `git kizu queue ...` and the Stop hook.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ROOT, hook, sandbox } from './sandbox.mjs';
import { stopPayload } from './hooks.mjs';

/** The queue file, relative to the repository root. */
export const Q = '.claude/review-queue.md';
/** What a new queue file starts with (templates/review-queue.md). */
export const TEMPLATE = readFileSync(path.join(ROOT, 'templates', 'review-queue.md'), 'utf8');
/** 1-based line of the first item appended to a new queue file. */
export const FIRST = TEMPLATE.split('\n').length;

/** The derived id of a hand-written item: `h` + 5 hex of SHA-1 of its whitespace-collapsed raw text. */
export const hid = (raw) => 'h' + createHash('sha1').update(raw.replace(/\s+/g, ' ').trim()).digest('hex').slice(0, 5);
/** `s` with `del` characters at `at` replaced by `ins`. */
export const splice = (s, at, del, ins = '') => s.slice(0, at) + ins + s.slice(at + del);
/** `s` with the first occurrence of `from` replaced by `to` (asserting it occurs once). */
export function replaceOnce(s, from, to) {
  assert.equal(s.split(from).length, 2, `expected exactly one ${JSON.stringify(from)}`);
  return s.replace(from, () => to);
}

/** A repo with src/app.ts (three lines) and `files` committed. */
export function repo(files = {}) {
  return sandbox({ files: { 'src/app.ts': 'one\ntwo\nthree\n', ...files } });
}

/** `git kizu queue add <args>`: asserts success and one id on stdout, returns the id. */
export function add(sb, ...args) {
  const r = sb.kizu(['queue', 'add', ...args]);
  assert.equal(r.stderr, '', `queue add ${args.join(' ')}`);
  assert.equal(r.status, 0);
  assert.match(r.stdout, /^[0-9a-z]{4}\n$/);
  return r.stdout.trim();
}

/** Runs `git kizu queue <args>` and asserts exit 0, exactly `stdout` and no stderr. */
export function queueOk(sb, args, stdout) {
  const r = sb.kizu(['queue', ...args]);
  assert.deepEqual({ status: r.status, stdout: r.stdout, stderr: r.stderr }, { status: 0, stdout, stderr: '' }, `queue ${args.join(' ')}`);
}

/** Runs `git kizu queue <args>`, asserts the exit code and stderr (a string, or a RegExp it matches) and that the queue file is unchanged. */
export function refused(sb, args, status, stderr) {
  const isFile = existsSync(sb.path(Q)) && lstatSync(sb.path(Q)).isFile();
  const before = isFile ? sb.read(Q, 'buffer') : null;
  const r = sb.kizu(['queue', ...args]);
  assert.equal(r.stdout, '', `queue ${args.join(' ')}`);
  if (stderr instanceof RegExp) assert.match(r.stderr, stderr);
  else assert.equal(r.stderr, stderr, `queue ${args.join(' ')}`);
  assert.equal(r.status, status, `queue ${args.join(' ')}`);
  if (before !== null) assert.deepEqual(sb.read(Q, 'buffer'), before, 'queue file unchanged');
  else if (!existsSync(sb.path(Q))) assert.equal(existsSync(sb.path('.claude')), false, 'no queue file created');
}

/** `git kizu queue list --all --json <extra>` parsed; asserts exit 0 and no stderr. */
export const queueJson = (sb, ...extra) => {
  const r = sb.kizu(['queue', 'list', '--all', '--json', ...extra]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  return JSON.parse(r.stdout);
};
/** A queue item as `queue list --json` prints it. */
export const J = (id, checked, kind, p, line, text, queueLine) => ({ id, checked, kind, path: p, line, text, queueLine });
/** The line the hooks print for an open item. */
export const line = (id, desc, verb = 'do what it says') => `- [${id}] ${desc} → ${verb}, then run \`git kizu queue done ${id}\``;

/**
 * Runs the Stop hook; asserts exit 0 and exactly `stderr`; returns the parsed stdout (null if
 * empty). `active` false is the first stop of a new turn: the session's block count from an
 * earlier stop is dropped first, as it is once the retry window has passed (the count itself
 * is tested in test/cli/hooks.test.mjs).
 */
export function stop(sb, active, stderr = '') {
  if (!active) rmSync(path.join(sb.dir, '.git', 'kizu', 'stop', 'sess-1.json'), { force: true });
  const r = hook(sb, 'stop', stopPayload(sb, active));
  assert.equal(r.status, 0);
  assert.equal(r.stderr, stderr);
  return r.stdout === '' ? null : JSON.parse(r.stdout);
}
