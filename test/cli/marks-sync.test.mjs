// `git kizu marks push|pull`: marks sync between clones through a bare repo or another
// clone's path, through the real bin (marks are set with the store API). Exact values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { sandbox, spawnAsync } from '../helpers/sandbox.mjs';
import { expectRun } from '../helpers/expect.mjs';
import { REF, commitWithMarks, corruptHint, count, hid, readMarks, setMarks, upd } from '../helpers/marks.mjs';
import { rev } from '../helpers/refs.mjs';

/** A bare repo and clones (name → dir) with their own user.email (`<name>@example.invalid`). */
function clones(...names) {
  const sb = sandbox({ init: false });
  const bare = path.join(sb.base, 'remote.git');
  sb.git('init', '-q', '--bare', bare, { cwd: sb.base });
  const dirs = {};
  for (const n of names) {
    dirs[n] = path.join(sb.base, n);
    sb.git('clone', '-q', bare, dirs[n], { cwd: sb.base });
    sb.git('config', 'user.email', `${n}@example.invalid`, { cwd: dirs[n] });
  }
  return { sb, bare, dirs };
}

const s7 = (oid) => oid.slice(0, 7);

const states = (m) => Object.fromEntries(Object.entries(m).map(([id, e]) => [id, `${e.state} by ${e.by}`]));

test('sync: A taps x, B rejects y, A untaps x later; push/pull converge to identical marks; repeats change nothing', () => {
  const { sb, bare, dirs } = clones('a', 'b');
  const A = dirs.a;
  const B = dirs.b;
  expectRun(sb, ['marks', 'push'], { status: 0, stdout: 'no marks to push\n', cwd: A });
  expectRun(sb, ['marks', 'pull'], { status: 0, stdout: 'origin has no marks\n', cwd: B });
  assert.equal(rev(sb, REF, B), '');

  setMarks(sb, [upd('x', 'tapped')], { cwd: A });
  const a1 = rev(sb, REF, A);
  expectRun(sb, ['marks', 'push'], { status: 0, stdout: `pushed ${s7(a1)} to origin\n`, cwd: A });
  assert.equal(rev(sb, REF, bare), a1);
  assert.equal(rev(sb, 'refs/kizu/remotes/origin/marks', A), a1);

  setMarks(sb, [upd('y', 'rejected', 'b.js', 'b.js:3')], { cwd: B });
  const b1 = rev(sb, REF, B);
  // B's push merges origin first: a merge commit with parents [local, remote]
  const r = sb.kizu(['marks', 'push'], { cwd: B });
  const m1 = rev(sb, REF, B);
  assert.deepEqual({ status: r.status, stdout: r.stdout, stderr: r.stderr }, { status: 0, stdout: `merged origin into ${REF} (${s7(m1)})\npushed ${s7(m1)} to origin\n`, stderr: '' });
  assert.equal(sb.git('rev-list', '--parents', '-1', REF, { cwd: B }).trim(), `${m1} ${b1} ${a1}`);
  assert.equal(rev(sb, REF, bare), m1);

  setMarks(sb, [upd('x', 'none')], { cwd: A }); // A untaps x after B's merge recorded A's tap
  const a2 = rev(sb, REF, A);
  const p = sb.kizu(['marks', 'pull'], { cwd: A });
  const m2 = rev(sb, REF, A);
  assert.deepEqual({ status: p.status, stdout: p.stdout, stderr: p.stderr }, { status: 0, stdout: `merged origin into ${REF} (${s7(m2)})\n`, stderr: '' });
  assert.equal(sb.git('rev-list', '--parents', '-1', REF, { cwd: A }).trim(), `${m2} ${a2} ${m1}`);
  expectRun(sb, ['marks', 'push'], { status: 0, stdout: `pushed ${s7(m2)} to origin\n`, cwd: A });
  expectRun(sb, ['marks', 'pull'], { status: 0, stdout: `fast-forwarded ${REF} to ${s7(m2)} from origin\n`, cwd: B });

  const want = { [hid('x')]: 'none by a@example.invalid', [hid('y')]: 'rejected by b@example.invalid' };
  assert.deepEqual(states(readMarks(sb, { cwd: A })), want);
  assert.deepEqual(readMarks(sb, { cwd: A }), readMarks(sb, { cwd: B }));
  assert.equal(rev(sb, REF, B), m2);
  assert.equal(rev(sb, REF, bare), m2);

  // idempotent: pulling and pushing again create no commit anywhere
  const n = count(sb, A);
  for (const d of [A, B, A, B]) expectRun(sb, ['marks', 'pull'], { status: 0, stdout: 'marks up to date with origin\n', cwd: d });
  for (const d of [A, B]) expectRun(sb, ['marks', 'push'], { status: 0, stdout: `origin already has ${s7(m2)}\n`, cwd: d });
  for (const d of [A, B, bare]) assert.equal(rev(sb, REF, d), m2);
  assert.equal(count(sb, A), n);
  assert.equal(count(sb, B), n);
});

