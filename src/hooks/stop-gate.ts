/**
 * `stop` handler: blocks the agent's stop while scars remain in the default scan scope
 * (changed vs the baseline, staged, untracked-not-ignored, files hidden by assume-unchanged or
 * skip-worktree, by an ignore rule not in the baseline or by an attribute), open review queue items, rejected hunks (rejections that outlived their
 * hunk included: committed, or edited instead of reverted; hunks/rejections.ts), (with
 * `stop.requireReview`) unreviewed hunks, changed files whose name is not valid UTF-8
 * (nobody can review them) or that cannot be read (their scars are unknown), or ignored
 * directories that an ignore rule not in the baseline hides and that are too large to review
 * file by file (git/hidden-by-rules.ts). Answers `block` to keep the agent
 * working, `allow` with a message to let it stop while telling the user what is left, or
 * nothing.
 *
 * Bounded retries: the handler keeps blocking while the unresolved set changes (progress).
 * After `stop.maxBlocks` consecutive blocks with the same unresolved set in one session it
 * allows the stop. The bound is git-kizu's own and never relies on the client: Codex and
 * Gemini CLI have no limit on stop-hook blocks, and a client's retry flag
 * (`stop_hook_active`) has been seen always false (Gemini CLI, older versions). So a stop
 * continues the count when it has the same unresolved set as the last block of the session
 * and either the client says it is a retry or that block was less than
 * {@link RETRY_WINDOW_MS} ago; otherwise it starts a new count (a new turn).
 * State: `<git-dir>/kizu/stop/<session_id>.json` = `{"key": <sha1 of the set>, "streak": n, "at": <ms since epoch>}`.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { commonDirFast, findRootFast, gitDirFast } from '../git/repo.js';
import { guardCheckedFile, stopStateFile } from '../git/layout.js';
import { replaceFileSync } from '../files.js';
import { loadConfigLenient } from '../config/config.js';
import { scanHiddenByRules, scanRepo, type ScanBound } from '../scars/scan.js';
import { NO_ANSWER, type HookAnswer, type StopInput } from './contract.js';
import { foundUserNote, guardMissingMessage, hiddenChangesMessage, queueNotRead, stopBlockReason, stopGivenUpMessage, unreadableGivenUpMessage, unreadableNamesMessage, unreadableNamesReason, untrustedConfigMessage, unscannedGivenUpMessage, unscannedMessage, unscannedReason, ruleHiddenMessage, hiddenDirsReason, userMessage, lostGivenUpMessage, lostStateReason, lostStateUserMessage, uncheckedReason, uncheckedState, uncheckedUserMessage, oneLine, uncheckableReason, uncheckableMessage, uncheckableGivenUpMessage, type StopFindings } from './text.js';
import { splitByOrigin } from '../provenance/classify.js';
import { QUEUE_FILE } from '../queue/paths.js';
import { hunkReviewOrNone } from './hunk-review.js';
import { vanishedItems, type RecordedItem } from '../queue/record.js';
import { lostState } from './lost-state.js';
import { KizuError } from '../errors.js';
import type { QueueItem } from '../queue/item.js';

/**
 * How long (ms) after a block a stop with the same unresolved set counts as a retry of it even
 * when the client does not flag it as one: an agent that was blocked works on and stops again
 * within this time; a stop later than this is taken as a new turn.
 */
export const RETRY_WINDOW_MS = 15 * 60_000;

/**
 * How long (ms, from the hook process's start) the Stop hook reads files for scars at most.
 * The agents' runners kill it at 30 s (the timeout `git kizu init` writes: agents/claude/settings.ts
 * STOP_TIMEOUT_S), which lets the agent stop; the rest of the hook's work fits in what is left.
 */
export const STOP_SCAN_MS = 20_000;

/** Bytes the Stop hook reads for scars at most (past it the rest is not read and the stop blocks). */
export const STOP_SCAN_BYTES = 64 * 1024 * 1024;

/** The scan bound of the Stop hook (and of `status`, which says what the hook would do): `maxFiles` from the config (`stop.maxFiles`). */
export function stopScanBound(maxFiles: number): ScanBound {
  return { maxFiles, maxBytes: STOP_SCAN_BYTES, deadline: Math.round(performance.timeOrigin) + STOP_SCAN_MS };
}

