/**
 * Where commands send human-readable lines, and the terminal conventions of git that decide
 * how they look: colour (this module), the pager (src/pager.ts sends the Reporter's lines
 * through it), path quoting (src/git/quote.ts). Commands never write to process.stdout
 * directly; they take a Reporter so that tests and the demo can capture output.
 */
import { createRequire } from 'node:module';
import { terminalLine } from './printable.js';

/** The picocolors formatters (picocolors' `Colors`). */
export type Colors = Omit<typeof import('picocolors'), 'createColors'>;

/** The `--color=<when>` values, as git(1) names them. */
export const COLOR_WHENS = ['always', 'never', 'auto'] as const;

/** A `--color=<when>` value, as git(1) names them. */
export type ColorWhen = (typeof COLOR_WHENS)[number];

/**
 * Parses the value of `--color[=<when>]` as git does (git_config_colorbool with no variable):
 * `always`, `never`, `auto`, and git's boolean words (true/yes/on/1 = always, false/no/off/0
 * = never), any case. A bare `--color` is `always` (commander gives `true`).
 * @returns the value, or null when it is none of these.
 */
export function parseColorWhen(v: string | boolean | undefined): ColorWhen | null {
  if (v === true || v === undefined) return 'always';
  if (v === false) return 'never';
  const s = v.toLowerCase();
  if (s === 'always' || s === 'never' || s === 'auto') return s;
  if (['true', 'yes', 'on', '1'].includes(s)) return 'always';
  if (['false', 'no', 'off', '0'].includes(s)) return 'never';
  return null;
}

/** What the colour decision depends on. */
export interface ColorInputs {
  /** `--color=<when>` / `--no-color` (the last one given), or undefined for neither. */
  when?: ColorWhen;
  /** NO_COLOR and TERM are read from it. */
  env: NodeJS.ProcessEnv;
  /** Whether the stream the output goes to is a terminal. */
  isTTY: boolean;
  /**
   * git's answer for a terminal: `git config --get-colorbool color.kizu true` (color.kizu,
   * else color.ui: never/false off, always/auto/true/unset on, TERM=dumb off). Called only
   * when the answer depends on it: no flag, NO_COLOR unset or empty, a terminal.
   */
  gitColor?: () => boolean | Promise<boolean>;
}

/**
 * The one colour decision (git's rules, plus NO_COLOR from no-color.org):
 * 1. `--color=always` on, `--color=never` / `--no-color` off; `--color=auto`: on for a
 *    terminal whose TERM is not `dumb` (git's auto, config not read);
 * 2. NO_COLOR set and not empty: off;
 * 3. not a terminal: off (git's config is not read, so `color.ui=always` does not colour a
 *    pipe: use --color=always);
 * 4. a terminal: git's `color.kizu`, else `color.ui` ({@link ColorInputs.gitColor}); without
 *    that answer, on unless TERM is `dumb`.
 */
export async function decideColor(i: ColorInputs): Promise<boolean> {
  if (i.when === 'always') return true;
  if (i.when === 'never') return false;
  const termOk = i.isTTY && i.env.TERM !== 'dumb';
  if (i.when === 'auto') return termOk;
  if (i.env.NO_COLOR) return false;
  if (!i.isTTY) return false;
  return i.gitColor ? await i.gitColor() : termOk;
}

/**
 * The first guess, before the command line is parsed (for commander's usage errors): the
 * last `--color[=<when>]` / `--no-color` in `argv` before `--`, NO_COLOR and the terminal;
 * git's config is not read.
 */
export function earlyColor(argv: string[], env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  let when: ColorWhen | undefined;
  for (const a of argv) {
    if (a === '--') break;
    if (a === '--no-color') when = 'never';
    else if (a === '--color') when = 'always';
    else if (a.startsWith('--color=')) when = parseColorWhen(a.slice(8)) ?? when;
  }
  if (when === 'always') return true;
  if (when === 'never') return false;
  const termOk = isTTY && env.TERM !== 'dumb';
  return when === 'auto' ? termOk : !env.NO_COLOR && termOk;
}

const FORMATS = ['reset', 'bold', 'dim', 'italic', 'underline', 'inverse', 'hidden', 'strikethrough', 'black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white', 'gray'] as const;
const BG = ['bgBlack', 'bgRed', 'bgGreen', 'bgYellow', 'bgBlue', 'bgMagenta', 'bgCyan', 'bgWhite'] as const;
const BRIGHT = [...FORMATS.slice(8, 16).map((c) => `${c}Bright`), ...BG.map((c) => `${c}Bright`)];

