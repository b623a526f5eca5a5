/**
 * Progress on stderr for work that takes a while (git's convention: a count that updates in
 * place on a terminal, shown only once the work has run for a moment, nothing when stderr is
 * not a terminal). Drawn by cli-progress, loaded only when the bar is about to show.
 */
import { createRequire } from 'node:module';
import type { SingleBar } from 'cli-progress';

/** A progress report (see {@link delayedProgress}). */
export interface Progress {
  /** `done` of `total` units so far (total may still grow). */
  update(done: number, total: number): void;
  /**
   * Ends the report: a bar that was shown is drawn once more with the last count and left on
   * its line. Done synchronously (the promise is for callers that await it).
   */
  stop(): Promise<void>;
}

/** Nothing shown. */
export const noProgress: Progress = { update() {}, async stop() {} };

/** How long work runs before its progress shows, in milliseconds (git shows delayed progress after 2 s). */
export const PROGRESS_DELAY_MS = 1000;

/**
 * A progress report titled `title` (`snapshot: hashing files 45% (9000/20000)`) on `stream`
 * (default stderr): nothing unless it is a terminal, and nothing until `delayMs` have passed
 * (default {@link PROGRESS_DELAY_MS}; the environment variable KIZU_PROGRESS_DELAY_MS
 * overrides it, for tests), so that quick work prints nothing.
 */
export function delayedProgress(title: string, opts: { stream?: NodeJS.WriteStream; delayMs?: number; env?: NodeJS.ProcessEnv } = {}): Progress {
  const stream = opts.stream ?? process.stderr;
  if (!stream.isTTY) return noProgress;
  const env = opts.env ?? process.env;
  const fromEnv = env.KIZU_PROGRESS_DELAY_MS !== undefined && /^\d+$/.test(env.KIZU_PROGRESS_DELAY_MS) ? Number(env.KIZU_PROGRESS_DELAY_MS) : undefined;
  const delay = fromEnv ?? opts.delayMs ?? PROGRESS_DELAY_MS;
  const start = Date.now();
  let done = 0;
  let total = 0;
  let bar: SingleBar | null = null;
  let ended = false;
  // Loaded synchronously: the work may be a synchronous loop (writing files) that only
  // calls update(), so the bar must be able to start from there.
  const show = () => {
    if (bar || ended) return;
    const cli = createRequire(import.meta.url)('cli-progress') as typeof import('cli-progress');
    bar = new cli.SingleBar(
      { stream, format: `${title} {bar} {percentage}% ({value}/{total})`, barsize: 30, hideCursor: false, clearOnComplete: false, fps: 10 },
      cli.Presets.shades_classic,
    );
    bar.start(Math.max(total, done, 1), done);
  };
  const timer = setTimeout(show, delay);
  timer.unref();
  return {
    update(d, t) {
      done = d;
      total = t;
      if (!bar && Date.now() - start >= delay) show();
      if (bar) {
        if (t !== bar.getTotal()) bar.setTotal(Math.max(t, 1));
        bar.update(d);
      }
    },
    async stop() {
      clearTimeout(timer);
      ended = true;
      const b = bar as SingleBar | null;
      if (b) {
        b.setTotal(Math.max(total, done, 1));
        b.update(done);
        b.stop();
        bar = null;
      }
    },
  };
}

/** Progress of work in named phases, one report each (see {@link phasedProgress}). */
export interface PhasedProgress {
  /** `done` of `total` in `phase`; a new phase ends the report of the one before. */
  update(phase: string, done: number, total: number): void;
  /** Ends the current phase's report (call before printing anything else on the terminal). */
  stop(): Promise<void>;
}

/**
 * One {@link delayedProgress} per phase, titled `titles[phase]` (a phase without a title
 * shows nothing), on stderr: `rollback: reading the working tree`, then `rollback: writing
 * files`. Each phase gets its own delay, so quick phases print nothing.
 */
export function phasedProgress(titles: Record<string, string>, opts: { stream?: NodeJS.WriteStream; env?: NodeJS.ProcessEnv } = {}): PhasedProgress {
  let phase: string | null = null;
  let current: Progress = noProgress;
  return {
    update(p, done, total) {
      if (p !== phase) {
        // Drawn to its end now: the next phase may be a synchronous loop.
        void current.stop();
        phase = p;
        current = titles[p] ? delayedProgress(titles[p], opts) : noProgress;
      }
      current.update(done, total);
    },
    async stop() {
      const old = current;
      current = noProgress;
      phase = null;
      await old.stop();
    },
  };
}