interface StopState {
  key: string;
  streak: number;
  /** When the block was written (ms since the epoch); 0 in states of earlier versions. */
  at: number;
}

function readState(file: string): StopState | null {
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as StopState;
    return typeof v.key === 'string' && Number.isInteger(v.streak) ? { ...v, at: typeof v.at === 'number' ? v.at : 0 } : null;
  } catch {
    return null;
  }
}

function writeState(file: string, s: StopState): void {
  mkdirSync(path.dirname(file), { recursive: true });
  replaceFileSync(file, JSON.stringify(s) + '\n');
}

/**
 * @param warn called with each problem met on the way (config, queue, marks), for stderr.
 * @returns `block`, `allow` with a message for the user, or no answer (allow silently). A
 *   config mistake or an unreadable queue is added to the message for the user.
 *   Outside a git repository: no answer (nothing to review there).
 * @throws only on internal errors (the caller turns them into exit 0 + one stderr line).
 */
export async function stop(input: StopInput, warn: (line: string) => void = () => {}): Promise<HookAnswer> {
  const root = findRootFast(input.cwd);
  // Outside a repository there is nothing to review (user-scope hooks and the plugin run in every folder).
  if (!root) return NO_ANSWER;
  // A config mistake must not switch the gate off: the valid keys and defaults are used, and
  // the user is told (systemMessage) at every stop until it is fixed.
  const { config, problem, untrusted } = await loadConfigLenient(root);
  if (problem) warn(problem);
  // Problems the user must see (the agent is not told): a config mistake, an uncommitted
  // config whose gate keys were not applied, an unreadable review queue. Shown as a
  // systemMessage at every stop until fixed.
  const problems = problem ? [problem] : [];
  if (untrusted) problems.push(untrustedConfigMessage(untrusted));
  const note = (a: HookAnswer): HookAnswer => {
    if (!problems.length) return a;
    if (a.kind === 'block') return { ...a, userMessage: userMessage(a.userMessage ?? null, problems) };
    return { kind: 'allow', userMessage: userMessage(a.kind === 'allow' ? a.userMessage : null, problems) };
  };
  if (input.subagent !== null && !config.stop.subagents) return note(NO_ANSWER);
  const gitDir = gitDirFast(root) ?? path.join(root, '.git');
  const session = input.session ?? 'unknown';
  const file = stopStateFile(gitDir, input.subagent !== null ? `${session}-${input.subagent}` : session);

  // The files git hides by a rule (an ignore rule not in the baseline: one more walk of the
  // working tree; an attribute) are looked for below, once nothing else holds the stop (so
  // before every stop it allows).
  let gathered;
  try {
    gathered = await Promise.all([
      scanRepo({ root, mode: 'default', exclude: config.scan.exclude, maxFileBytes: config.scan.maxFileBytes, rules: 'none', bound: stopScanBound(config.stop.maxFiles) }),
      queueState(root, gitDir, (line) => (warn(line), problems.push(line))),
      hunkReviewOrNone(root, config.stop.requireReview, warn),
      input.subagent === null ? guardNoteOnce(root, gitDir, session) : null,
    ]);
  } catch (e) {
    // git failed on the repository's state (a submodule's .git file pointing nowhere, a missing
    // object): review cannot be checked, which is not git-kizu's own bug, and the agent could
    // cause it to pass. A bounded block, like any other (a programming error still lets through).
    if (!(e instanceof KizuError)) throw e;
    warn(oneLine(e));
    return note(uncheckableAnswer(file, oneLine(e), config.stop.maxBlocks, input.retry));
  }
  const [{ scars, hidden, unreadable, skipped, rules, scope, unchecked }, { open: items, vanished, unreadable: queueUnreadable }, review, guardNote] = gathered;
  if (guardNote) problems.push(guardNote);
  const { rejected, unreviewed, laundered } = review;
  if (!scars.length && !items.length && !rejected.length && !laundered.length && !unreviewed.length && !unreadable.length && !skipped.length && !unchecked) {
    const late = await scanHiddenByRules({ root, exclude: config.scan.exclude, maxFileBytes: config.scan.maxFileBytes, scope: scope ?? [] });
    scars.push(...late.scars);
    skipped.push(...late.skipped);
    rules.push(...late.rules);
  }
  // Changes git does not show are reviewed (their scars are in `scars`); the user is told
  // which flag hides them. A name that is not valid UTF-8 cannot be reviewed: the stop is held.
  if (hidden.length) problems.push(hiddenChangesMessage(hidden));
  if (unreadable.length) problems.push(unreadableNamesMessage(unreadable));
  // Review state the agent's actions took away (queue items gone from the file, unreadable
  // marks) blocks like any finding and is told to the user.
  const lost = await lostState(root, vanished, review, queueUnreadable);
  if (lost.length) problems.push(lostStateUserMessage(lost));
  // A scope too big to read before the runner's timeout blocks, naming its size: a killed
  // hook would let the agent stop over files nobody checked.
  const tooBig = unchecked ? uncheckedState(unchecked, config.stop.maxFiles) : null;
  if (unchecked) problems.push(uncheckedUserMessage(unchecked));
  // A changed file that could not be read may hold a scar: the stop is held on it too.
  if (skipped.length) problems.push(unscannedMessage(skipped));
  // Files git hides by a rule (ignore rules not in the baseline, ident, clean filters) are
  // scanned and named; ignored directories too large to review one by one hold the stop.
  if (rules.length) problems.push(ruleHiddenMessage(rules));
  const dirs = rules.filter((r) => r.path.endsWith('/'));
  if (!scars.length && !items.length && !rejected.length && !laundered.length && !unreviewed.length && !unreadable.length && !skipped.length && !dirs.length && !lost.length && !tooBig) {
    rmSync(file, { force: true });
    return note(NO_ANSWER);
  }
  const key = createHash('sha1')
    .update(
      [
        ...scars.map((s) => `s\0${s.path}\0${s.kind}\0${s.body}`),
        ...items.map((i) => `q\0${i.id}`),
        ...rejected.map((h) => `r\0${h.id}`),
        ...laundered.map((l) => `l\0${l.id}\0${l.how}\0${l.commit ?? ''}\0${l.edits.map((h) => h.id).join(',')}`),
        ...unreviewed.map((h) => `u\0${h.id}`),
        ...unreadable.map((n) => `n\0${n}`),
        ...lost.map((l) => `x\0${l.what}`),
        ...(tooBig ? [`b\0${tooBig.what}`] : []),
        ...skipped.map((f) => `f\0${f.path}\0${f.reason}`),
        ...dirs.map((d) => `d\0${d.path}\0${d.rule}`),
      ]
        .sort()
        .join('\n'),
    )
    .digest('hex');
  const prev = readState(file);
  const now = Date.now();
  const continues = prev !== null && prev.key === key && (input.retry || (now - prev.at >= 0 && now - prev.at < RETRY_WINDOW_MS));
  const streak = continues ? prev.streak + 1 : 1;
  const max = config.stop.maxBlocks;
  // Every scar and item blocks, whatever its origin (the key above holds them all; the
  // ledger is never read for the decision). The origin only decides how each is worded: the
  // reviewer's (written through git kizu here) as orders, the others as quoted data.
  const byOrigin = await splitByOrigin(root, gitDir, scars, items, QUEUE_FILE);
  if (byOrigin.found.scars.length || byOrigin.found.items.length) problems.push(foundUserNote(byOrigin.found));
  const findings: StopFindings = { scars: byOrigin.scars, items: byOrigin.items, review, found: byOrigin.found };
  const others = scars.length + items.length + rejected.length + laundered.length + unreviewed.length;
  if (streak > max) {
    rmSync(file, { force: true });
    return note({ kind: 'allow', userMessage: others ? stopGivenUpMessage(findings, max) : unreadable.length ? unreadableGivenUpMessage(unreadable, max) : lost.length || tooBig ? lostGivenUpMessage(max) : unscannedGivenUpMessage(max) });
  }
  writeState(file, { key, streak, at: now });
  const reason = [
    ...(others ? [stopBlockReason(findings, streak, max)] : []),
    ...(unreadable.length ? [unreadableNamesReason(unreadable)] : []),
    ...(lost.length ? [lostStateReason(lost)] : []),
    ...(tooBig ? [uncheckedReason(tooBig)] : []),
    ...(skipped.length ? [unscannedReason(skipped)] : []),
    ...(dirs.length ? [hiddenDirsReason(dirs)] : []),
  ].join('\n');
  return note({ kind: 'block', reason });
}