/**
 * Formatters for `on`: picocolors' `createColors(true)`, else what `createColors(false)`
 * gives (every formatter is `String`) without loading the package (that costs several
 * milliseconds on every command).
 */
function colors(on: boolean): Colors {
  if (on) {
    const p = createRequire(import.meta.url)('picocolors') as typeof import('picocolors');
    return { ...p.createColors(true), isColorSupported: true } as Colors;
  }
  return Object.fromEntries([['isColorSupported', false], ...[...FORMATS, ...BG, ...BRIGHT].map((k) => [k, String])]) as Colors;
}

/** Colours for stdout; set by {@link setColors} (the first guess until the command line is read). */
export const pc: Colors = colors(earlyColor(process.argv, process.env, !!process.stdout.isTTY));
/** Colours for stderr (warnings, errors); set with {@link setColors}. */
export const pcErr: Colors = colors(earlyColor(process.argv, process.env, !!process.stderr.isTTY));

/** True when stdout's colours are on (then `git diff` and `git show` get `--color=always`). */
export function colorOn(): boolean {
  return pc.isColorSupported;
}

/**
 * Sets the colours of stdout and stderr (src/cli/program.ts calls it once, with
 * {@link decideColor}'s answers, before the command runs).
 */
export function setColors(stdout: boolean, stderr: boolean): void {
  if (stdout !== pc.isColorSupported) Object.assign(pc, colors(stdout));
  if (stderr !== pcErr.isColorSupported) Object.assign(pcErr, colors(stderr));
}

/**
 * `--color=always` or `--no-color`, for a git command whose output is shown to the user
 * (`git diff`, `git show`): git colours it exactly when ours is.
 */
export function gitColorArg(): string {
  return colorOn() ? '--color=always' : '--no-color';
}

/**
 * Where a command's lines go. Every line is escaped on its way out (src/printable.ts
 * `terminalLine`): control characters, C1 and bidi controls become visible escapes, and only
 * colour (SGR) sequences pass, and only while colours are on. So a line that carries text
 * from the repository unescaped still cannot drive the terminal. (Commands escape such text
 * where they put it in a line too, with `printable`, so that a line break in it cannot start
 * a line of its own.) JSON lines stay valid JSON with the same value.
 */
export interface Reporter {
  /** A normal output line (stdout); it may hold line feeds. */
  log(line: string): void;
  /** A warning line (stderr), prefixed "git-kizu: warning: ". */
  warn(line: string): void;
}

let sink: { write(s: string): unknown } = process.stdout;

/**
 * Sends what {@link consoleReporter} logs to `to` (the pager's stdin, src/pager.ts) instead
 * of stdout; `null` sends it back to stdout.
 */
export function redirectOutput(to: { write(s: string): unknown } | null): void {
  sink = to ?? process.stdout;
}

/**
 * True while a pager shows stdout: progress on stderr would then be drawn over the pager's
 * screen, so it stays off (git sends its stderr into the pager instead).
 */
export function outputPaged(): boolean {
  return sink !== process.stdout;
}

/** Reporter writing to the process streams (stdout, or the pager while one runs). */
export const consoleReporter: Reporter = {
  log: (line) => sink.write(terminalLine(line, pc.isColorSupported) + '\n'),
  warn: (line) => process.stderr.write(`${pcErr.yellow('git-kizu: warning:')} ${terminalLine(line, pcErr.isColorSupported)}\n`),
};

/** Reporter that collects lines in memory (for the demo and tests), escaped as {@link consoleReporter} escapes them. */
export function memoryReporter(): Reporter & { lines: string[]; warnings: string[] } {
  const lines: string[] = [];
  const warnings: string[] = [];
  return { lines, warnings, log: (l) => lines.push(terminalLine(l, pc.isColorSupported)), warn: (l) => warnings.push(terminalLine(l, pcErr.isColorSupported)) };
}

let pipesGuarded = false;

/**
 * Makes a closed stdout or stderr (`git kizu rollback snapshot ... | head -1`) end the output
 * quietly instead of ending the process: the command goes on to the end with its output
 * dropped, so that nothing is left half done (a rollback without its undo record, an init
 * without its settings). Only the output is lost; the exit code is the command's own.
 * Other stream errors are thrown as before. Installs once per process.
 */
export function guardClosedPipes(): void {
  if (pipesGuarded) return;
  pipesGuarded = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED') return;
      throw e;
    });
  }
}