test('sync: pulling straight from another clone (a path as remote) both ways; a stale tap cannot resurrect a newer untap', () => {
  const { sb, dirs } = clones('a', 'b');
  const A = dirs.a;
  const B = dirs.b;
  setMarks(sb, [upd('x', 'tapped'), upd('z', 'rejected')], { cwd: A });
  expectRun(sb, ['marks', 'pull', A], { status: 0, stdout: `fast-forwarded ${REF} to ${s7(rev(sb, REF, A))} from ${A}\n`, cwd: B });
  assert.equal(sb.git('for-each-ref', '--format=%(refname)', 'refs/kizu/remotes/', { cwd: B }).trim(), `refs/kizu/remotes/${A.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+|[._]+$/g, '')}/marks`);
  // both sides now diverge: B untaps x (B holds the stale tap), A taps y
  setMarks(sb, [upd('x', 'none')], { cwd: B });
  setMarks(sb, [upd('y', 'tapped', 'y.md', 'y.md:9')], { cwd: A });
  const a = rev(sb, REF, A);
  const b = rev(sb, REF, B);
  // each pulls the other's pre-merge tip: two different merge commits, equal marks
  const pa = sb.kizu(['marks', 'pull', B], { cwd: A });
  const pb = sb.kizu(['marks', 'pull', A], { cwd: B });
  assert.equal(pa.status, 0);
  assert.equal(pb.status, 0);
  const ma = rev(sb, REF, A);
  const mb = rev(sb, REF, B);
  assert.equal(pa.stdout, `merged ${B} into ${REF} (${s7(ma)})\n`);
  // B pulled after A merged, and A's merge contains B's tip → fast-forward, not a new merge
  assert.equal(pb.stdout, `fast-forwarded ${REF} to ${s7(ma)} from ${A}\n`);
  assert.equal(mb, ma);
  assert.equal(sb.git('rev-list', '--parents', '-1', REF, { cwd: A }).trim(), `${ma} ${a} ${b}`);
  const want = {
    [hid('x')]: 'none by b@example.invalid',
    [hid('y')]: 'tapped by a@example.invalid',
    [hid('z')]: 'rejected by a@example.invalid',
  };
  assert.deepEqual(states(readMarks(sb, { cwd: A })), want);
  assert.deepEqual(readMarks(sb, { cwd: A }), readMarks(sb, { cwd: B }));
  expectRun(sb, ['marks', 'pull', B], { status: 0, stdout: `marks up to date with ${B}\n`, cwd: A });
  expectRun(sb, ['marks', 'pull', A], { status: 0, stdout: `marks up to date with ${A}\n`, cwd: B });
  assert.equal(rev(sb, REF, A), ma);
});

test('sync: merges made on both sides at once (criss-cross) converge through origin, then stay put', () => {
  const { sb, bare, dirs } = clones('a', 'b');
  const A = dirs.a;
  const B = dirs.b;
  const side = path.join(sb.base, 'side.git');
  sb.git('init', '-q', '--bare', side, { cwd: sb.base });
  setMarks(sb, [upd('x', 'tapped')], { cwd: A });
  setMarks(sb, [upd('y', 'rejected')], { cwd: B });
  const a = rev(sb, REF, A);
  const b = rev(sb, REF, B);
  expectRun(sb, ['marks', 'push'], { status: 0, stdout: `pushed ${s7(a)} to origin\n`, cwd: A });
  expectRun(sb, ['marks', 'push', side], { status: 0, stdout: `pushed ${s7(b)} to ${side}\n`, cwd: B });
  // B merges origin (a) while A merges side (b): two different merge commits, equal marks
  const pb = sb.kizu(['marks', 'pull'], { cwd: B });
  const pa = sb.kizu(['marks', 'pull', side], { cwd: A });
  const mb = rev(sb, REF, B);
  const ma = rev(sb, REF, A);
  assert.equal(pb.stdout, `merged origin into ${REF} (${s7(mb)})\n`);
  assert.equal(pa.stdout, `merged ${side} into ${REF} (${s7(ma)})\n`);
  assert.equal(sb.git('rev-list', '--parents', '-1', REF, { cwd: B }).trim(), `${mb} ${b} ${a}`);
  assert.equal(sb.git('rev-list', '--parents', '-1', REF, { cwd: A }).trim(), `${ma} ${a} ${b}`);
  assert.notEqual(ma, mb);
  assert.deepEqual(readMarks(sb, { cwd: A }), readMarks(sb, { cwd: B }));
  // B pushes mb (a fast-forward of origin); A must merge mb before its push
  expectRun(sb, ['marks', 'push'], { status: 0, stdout: `pushed ${s7(mb)} to origin\n`, cwd: B });
  const r = sb.kizu(['marks', 'push'], { cwd: A });
  const m3 = rev(sb, REF, A);
  assert.deepEqual({ status: r.status, stdout: r.stdout, stderr: r.stderr }, { status: 0, stdout: `merged origin into ${REF} (${s7(m3)})\npushed ${s7(m3)} to origin\n`, stderr: '' });
  assert.equal(sb.git('rev-list', '--parents', '-1', REF, { cwd: A }).trim(), `${m3} ${ma} ${mb}`);
  expectRun(sb, ['marks', 'pull'], { status: 0, stdout: `fast-forwarded ${REF} to ${s7(m3)} from origin\n`, cwd: B });
  for (const d of [A, B, bare]) assert.equal(rev(sb, REF, d), m3);
  assert.deepEqual(states(readMarks(sb, { cwd: B })), { [hid('x')]: 'tapped by a@example.invalid', [hid('y')]: 'rejected by b@example.invalid' });
  assert.deepEqual(readMarks(sb, { cwd: A }), readMarks(sb, { cwd: B }));
  for (const d of [A, B]) expectRun(sb, ['marks', 'pull'], { status: 0, stdout: 'marks up to date with origin\n', cwd: d });
  for (const d of [A, B, bare]) assert.equal(rev(sb, REF, d), m3);
});