/**
 * On the first Stop of a session: whether the pre-commit guard that `git kizu init` installed
 * in this clone still runs (install/guard.ts `guardStatus`); the note for the user when it is
 * gone (a hook manager's install overwrote it, `core.hooksPath` changed...). Clones where no
 * install record holds a guard (never installed, `--no-pre-commit`, a user-scope install) are
 * not checked. Later stops of the session check nothing (the sessions checked are kept in
 * {@link guardCheckedFile}, the last 100).
 * @returns the note, or null (present, not installed here, already checked this session, or
 *   the check failed).
 */
async function guardNoteOnce(root: string, gitDir: string, session: string): Promise<string | null> {
  const file = guardCheckedFile(gitDir);
  let sessions: string[] = [];
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as { sessions?: unknown };
    if (Array.isArray(v.sessions)) sessions = v.sessions.filter((x): x is string => typeof x === 'string');
  } catch {
    /* none yet, or unreadable: start again */
  }
  if (sessions.includes(session)) return null;
  try {
    const { guardInstalledHere } = await import('../install/state.js');
    if (!guardInstalledHere(commonDirFast(root) ?? gitDir)) return null;
    const { guardStatus } = await import('../install/guard.js');
    const g = await guardStatus(root);
    mkdirSync(path.dirname(file), { recursive: true });
    replaceFileSync(file, JSON.stringify({ sessions: [...sessions, session].slice(-100) }) + '\n');
    return g.state === 'missing' ? guardMissingMessage(g.why, g.fix) : null;
  } catch {
    return null;
  }
}

