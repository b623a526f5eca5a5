/**
 * The CLI layer: the commander program. Each command's module is imported when that command
 * runs; the action passes the parsed arguments to the command function and hands its exit
 * code back to src/main.ts, which prints errors and sets the exit code.
 */
import { Argument, Command, CommanderError, Option } from 'commander';
import { KizuError, EXIT } from '../errors.js';
import { COLOR_WHENS, consoleReporter, pcErr, parseColorWhen, type ColorWhen } from '../output.js';
import { VERSION } from '../package.js';
import type { AgentSession } from '../agents/session-env.js';
import { detectAgentSession } from '../agents/session.js';
import { refuseFromAgent } from './reviewer-acts.js';

/** Builds the commander program. `setCode` receives each command's exit code. */
export function buildProgram(setCode: (code: number) => void): Command {
  let cwd: string;
  try {
    cwd = process.cwd();
  } catch {
    cwd = ''; // deleted current directory: src/main.ts lets only help and --version through
  }
  const reporter = consoleReporter;
  // Whether this runs inside a coding agent's session: the reviewer's acts are refused there
  // (cli/reviewer-acts.ts), and the agent's own acts are recorded as its. Asked only by those
  // acts (the ancestry walk reads /proc), once.
  let found: { s: AgentSession | null } | undefined;
  const session = (): AgentSession | null => {
    found ??= { s: detectAgentSession(process.env) };
    return found.s;
  };
  const program = new Command();
  program
    .name('git kizu')
    .description('Review what an AI agent changed: scars, review hooks for Claude Code, and a pre-commit guard.')
    .version(VERSION, '-V, --version', 'print the version')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ outputError: (str, write) => write(`${pcErr.red('git-kizu: error:')} ${str.replace(/^error: /, '')}`) })
    .exitOverride();
  // git's output conventions (README "Output"): colour and pager, decided before each command.
  program
    .option('--color <when>', 'colour: always, never or auto (a bare --color is always; default: auto, git\'s color.kizu/color.ui on a terminal, off with NO_COLOR)')
    .option('--no-color', 'no colour (as --color=never)')
    .option('--no-pager', 'do not send long output through the pager (git var GIT_PAGER)')
    .hook('preAction', async (_p, action) => {
      const o = program.opts<{ color?: string | false; pager: boolean }>();
      const when = parseColorWhen(o.color);
      if (when === null) throw new KizuError(`--color takes always, never or auto, got "${o.color}"`, { hint: 'e.g. git kizu --color=never status' });
      await decideOutput(action, o.color === undefined ? undefined : when, o.pager, cwd);
    });

  program
    .command('scar')
    .description('write a scar comment above <path>:<line> so the agent sees it on its next read')
    .argument('[target]', '<path>:<line>, line 1-based in the working-tree file')
    .addOption(new Option('-k, --kind <kind>', 'scar kind').choices(['ask', 'reject', 'free']).default('ask'))
    .option('-m, --message <body>', 'scar body (required for --kind free)')
    .option('--undo', 'remove the last scar you wrote, if it is still exactly as written')
    .action(async (target: string | undefined, o: { kind: string; message?: string; undo?: boolean }) => {
      const { scarCommand } = await import('./scar.js');
      // Inside an agent's session the scar is recorded as the agent's, never as the reviewer's.
      setCode(await scarCommand({ cwd, target, kind: o.kind, message: o.message, undo: !!o.undo, by: session()?.by ?? null, reporter }));
    });

  program
    .command('unscar')
    .description('remove scars: one at <path>:<line>, all in <path>, or --all in the repository')
    .argument('[target]', '<path> or <path>:<line>')
    .option('--all', 'remove every scar in the repository (tracked and untracked files)')
    .action(async (target: string | undefined, o: { all?: boolean }) => {
      if (o.all) refuseFromAgent('unscar --all', session);
      const { unscarCommand } = await import('./unscar.js');
      setCode(await unscarCommand({ cwd, target, all: !!o.all, reporter }));
    });

  program
    .command('scan')
    .description('list scars (exit 0: none, 1: some, 2: error)')
    .argument('[paths...]', 'limit to these paths (files or directories)')
    .option('--all', 'every tracked and untracked (not ignored) file, not just changed ones')
    .option('--staged', 'the staged blobs in the index instead of the working tree')
    .option('--json', 'print a JSON array of {path, line, kind, body}')
    .option('--origin', 'say where each scar and item came from (null: written through git kizu here)')
    .action(async (paths: string[], o: { all?: boolean; staged?: boolean; json?: boolean; origin?: boolean }) => {
      if (o.all && o.staged) throw new KizuError('--all and --staged cannot be combined', { hint: 'pick one scope' });
      const { scanCommand } = await import('./scan.js');
      setCode(await scanCommand({ cwd, mode: o.all ? 'all' : o.staged ? 'staged' : 'default', json: !!o.json, origin: !!o.origin, paths, reporter }));
    });

  const queue = program.command('queue').description(`review notes for the agent, as GFM task items in .claude/review-queue.md`);
  queue
    .command('add')
    .description('append an unchecked item and print its id')
    .argument('<text...>', 'what the agent should do or answer')
    .option('--at <path:line>', 'the place the item is about')
    .addOption(new Option('-k, --kind <kind>', 'item kind').choices(['ask', 'reject', 'free']))
    .action(async (text: string[], o: { at?: string; kind?: string }) => {
      const { queueAdd } = await import('./queue.js');
      setCode(await queueAdd({ cwd, text: text.join(' '), at: o.at, kind: o.kind, by: session()?.by ?? null, reporter }));
    });
  queue
    .command('list')
    .description('list open items (all with --all)')
    .option('--all', 'include done items')
    .option('--json', 'print a JSON array of {id, checked, kind, path, line, text, queueLine}')
    .action(async (o: { all?: boolean; json?: boolean }) => {
      const { queueList } = await import('./queue.js');
      setCode(await queueList({ cwd, all: !!o.all, json: !!o.json, reporter }));
    });
  queue
    .command('done')
    .description('tick items: [x]')
    .argument('<id...>', 'item ids (see queue list)')
    .action(async (ids: string[]) => {
      const { queueCheck } = await import('./queue.js');
      setCode(await queueCheck({ cwd, ids, checked: true, reporter }));
    });
  queue
    .command('reopen')
    .description('untick items: [ ]')
    .argument('<id...>', 'item ids (see queue list --all)')
    .action(async (ids: string[]) => {
      const { queueCheck } = await import('./queue.js');
      setCode(await queueCheck({ cwd, ids, checked: false, reporter }));
    });
  queue
    .command('rm')
    .description('remove items')
    .argument('<id...>', 'item ids (see queue list --all)')
    .action(async (ids: string[]) => {
      refuseFromAgent('queue rm', session);
      const { queueRemove } = await import('./queue.js');
      setCode(await queueRemove({ cwd, ids, reporter }));
    });
  queue
    .command('clear')
    .description('remove done items (requires --done)')
    .option('--done', 'remove every checked item')
    .action(async (o: { done?: boolean }) => {
      refuseFromAgent('queue clear', session);
      const { queueClear } = await import('./queue.js');
      setCode(await queueClear({ cwd, done: !!o.done, reporter }));
    });

  // --- hunks, baseline, revert (src/hunks) ---
  program
    .command('hunks')
    .description('list the hunks of the working tree against the baseline (HEAD or git kizu baseline set)')
    .argument('[paths...]', 'limit to these paths (files or directories)')
    .option('--json', 'print a JSON array of {id, shortId, path, kind, range, oldStart, oldCount, newStart, newCount, added, removed, mark}')
    .action(async (paths: string[], o: { json?: boolean }) => {
      const command = import('./hunks.js');
      // A whole-tree listing follows: its git processes run while the command's code loads.
      if (!paths.length) (await import('../hunks/baseline.js')).startEarly(cwd);
      const { hunksCommand } = await command;
      setCode(await hunksCommand({ cwd, json: !!o.json, paths, reporter }));
    });
  const baseline = program
    .command('baseline')
    .description('show the commit hunks are computed against (refs/kizu/baseline if set, else HEAD)')
    .option('--json', 'print {rev, oid, fromRef}')
    .action(async (o: { json?: boolean }) => {
      const { baselineCommand } = await import('./baseline.js');
      setCode(await baselineCommand({ cwd, action: 'show', json: !!o.json, reporter }));
    });
  baseline
    .command('show')
    .description('print the baseline: <rev> <commit>')
    .option('--json', 'print {rev, oid, fromRef}')
    .action(async (o: { json?: boolean }) => {
      const { baselineCommand } = await import('./baseline.js');
      // commander gives a --json after the subcommand to the parent (it has one too).
      setCode(await baselineCommand({ cwd, action: 'show', json: !!(o.json || baseline.opts().json), reporter }));
    });
  baseline
    .command('set')
    .description('record a commit in refs/kizu/baseline')
    .argument('[rev]', 'any revision naming a commit', 'HEAD')
    .action(async (rev: string) => {
      refuseFromAgent('baseline set', session);
      const { baselineCommand } = await import('./baseline.js');
      setCode(await baselineCommand({ cwd, action: 'set', rev, reporter }));
    });
  baseline
    .command('reset')
    .description('drop refs/kizu/baseline (back to HEAD)')
    .action(async () => {
      refuseFromAgent('baseline reset', session);
      const { baselineCommand } = await import('./baseline.js');
      setCode(await baselineCommand({ cwd, action: 'reset', reporter }));
    });
  program
    .command('revert')
    .usage('<hunk> [-m <reason> [--kind <kind>] [--queue]] | --restore <trash-id> | --list')
    .description('put one hunk back to the baseline (what it discards is saved in refs/kizu/reverts)')
    .argument('[hunk]', 'hunk id prefix or <path>:<line> (see git kizu hunks)')
    .option('-m, --message <reason>', 'also write a scar "reverted: <reason>" above the reverted spot, in the same write')
    .addOption(new Option('-k, --kind <kind>', 'with -m: kind of that scar or queue item (default reject)').choices(['ask', 'reject', 'free']))
    .option('--queue', 'with -m: file the reason in the review queue instead of a scar')
    .option('--restore <trash-id>', 'put back what a revert saved (the id it printed)')
    .option('--list', 'list the saved reverts that are kept, newest first, by the ids revert printed')
    .action(async (hunk: string | undefined, o: { message?: string; kind?: string; queue?: boolean; restore?: string; list?: boolean }) => {
      // Putting back what the reviewer's revert took out undoes the reviewer's act.
      if (o.restore !== undefined) refuseFromAgent('revert --restore', session);
      const { revertCommand } = await import('./revert.js');
      setCode(await revertCommand({ cwd, hunk, message: o.message, kind: o.kind, queue: !!o.queue, restore: o.restore, list: !!o.list, by: session()?.by ?? null, reporter }));
    });

  // --- marks (tap/reject/untap, refs/kizu/marks) ---
  for (const [verb, what] of [
    ['tap', 'mark hunks as reviewed and OK'],
    ['reject', 'mark hunks as reviewed and not OK'],
    ['untap', 'clear the mark on hunks (back to unreviewed)'],
  ] as const) {
    program
      .command(verb)
      .description(`${what} (stored in refs/kizu/marks)`)
      .argument('[hunks...]', 'hunk id prefix or <path>:<line> (see git kizu hunks)')
      .option('--all', 'every current hunk')
      .action(async (specs: string[], o: { all?: boolean }) => {
        if (verb !== 'reject') refuseFromAgent(verb, session);
        const command = import('./marks.js');
        // Valid arguments (hunks or --all, not both) list the whole tree: start its git
        // processes while the command's code loads.
        if (!!o.all !== specs.length > 0) (await import('../hunks/baseline.js')).startEarly(cwd);
        const { markCommand } = await command;
        setCode(await markCommand({ cwd, verb, specs, all: !!o.all, by: session()?.by, reporter }));
      });
  }
  const marks = program.command('marks').description('review marks in refs/kizu/marks: list, share through a git remote');
  marks
    .command('list')
    .description('list tapped and rejected hunks')
    .option('--json', 'print the stored map {<hunk id>: {state, time, by, path, range}} (untap tombstones included)')
    .action(async (o: { json?: boolean }) => {
      const { marksList } = await import('./marks.js');
      setCode(await marksList({ cwd, json: !!o.json, reporter }));
    });
  marks
    .command('push')
    .description("merge the remote's marks, then push refs/kizu/marks to it")
    .argument('[remote]', 'remote name, URL or path', 'origin')
    .action(async (remote: string) => {
      refuseFromAgent('marks push', session);
      const { marksPush } = await import('./marks.js');
      setCode(await marksPush({ cwd, remote, reporter }));
    });
  marks
    .command('pull')
    .description("fetch the remote's refs/kizu/marks and merge it into yours")
    .argument('[remote]', 'remote name, URL or path', 'origin')
    .action(async (remote: string) => {
      refuseFromAgent('marks pull', session);
      const { marksPull } = await import('./marks.js');
      setCode(await marksPull({ cwd, remote, reporter }));
    });

  program
    .command('status')
    .description('baseline, hunks by review state, scars, queue items, hooks (exit 1 while anything blocks the agent)')
    .option('--json', 'print one JSON object (see README)')
    .action(async (o: { json?: boolean }) => {
      const { statusCommand } = await import('./status.js');
      setCode(await statusCommand({ cwd, json: !!o.json, reporter }));
    });
  program
    .command('gc')
    .description('drop what git kizu stores beyond the retention budgets (never what undo needs), then let git drop unreachable objects')
    .option('--dry-run', 'print what would be dropped, change nothing')
    .option('--json', 'print one JSON object (see README)')
    .option('--auto', 'only when a budget is exceeded, then git gc --auto (what the hooks start in the background)')
    .action(async (o: { dryRun?: boolean; json?: boolean; auto?: boolean }) => {
      // `gc --auto` is what the prompt hook starts (inside the agent's env); --dry-run changes nothing.
      if (!o.auto && !o.dryRun) refuseFromAgent('gc', session);
      const { gcCommand } = await import('./gc.js');
      setCode(await gcCommand({ cwd, dryRun: !!o.dryRun, json: !!o.json, auto: !!o.auto, reporter }));
    });
  program
    .command('doctor')
    .description('check the whole install: pre-commit guard, agent hooks, runtime, launcher, config (exit 1 with fixes)')
    .option('--json', 'print one JSON object (see README)')
    .action(async (o: { json?: boolean }) => {
      const { doctorCommand } = await import('./doctor.js');
      setCode(await doctorCommand({ cwd, json: !!o.json, reporter }));
    });

  // --- tasks (branch level, src/rollback/tasks/) ---
  const task = program.command('task').description('a branch kizu/<name> per task, optionally in its own worktree: start, list, land');
  task
    .command('start')
    .description('create branch kizu/<name> at HEAD (or the baseline) and switch to it, or put it in a new worktree')
    .argument('<name>', 'task name (git branch-name rules)')
    .option('--worktree [path]', 'check it out in a new linked worktree (default ../<repo>-<name>) instead of switching')
    .action(async (name: string, o: { worktree?: boolean | string }) => {
      const { taskStart } = await import('./task.js');
      setCode(await taskStart({ cwd, name, worktree: o.worktree, reporter }));
    });
  task
    .command('list')
    .description('list tasks: name, branch, base, commits ahead, clean/dirty, worktree')
    .option('--json', 'print a JSON array of {name, branch, tip, base, from, worktree, ahead, dirty}')
    .action(async (o: { json?: boolean }) => {
      const { taskList } = await import('./task.js');
      setCode(await taskList({ cwd, json: !!o.json, reporter }));
    });
  task
    .command('land')
    .description('merge kizu/<name> into the branch it started from (fast-forward when possible); refuses on conflicts, changing nothing')
    .argument('<name>', 'task name')
    .option('--remove', "afterwards remove the task's worktree (saving its ignored files first), branch and record")
    .option('--dry-run', 'only print what it would do')
    .option('--yes', 'delete ignored files over the save budget without asking (required when there is no terminal)')
    .action(async (name: string, o: { remove?: boolean; dryRun?: boolean; yes?: boolean }) => {
      const { taskLand } = await import('./task.js');
      setCode(await taskLand({ cwd, name, remove: !!o.remove, dryRun: !!o.dryRun, yes: !!o.yes, reporter }));
    });

  // --- edit journal and strict patches (patch level, src/rollback/journal/) ---
  program
    .command('journal')
    .description("list the edit journal (refs/kizu/journal): the agent's Write/Edit/NotebookEdit changes and applied patches, oldest first")
    .option('--session <id>', 'only entries of this Claude Code session (an id prefix is enough)')
    .option('--json', 'print a JSON array of {id, shortId, time, tool, session, toolUseId, files, rollbackOf, rolledBackBy}')
    .action(async (o: { session?: string; json?: boolean }) => {
      const { journalCommand } = await import('./journal.js');
      setCode(await journalCommand({ cwd, session: o.session, json: !!o.json, reporter }));
    });
  const patch = program.command('patch').description('strict unified-diff patches, recorded in the edit journal');
  patch
    .command('apply')
    .description('apply a unified diff exactly (every context and removed line byte-exact), all files or none; exit 2: malformed, 1: does not fit')
    .argument('<file>', 'the patch file, or - for stdin')
    .option('--dry-run', 'check it and print each hunk before and after; write nothing')
    .option('--yes', 'do not ask (required when there is no terminal)')
    .option('--json', 'print {dryRun, applied, files, entry} as JSON')
    .option('-p <n>', 'strip <n> leading path components from file names (git apply -p)', '1')
    .action(async (file: string, o: { dryRun?: boolean; yes?: boolean; json?: boolean; p: string }) => {
      const { patchApply } = await import('./patch.js');
      if (!/^\d+$/.test(o.p)) throw new KizuError(`-p takes a whole number >= 0, got "${o.p}"`, { hint: 'use -p1 for a/ b/ prefixes (the default), -p0 for none' });
      setCode(await patchApply({ cwd, file, dryRun: !!o.dryRun, yes: !!o.yes, json: !!o.json, strip: Number(o.p), session: session(), reporter }));
    });

  // --- review (interactive, src/review) ---
  program
    .command('review')
    .description('go through the hunks one by one in the terminal, one key each (like git add -p): tap, reject, scar, revert; ? lists the keys')
    .argument('[paths...]', 'limit to these paths (files or directories)')
    .option('--all', 'also show hunks that are already tapped')
    .action(async (paths: string[], o: { all?: boolean }) => {
      refuseFromAgent('review', session);
      const { reviewCommand } = await import('./review.js');
      setCode(await reviewCommand({ cwd, paths, all: !!o.all }));
    });

  // --- snapshot, rollback, undo (src/rollback) ---
  const snapshot = program
    .command('snapshot')
    .description('record the whole working tree (tracked, untracked, snapshot.include) in refs/kizu/snapshots; index, HEAD and files untouched')
    .option('-m, --message <msg>', 'what the snapshot is for')
    .option('--json', 'print {id, ref, name, files, hashed, skipped, dropped, reused}')
    .action(async (o: { message?: string; json?: boolean }) => {
      const command = import('./snapshot.js');
      // Lock the snapshot store and start its git processes while the command's code loads
      // (snapshotTake adopts them, or releases them if it fails first).
      await (await import('../rollback/snapshots/begin.js')).beginSnapshot(cwd);
      const { snapshotTake } = await command;
      setCode(await snapshotTake({ cwd, message: o.message, json: !!o.json, by: session()?.by ?? null, reporter }));
    });
  snapshot
    .command('list')
    .description('list snapshots, newest first')
    .option('--json', 'print a JSON array of {id, ref, name, time, kind, message, files, skipped, head, worktree}')
    .action(async (o: { json?: boolean }) => {
      const { snapshotList } = await import('./snapshot.js');
      // commander gives a --json after the subcommand to the parent (it has one too).
      setCode(await snapshotList({ cwd, json: !!(o.json || snapshot.opts().json), reporter }));
    });
  snapshot
    .command('show')
    .description('diff of a snapshot against the working tree')
    .argument('<id>', 'snapshot name (see snapshot list) or commit id prefix')
    .option('--json', 'print {snapshot, changes} (changes: what a rollback to it would do)')
    .action(async (id: string, o: { json?: boolean }) => {
      const { snapshotShow } = await import('./snapshot.js');
      setCode(await snapshotShow({ cwd, id, json: !!(o.json || snapshot.opts().json), reporter }));
    });
  snapshot
    .command('drop')
    .description('delete snapshots (not one the undo log still needs, unless --force)')
    .argument('<id...>', 'snapshot names or commit id prefixes')
    .option('--force', 'also drop a safety snapshot git kizu undo would need')
    .action(async (ids: string[], o: { force?: boolean }) => {
      refuseFromAgent('snapshot drop', session);
      const { snapshotDrop } = await import('./snapshot.js');
      setCode(await snapshotDrop({ cwd, ids, force: !!o.force, reporter }));
    });
  // `rollback` is a group: each level is a subcommand (rollback.command('<level>')).
  const rollback = program.command('rollback').description('put the working tree back (every rollback is recorded; git kizu undo reverses the last)');
  rollback
    .command('snapshot')
    .description('make the working tree equal to a snapshot (a safety snapshot of the current state is taken first)')
    .argument('<id>', 'snapshot name (see snapshot list) or commit id prefix')
    .option('--dry-run', 'only print the per-file plan')
    .option('--yes', 'do not ask (required when there is no terminal)')
    .option('--json', 'print the plan / result as JSON')
    .option('--other-worktree', 'restore a snapshot taken in another worktree of this repository here')
    .action(async (id: string, o: { dryRun?: boolean; yes?: boolean; json?: boolean; otherWorktree?: boolean }) => {
      // A rollback discards working-tree content (the queue file and the reviewer's scars too).
      if (!o.dryRun) refuseFromAgent('rollback snapshot', session);
      const { rollbackSnapshotCommand } = await import('./rollback.js');
      setCode(await rollbackSnapshotCommand({ cwd, id, dryRun: !!o.dryRun, yes: !!o.yes, json: !!o.json, reporter, otherWorktree: !!o.otherWorktree }));
    });
  rollback
    .command('branch')
    .description("discard task <name>: save its commits and worktree files in refs/kizu/trash/<name>/<time>, then remove its worktree and branch")
    .argument('<name>', 'task name (see git kizu task list)')
    .option('--dry-run', 'only print what it would do')
    .option('--yes', 'do not ask (required when there is no terminal)')
    .option('--json', 'print {dryRun, applied, task, branch, tip, commits, mode, worktree, switchTo, files, savedIgnored, ignored, budget, trashRef, copy, safetySnapshot, recorded} as JSON')
    .action(async (name: string, o: { dryRun?: boolean; yes?: boolean; json?: boolean }) => {
      if (!o.dryRun) refuseFromAgent('rollback branch', session);
      const { rollbackBranchCommand } = await import('./rollback-branch.js');
      setCode(await rollbackBranchCommand({ cwd, name, dryRun: !!o.dryRun, yes: !!o.yes, json: !!o.json, reporter }));
    });
  rollback
    .command('patch')
    .description('undo journal entries (git kizu journal): exactly when the file is unchanged since, else by reversing their hunks or a three-way merge; refuses on conflicts')
    .argument('<id...>', 'journal entry ids (at least 4 hex digits)')
    .option('--cascade', 'also undo the later entries whose changes overlap, newest first')
    .option('--dry-run', 'say what would happen; write nothing')
    .option('--yes', 'do not ask (required when there is no terminal)')
    .option('--json', 'print {dryRun, applied, steps, entry, safetySnapshot} as JSON')
    .action(async (ids: string[], o: { cascade?: boolean; dryRun?: boolean; yes?: boolean; json?: boolean }) => {
      if (!o.dryRun) refuseFromAgent('rollback patch', session);
      const { rollbackPatchCommand } = await import('./rollback-patch.js');
      setCode(await rollbackPatchCommand({ cwd, ids, cascade: !!o.cascade, dryRun: !!o.dryRun, yes: !!o.yes, json: !!o.json, reporter }));
    });
  program
    .command('undo')
    .description('reverse the last rollback (restores the files it changed from its safety snapshot; recreates a discarded branch)')
    .option('--dry-run', 'only print what it would do')
    .option('--yes', 'do not ask (required when there is no terminal)')
    .option('--json', 'print the result as JSON')
    .option('--whole-snapshot', 'restore the whole working tree to the safety snapshot, not only the files the rollback changed')
    .action(async (o: { dryRun?: boolean; yes?: boolean; json?: boolean; wholeSnapshot?: boolean }) => {
      // Undo of a rollback writes files back from a safety snapshot: as much the reviewer's.
      if (!o.dryRun) refuseFromAgent('undo', session);
      const { undoCommand } = await import('./undo.js');
      setCode(await undoCommand({ cwd, dryRun: !!o.dryRun, yes: !!o.yes, json: !!o.json, wholeSnapshot: !!o.wholeSnapshot, reporter }));
    });

  program
    .command('init')
    .description("install the agents' review hooks (Claude Code, Codex, Gemini, Copilot, Cursor), the /kizu slash command and the pre-commit guard")
    .option('--agent <agents>', 'claude, codex, gemini, copilot, cursor, comma-separated (default: those whose config folders exist, else claude)')
    .addOption(new Option('--via <how>', 'how Claude Code gets its hooks: its settings file, or the plugin (init prints the commands)').choices(['settings', 'plugin']))
    .addOption(new Option('--scope <scope>', 'project files, local (Claude Code settings.local.json) or user (home directory)').choices(['project', 'local', 'user']).default('project'))
    .option('--pre-commit', 'install the pre-commit guard in this repository (the default, except for --scope user)')
    .option('--no-pre-commit', 'do not install the pre-commit guard')
    .action(async (o: { scope: 'project' | 'local' | 'user'; preCommit?: boolean; agent?: string; via?: 'settings' | 'plugin' }) => {
      // Installing is the reviewer's act: an init can change what the integrity check measures against.
      refuseFromAgent('init', session);
      const { initCommand } = await import('./init.js');
      setCode(await initCommand({ cwd, scope: o.scope, preCommit: o.preCommit, agent: o.agent, via: o.via, reporter }));
    });

  program
    .command('teardown')
    .description('remove exactly what init added (hooks, slash command, pre-commit hook)')
    .option('--agent <agents>', 'only these agents\' hooks (comma-separated); the guard stays while any agent\'s hooks do')
    .addOption(new Option('--scope <scope>', 'project files, local (Claude Code settings.local.json) or user (home directory)').choices(['project', 'local', 'user']).default('project'))
    .action(async (o: { scope: 'project' | 'local' | 'user'; agent?: string }) => {
      refuseFromAgent('teardown', session);
      const { teardownCommand } = await import('./teardown.js');
      setCode(await teardownCommand({ cwd, scope: o.scope, agent: o.agent, reporter }));
    });

  program
    .command('hook')
    .description('run a hook handler; reads the hook payload JSON on stdin (used by the generated hook scripts)')
    .argument('<event>', 'stop | post-tool-use | journal | user-prompt-submit | pre-commit')
    .option('--agent <agent>', 'whose hook payload and answer: claude (default), codex, gemini, copilot, cursor')
    .action(async (event: string, o: { agent?: string }) => {
      const { runHook } = await import('../hooks/run.js');
      setCode(await runHook(event, o.agent !== undefined ? ['--agent', o.agent] : []));
    });

  program
    .command('demo')
    .description('run the main loop in a throw-away repo and print each step')
    .option('--keep', 'keep the temp repo and print its path')
    .action(async (o: { keep?: boolean }) => {
      const { demoCommand } = await import('./demo.js');
      setCode(await demoCommand({ keep: !!o.keep, reporter }));
    });

  program
    .command('completion')
    .description('print a bash or zsh completion script for git kizu and git-kizu (see README, Completion)')
    .addArgument(new Argument('[shell]', 'bash or zsh').choices(['bash', 'zsh']))
    .addOption(new Option('--ids <kind>', 'print the hunk ids, snapshot names or task names the scripts complete').choices(['hunks', 'snapshots', 'tasks']).hideHelp())
    .action(async (shell: string | undefined, o: { ids?: string }) => {
      const { completionCommand } = await import('./completion.js');
      setCode(await completionCommand({ cwd, program, version: VERSION, shell, ids: o.ids, reporter }));
    });

  // A command group without its subcommand (`git kizu rollback`): say what is missing rather
  // than only printing the group's help.
  for (const group of [queue, marks, task, patch, rollback]) {
    group.allowExcessArguments(true).action((_o: unknown, cmd: Command) => {
      const subs = group.commands.map((c) => c.name());
      const hint = `git kizu ${group.name()} --help describes them`;
      if (cmd.args.length) throw new KizuError(`unknown command 'git kizu ${group.name()} ${cmd.args[0]}' (known: ${subs.join(', ')})`, { hint });
      throw new KizuError(`git kizu ${group.name()} needs a subcommand: ${subs.join(', ')}`, { hint });
    });
  }
  return program;
}