test('sync: 4 clones pushing at the same moment all land (lease CAS + retry)', async () => {
  const names = ['a', 'b', 'c', 'd'];
  const { sb, bare, dirs } = clones(...names);
  for (const n of names) setMarks(sb, [upd(n, 'tapped', `${n}.txt`, `${n}.txt:1`)], { cwd: dirs[n] });
  const results = await Promise.all(names.map((n) => spawnAsync('git', ['kizu', 'marks', 'push'], { cwd: dirs[n], env: sb.env })));
  for (const [i, r] of results.entries()) {
    assert.equal(r.status, 0, `${names[i]}: ${r.stderr}`);
    assert.equal(r.stderr, '');
    assert.match(r.stdout, /(^|\n)pushed [0-9a-f]{7} to origin\n$/);
  }
  for (const n of names) sb.kizu(['marks', 'pull'], { cwd: dirs[n] });
  const want = Object.fromEntries(names.map((n) => [hid(n), `tapped by ${n}@example.invalid`]));
  for (const n of names) {
    assert.deepEqual(states(readMarks(sb, { cwd: dirs[n] })), want, n);
    assert.equal(rev(sb, REF, dirs[n]), rev(sb, REF, bare), n);
  }
});

test('sync: unknown remote → exit 2 with git message and hint; corrupt remote marks refused, local unchanged', () => {
  const sb = sandbox();
  const hint = 'hint: check the name with `git remote -v` (add one with `git remote add <name> <url>`), or pass a URL or path\n';
  for (const args of [['marks', 'pull'], ['marks', 'push'], ['marks', 'pull', 'nope'], ['marks', 'push', 'nope']]) {
    const name = args[2] ?? 'origin';
    const r = sb.kizu(args);
    assert.deepEqual(
      { status: r.status, stdout: r.stdout, stderr: r.stderr },
      {
        status: 2,
        stdout: '',
        stderr: `git-kizu: error: cannot reach remote "${name}" (git exit 128): fatal: '${name}' does not appear to be a git repository; fatal: Could not read from remote repository.\n${hint}`,
      },
    );
  }

  const { sb: s2, bare, dirs } = clones('a');
  const A = dirs.a;
  setMarks(s2, [upd('x', 'tapped')], { cwd: A });
  const local = rev(s2, REF, A);
  const blob = s2.git('hash-object', '-w', '--stdin', { cwd: bare, input: 'junk\n' }).trim();
  s2.git('update-ref', REF, blob, { cwd: bare });
  const remoteHint =
    'hint: your refs/kizu/marks was not changed; the remote\'s marks are fetched into refs/kizu/remotes/origin/marks for inspection; whoever can push there can replace them with `git push origin +<good commit>:refs/kizu/marks` (or delete them with `git push origin :refs/kizu/marks`)\n';
  for (const cmd of ['pull', 'push']) {
    const r = s2.kizu(['marks', cmd], { cwd: A });
    assert.deepEqual(
      { status: r.status, stdout: r.stdout, stderr: r.stderr },
      { status: 2, stdout: '', stderr: `git-kizu: error: origin's refs/kizu/marks is corrupt: ${blob} is a blob, not a commit\n${remoteHint}` },
    );
    assert.equal(rev(s2, REF, A), local);
    assert.equal(rev(s2, REF, bare), blob);
  }
  // a corrupt local ref is never published
  s2.git('update-ref', '-d', REF, { cwd: bare });
  const bad = commitWithMarks(s2, '{"version": 1, "marks": 3}', 'marks.json', A);
  s2.git('update-ref', REF, bad, { cwd: A });
  const r = s2.kizu(['marks', 'push'], { cwd: A });
  assert.deepEqual(
    { status: r.status, stdout: r.stdout, stderr: r.stderr },
    { status: 2, stdout: '', stderr: `git-kizu: error: ${REF} is corrupt: marks.json has no "marks" object\nhint: ${corruptHint(REF)}\n` },
  );
  assert.equal(rev(s2, REF, bare), '');
});