/**
 * Unchecked queue items, and the items written through git kizu that the file no longer
 * holds (queue/record.ts); a queue that cannot be read is reported, and every recorded item
 * counts as vanished.
 */
async function queueState(root: string, gitDir: string, warn: (line: string) => void): Promise<{ open: QueueItem[]; vanished: RecordedItem[]; unreadable: string | null }> {
  try {
    const { readQueue } = await import('../queue/read.js');
    const { items } = await readQueue(root, gitDir);
    return { open: items.filter((i) => !i.checked), vanished: vanishedItems(gitDir, items.map((i) => i.id)), unreadable: null };
  } catch (e) {
    // Unreadable (a directory, a symbolic link, conflict markers): the reviewer's recorded items
    // count as lost, so the stop blocks on them rather than passing an empty queue.
    warn(queueNotRead(e));
    return { open: [], vanished: vanishedItems(gitDir, []), unreadable: (e instanceof Error ? e.message : String(e)).split('\n')[0] };
  }
}

/**
 * The Stop hook's answer when git failed on the repository's state (`why`, one line): a
 * block, counted in the session's state file like any other (the same failure again within
 * {@link RETRY_WINDOW_MS}, or a retry, continues the streak), and past `max` blocks the stop
 * is allowed with a message to the user.
 */
function uncheckableAnswer(file: string, why: string, max: number, retry: boolean): HookAnswer {
  const key = createHash('sha1').update(`g\0${why}`).digest('hex');
  const prev = readState(file);
  const now = Date.now();
  const continues = prev !== null && prev.key === key && (retry || (now - prev.at >= 0 && now - prev.at < RETRY_WINDOW_MS));
  const streak = continues ? prev.streak + 1 : 1;
  if (streak > max) {
    rmSync(file, { force: true });
    return { kind: 'allow', userMessage: uncheckableGivenUpMessage(why, max) };
  }
  writeState(file, { key, streak, at: now });
  return { kind: 'block', reason: uncheckableReason(why), userMessage: uncheckableMessage(why) };
}
