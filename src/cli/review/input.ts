/**
 * Terminal input for `git kizu review`: raw-mode bytes split into keys, an async key queue,
 * and a small line editor (echo, Backspace, Ctrl-U, Enter, Esc) on top of it.
 */

/** Special keys, as names that can never be a configured (one-character) key. */
export const KEY = {
  ENTER: '<enter>',
  ESC: '<esc>',
  BACKSPACE: '<backspace>',
  CTRL_C: '<ctrl-c>',
  CTRL_D: '<ctrl-d>',
  CTRL_U: '<ctrl-u>',
  /** An escape sequence (arrow or function key) or another control character: ignored. */
  OTHER: '<other>',
  /** The input ended (stdin closed). */
  EOF: '<eof>',
} as const;

/** True for the {@link KEY} names (every other key is one character). */
export function isSpecialKey(k: string): boolean {
  return k.length > 1 && k.startsWith('<') && k.endsWith('>');
}

/** True for the keys that end the review at once (Ctrl-C, Ctrl-D, end of input). */
export function isQuitKey(k: string): boolean {
  return k === KEY.CTRL_C || k === KEY.CTRL_D || k === KEY.EOF;
}

/**
 * Splits a chunk of raw terminal input (UTF-8 decoded) into keys: printable characters one
 * code point each, CR / LF / CRLF as Enter, DEL and BS as Backspace, Ctrl-C, Ctrl-D,
 * Ctrl-U, a lone ESC as Esc; CSI (`ESC [ ... final`) and SS3 (`ESC O x`) sequences and any
 * other control character as {@link KEY.OTHER}.
 */
export function splitKeys(chunk: string): string[] {
  const out: string[] = [];
  const cps = [...chunk];
  for (let i = 0; i < cps.length; i++) {
    const c = cps[i];
    if (c === '\x1b') {
      const n = cps[i + 1];
      if (n === '[') {
        let j = i + 2;
        while (j < cps.length && !/[\x40-\x7e]/.test(cps[j])) j++;
        i = j;
        out.push(KEY.OTHER);
      } else if (n === 'O' && i + 2 < cps.length) {
        i += 2;
        out.push(KEY.OTHER);
      } else out.push(KEY.ESC);
    } else if (c === '\r') {
      if (cps[i + 1] === '\n') i++;
      out.push(KEY.ENTER);
    } else if (c === '\n') out.push(KEY.ENTER);
    else if (c === '\x7f' || c === '\b') out.push(KEY.BACKSPACE);
    else if (c === '\x03') out.push(KEY.CTRL_C);
    else if (c === '\x04') out.push(KEY.CTRL_D);
    else if (c === '\x15') out.push(KEY.CTRL_U);
    else if (/[\u0000-\u001f\u0080-\u009f]/.test(c)) out.push(KEY.OTHER);
    else out.push(c);
  }
  return out;
}

/** A queue of keys fed from terminal chunks; {@link next} waits for the next one. */
export class KeyQueue {
  private keys: string[] = [];
  private waiting: ((k: string) => void)[] = [];
  private ended = false;

  /** Adds the keys of a raw input chunk. */
  feed(chunk: string): void {
    for (const k of splitKeys(chunk)) this.push(k);
  }

  /** Marks the end of input: every later {@link next} returns {@link KEY.EOF}. */
  end(): void {
    this.ended = true;
    for (const w of this.waiting.splice(0)) w(KEY.EOF);
  }

  private push(k: string): void {
    const w = this.waiting.shift();
    if (w) w(k);
    else this.keys.push(k);
  }

  /** The next key (typed-ahead keys first). */
  next(): Promise<string> {
    const k = this.keys.shift();
    if (k !== undefined) return Promise.resolve(k);
    if (this.ended) return Promise.resolve(KEY.EOF);
    return new Promise((resolve) => this.waiting.push(resolve));
  }
}

/** What a line prompt returns: the text, `null` when cancelled (Esc), or 'quit' (Ctrl-C, Ctrl-D, end of input). */
export type LineResult = { text: string } | null | 'quit';

/**
 * Reads one line with echo from raw keys: printable characters are added and echoed,
 * Backspace removes the last character, Ctrl-U clears the line, Enter ends it, Esc
 * cancels, Ctrl-C / Ctrl-D / end of input quit. Other keys are ignored.
 */
export async function readLineWith(readKey: () => Promise<string>, write: (s: string) => void, prompt: string): Promise<LineResult> {
  write(prompt);
  const chars: string[] = [];
  for (;;) {
    const k = await readKey();
    if (isQuitKey(k)) {
      write('\n');
      return 'quit';
    }
    if (k === KEY.ENTER) {
      write('\n');
      return { text: chars.join('') };
    }
    if (k === KEY.ESC) {
      write('\n');
      return null;
    }
    if (k === KEY.BACKSPACE) {
      if (chars.pop() !== undefined) write('\b \b');
    } else if (k === KEY.CTRL_U) {
      write('\b \b'.repeat(chars.length));
      chars.length = 0;
    } else if ([...k].length === 1) {
      chars.push(k);
      write(k);
    }
  }
}

/** The input side of a review session on a terminal. */
export interface TerminalInput {
  readKey(): Promise<string>;
  /** Leaves raw mode and stops reading (idempotent). */
  close(): void;
}

/**
 * Puts a TTY stdin into raw mode (one key at a time, no echo, Ctrl-C as a key) and reads
 * keys from it. Raw mode is left by {@link TerminalInput.close}, on process exit, and on
 * SIGTERM / SIGHUP / SIGINT sent from outside (which then end the process with 128 + the
 * signal number; in raw mode Ctrl-C is a key, not a signal).
 */
export function terminalInput(stdin: NodeJS.ReadStream): TerminalInput {
  const q = new KeyQueue();
  const onData = (d: string) => q.feed(d);
  const onEnd = () => q.end();
  let open = true;
  const close = () => {
    if (!open) return;
    open = false;
    stdin.off('data', onData);
    stdin.off('end', onEnd);
    try {
      stdin.setRawMode(false);
    } catch {
      /* the terminal is gone */
    }
    stdin.pause();
    process.off('exit', close);
    for (const [sig, h] of handlers) process.off(sig, h);
  };
  const handlers: [NodeJS.Signals, () => void][] = [
    ['SIGTERM', () => (close(), process.exit(143))],
    ['SIGHUP', () => (close(), process.exit(129))],
    ['SIGINT', () => (close(), process.exit(130))],
  ];
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  stdin.on('data', onData);
  stdin.on('end', onEnd);
  stdin.resume();
  process.on('exit', close);
  for (const [sig, h] of handlers) process.on(sig, h);
  return { readKey: () => q.next(), close };
}