/**
 * Commands whose output can run long (listings, diffs, dry-run previews), paged as git pages
 * `log`, `diff`, `show` and `branch` listings: the command's path and whether its options
 * allow it (never with --json, which is for programs, nor where a question is asked).
 */
const PAGED: Record<string, (o: Record<string, unknown>) => boolean> = {
  hunks: (o) => !o.json,
  scan: (o) => !o.json,
  status: (o) => !o.json,
  journal: (o) => !o.json,
  'snapshot list': (o) => !o.json,
  'snapshot show': (o) => !o.json,
  'queue list': (o) => !o.json,
  'marks list': (o) => !o.json,
  'task list': (o) => !o.json,
  'patch apply': (o) => !!o.dryRun && !o.json,
  'rollback patch': (o) => !!o.dryRun && !o.json,
  'rollback snapshot': (o) => !!o.dryRun && !o.json,
  'rollback branch': (o) => !!o.dryRun && !o.json,
  undo: (o) => !!o.dryRun && !o.json,
};

let pager: import('../pager.js').Pager | null = null;

/**
 * Sets the colours (src/output.ts decideColor, for stdout and for stderr; git's config is
 * read at most once, and only when the answer depends on it) and starts the pager for a
 * command in {@link PAGED} when stdout is a terminal and `pagerAllowed` (no --no-pager).
 */
