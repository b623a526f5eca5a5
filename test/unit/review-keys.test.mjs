// Key input of `git kizu review` (src/cli/review/input.ts): raw terminal input split into
// keys, and line editing of the reason prompt.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { src } from '../helpers/sandbox.mjs';

test('review: the key splitter turns raw terminal input into keys', async () => {
  const { splitKeys, readLineWith, KeyQueue } = await import(src('cli/review/input.ts'));
  assert.deepEqual(splitKeys('a X!\x1b[A\x1bOP\x1b\r\n\r\x7f\b\x03\x04\x15\x01é😀'), [
    'a', ' ', 'X', '!', '<other>', '<other>', '<esc>', '<enter>', '<enter>', '<backspace>', '<backspace>', '<ctrl-c>', '<ctrl-d>', '<ctrl-u>', '<other>', 'é', '😀',
  ]);
  const kq = new KeyQueue();
  kq.feed('ab');
  kq.feed('\x7fc\x15xy\r');
  let out = '';
  assert.deepEqual(await readLineWith(() => kq.next(), (s) => (out += s), '> '), { text: 'xy' });
  assert.equal(out, '> ab\b \bc\b \b\b \bxy\n');
  kq.feed('z\x1b');
  assert.equal(await readLineWith(() => kq.next(), () => {}, ''), null);
  kq.end();
  assert.equal(await readLineWith(() => kq.next(), () => {}, ''), 'quit');
  assert.equal(await kq.next(), '<eof>');
});
