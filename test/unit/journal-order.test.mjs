// editOrder (src/rollback/journal/journal.ts): journal entries put in the order the edits
// happened, each file's entries by their content chain, on made-up entries (no repository).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { src } from '../helpers/sandbox.mjs';

const { editOrder, REORDER_WINDOW_MS } = await import(src('rollback/journal/journal.ts'));

const T0 = Date.parse('2026-01-01T00:00:00.000Z');

/**
 * An entry `id` of `tool` at `ms` after T0, recorded `seq`-th, changing each [path, before,
 * after] (content names stand in for blob ids; null: absent).
 */
function entry(id, seq, ms, files, tool = 'Edit') {
  return {
    id,
    seq,
    time: new Date(T0 + ms).toISOString(),
    tool,
    session: null,
    toolUseId: null,
    files: files.map(([path, before, after]) => ({ path, before, after, added: 1, removed: 1 })),
  };
}

/** editOrder of entries given in recording order, sorted by time first as readJournal does. */
function order(list) {
  const base = list.slice().sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : a.seq - b.seq));
  return editOrder(base).map((e) => e.id);
}

/** The breaks in one file's chain: entries that do not start from the content the one before left. */
function breaks(ids, list) {
  const by = new Map(list.map((e) => [e.id, e.files[0]]));
  let n = 0;
  for (let k = 1; k < ids.length; k++) if (by.get(ids[k - 1]).after !== by.get(ids[k]).before) n++;
  return n;
}

test('editOrder: a chain recorded in order comes back unchanged, also when content comes back (A→B→A→B); with edits outside the journal it only changes to have fewer breaks', () => {
  // A fixed pseudo-random walk over four contents, for gaps sometimes jumping (an edit outside the journal).
  let seed = 7;
  const rnd = (n) => {
    // mulberry32
    let t = (seed = (seed + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
  let reordered = 0;
  for (const jumps of [false, true]) {
    for (let round = 0; round < 50; round++) {
      const list = [];
      let state = 'c0';
      for (let k = 0; k < 12; k++) {
        const from = jumps && rnd(4) === 0 ? `c${rnd(4)}` : state;
        let to = `c${rnd(4)}`;
        if (to === from) to = from === 'c0' ? 'c1' : 'c0';
        list.push(entry(`e${k}`, k, k * 10, [['f', from, to]]));
        state = to;
      }
      const ids = list.map((e) => e.id);
      const got = order(list);
      if (!jumps) assert.deepEqual(got, ids, `round ${round}`);
      else {
        assert.deepEqual(got.slice().sort(), ids.slice().sort());
        if (got.join() !== ids.join()) (reordered++, assert.ok(breaks(got, list) < breaks(ids, list), `round ${round}: ${got} has fewer breaks than ${ids}`));
      }
    }
  }
  // The walk has such coincidences (the count is fixed by the seed).
  assert.equal(reordered, 35);
  // An edit outside the journal no move can make up for: time order stands.
  assert.deepEqual(order([entry('a', 0, 0, [['f', 'X', 'Y']]), entry('b', 1, 1, [['f', 'Z', 'W']]), entry('c', 2, 2, [['f', 'W', 'Z']])]), ['a', 'b', 'c']);
});

test('editOrder: entries of a file recorded out of order follow their content; other files and far-apart entries keep their times', () => {
  // b recorded (and timed) before a, but a's after is b's before.
  assert.deepEqual(order([entry('b', 0, 0, [['f', 'S1', 'S2']]), entry('a', 1, 5, [['f', 'S0', 'S1']])]), ['a', 'b']);
  // Three edits in reverse, an unrelated file's entry in between stays where its time puts it.
  assert.deepEqual(
    order([entry('c', 0, 0, [['f', 'S2', 'S3']]), entry('g', 1, 1, [['g', 'x', 'y']]), entry('b', 2, 2, [['f', 'S1', 'S2']]), entry('a', 3, 3, [['f', 'S0', 'S1']])]),
    ['g', 'a', 'b', 'c'],
  );
  // A created file: the Write (before absent) goes first.
  assert.deepEqual(order([entry('e1', 0, 0, [['f', 'S1', 'S2']]), entry('w', 1, 1, [['f', null, 'S1']])]), ['w', 'e1']);
  // More than the window apart: time order stands.
  assert.deepEqual(order([entry('b', 0, 0, [['f', 'S1', 'S2']]), entry('a', 1, REORDER_WINDOW_MS + 1, [['f', 'S0', 'S1']])]), ['b', 'a']);
  // A rollback (recorded by the command at once) stays after the entries recorded before it,
  // though its content (S2 → S0) would also fit first.
  assert.deepEqual(
    order([entry('b', 0, 0, [['f', 'S1', 'S2']]), entry('a', 1, 1, [['f', 'S0', 'S1']]), entry('r', 2, 2, [['f', 'S2', 'S0']], 'rollback')]),
    ['a', 'b', 'r'],
  );
  // An entry whose old content is unknown starts a chain.
  const unknown = entry('u', 1, 1, [['f', null, 'S1']]);
  unknown.files[0].beforeUnknown = true;
  assert.deepEqual(order([entry('e', 0, 0, [['f', 'S1', 'S2']]), unknown]), ['u', 'e']);
});

test('editOrder: a created file edited five times, recorded in any of the 720 orders, comes back in edit order', () => {
  const perms = (a) => (a.length <= 1 ? [a] : a.flatMap((x, k) => perms([...a.slice(0, k), ...a.slice(k + 1)]).map((p) => [x, ...p])));
  const chain = Array.from({ length: 6 }, (_, k) => [`e${k}`, k ? `S${k}` : null, `S${k + 1}`]);
  const wrong = [];
  for (const p of perms([0, 1, 2, 3, 4, 5])) {
    // Recorded (and timed) in the order p.
    const got = order(p.map((k, at) => entry(chain[k][0], at, at, [['f', chain[k][1], chain[k][2]]])));
    if (got.join() !== 'e0,e1,e2,e3,e4,e5') wrong.push(`${p} gave ${got}`);
  }
  assert.deepEqual(wrong, []);
});

test('editOrder: files that disagree (only contrived content can) still give every entry once', () => {
  const list = [entry('p', 0, 0, [['f', 'S1', 'S2'], ['g', 'T0', 'T1']]), entry('q', 1, 1, [['f', 'S0', 'S1'], ['g', 'T1', 'T2']])];
  const got = order(list);
  assert.deepEqual(got.slice().sort(), ['p', 'q']);
  assert.deepEqual(got, ['p', 'q']);
});