async function decideOutput(action: Command, when: ColorWhen | undefined, pagerAllowed: boolean, cwd: string): Promise<void> {
  const { decideColor, setColors } = await import('../output.js');
  let asked: Promise<boolean> | null = null;
  const gitColor = () =>
    (asked ??= cwd
      ? import('../git/run.js')
          .then(({ gitText }) => gitText(['config', '--get-colorbool', 'color.kizu', 'true'], { cwd }))
          .then((a) => a === 'true', () => process.env.TERM !== 'dumb')
      : Promise.resolve(process.env.TERM !== 'dumb'));
  const env = process.env;
  const [out, err] = await Promise.all([
    decideColor({ when, env, isTTY: !!process.stdout.isTTY, gitColor }),
    decideColor({ when, env, isTTY: !!process.stderr.isTTY, gitColor }),
  ]);
  setColors(out, err);
  const names: string[] = [];
  for (let c: Command | null = action; c && c.parent; c = c.parent) names.unshift(c.name());
  const opts = { ...(action.parent?.parent ? action.parent.opts() : {}), ...action.opts() };
  const pages = PAGED[names.join(' ')];
  if (!pagerAllowed || !pages || !pages(opts) || !process.stdout.isTTY || !cwd) return;
  const { pagerCommand, startPager } = await import('../pager.js');
  const command = await pagerCommand(cwd);
  if (command) pager = startPager(command);
}

/**
 * `argv` with git's bare `--color` (before `--`) written `--color=always`, so that commander
 * does not take the next word (the command) for its value; a `--color` followed by one of
 * always, never or auto (what completion offers there) keeps that word as its value.
 */
function bareColor(argv: string[]): string[] {
  const end = argv.indexOf('--');
  const when = (w: string | undefined) => (COLOR_WHENS as readonly (string | undefined)[]).includes(w);
  return argv.map((a, k) => (a === '--color' && (end < 0 || k < end) && !when(argv[k + 1]) ? '--color=always' : a));
}

/**
 * Runs the CLI for `argv` (process.argv: node, script, command, ...).
 * @returns the exit code of the command that ran (0 for help and --version).
 * @throws KizuError for usage problems found before commander runs, and whatever a command
 *   throws (src/main.ts prints it and sets the exit code).
 */
export async function runCli(argv: string[]): Promise<number> {
  let code = 0;
  const program = buildProgram((c) => (code = c));
  // `git kizu help <unknown>`: commander would print the whole help without a word.
  const topic = argv[2] === 'help' ? argv[3] : undefined;
  if (topic !== undefined && !topic.startsWith('-') && !program.commands.some((c) => c.name() === topic || c.aliases().includes(topic))) {
    throw new KizuError(`unknown command '${topic}'`, { hint: 'git kizu help lists the commands' });
  }
  try {
    await program.parseAsync(bareColor(argv));
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : EXIT.ERROR;
    throw e;
  } finally {
    // The pager shows what was written; wait for the user to quit it (errors follow on stderr).
    if (pager) {
      const { endPager } = await import('../pager.js');
      await endPager(pager, consoleReporter);
      pager = null;
    }
  }
  return code;
}
