/**
 * Changes that escape git's own listings, in words for the human: files whose index entry is
 * flagged assume-unchanged or skip-worktree and that differ from it (git/hidden-changes.ts),
 * and files whose name is not valid UTF-8 (git/run.ts nonUtf8Records). `status`, `review`,
 * `doctor` and the Stop hook's message to the user name each with the command that undoes it.
 */
import { hiddenChanges } from '../git/hidden-changes.js';
import { quoteBytes, shellPath, type PathQuote } from '../git/quote.js';
import { git, nonUtf8Records } from '../git/run.js';
import { restoreCommand, type HiddenFindings } from './hidden-lines.js';
import { printable } from '../printable.js';
import { shellQuote } from '../words.js';
import { hiddenByRules, type RuleHidden } from '../git/hidden-by-rules.js';
import { baselineOrHead } from '../git/refs.js';
import type { HiddenChange } from '../git/hidden-changes.js';

export { hiddenFindingLines, hiddenChangeLine, unreadableNameLine, type HiddenFindings } from './hidden-lines.js';

/** One `doctor` check (install/doctor.ts Check). */
export interface HiddenCheck {
  name: string;
  ok: boolean;
  detail: string;
  fix?: string;
}

/**
 * The `doctor` checks of hidden changes, named `hidden changes`: one failing check per
 * assume-unchanged or skip-worktree file that differs from the index, per file an ignore rule
 * not in the baseline or an attribute hides (git/hidden-by-rules.ts), and per changed or
 * untracked file whose name is not valid UTF-8; none when there is nothing hidden.
 * @param quote writes paths (src/git/path-quoter.ts pathQuoter).
 * @throws KizuError when git fails.
 */
export async function hiddenChecks(root: string, quote: PathQuote): Promise<HiddenCheck[]> {
  const [scan, names, rules] = await Promise.all([
    hiddenChanges(root),
    Promise.all([
      git(['ls-files', '-z', '-o', '--exclude-standard'], { cwd: root }),
      git(['diff', '--name-only', '-z', '--no-renames', '--no-ext-diff', 'HEAD'], { cwd: root, okStatus: [0, 128] }),
    ]),
    baselineOrHead(root).then((base) => hiddenByRules(root, base)),
  ]);
  const unreadable = [...new Set(names.flatMap((r) => nonUtf8Records(r.stdout).map(quoteBytes)))];
  // Files a sparse checkout leaves out (skip-worktree, absent) are one check: there may be thousands.
  const sparse = scan.changes.filter((h) => h.flag === 'skip-worktree' && h.change === 'deleted');
  const out: HiddenCheck[] = [
    ...(sparse.length
      ? [
          {
            name: 'hidden changes',
            ok: false,
            detail: `${sparse.length === 1 ? `1 file (${quote(sparse[0].path)}) is` : `${sparse.length} files (${sparse.slice(0, 3).map((h) => quote(h.path)).join(', ')}${sparse.length > 3 ? ', ...' : ''}) are`} marked skip-worktree and absent (a sparse checkout, core.sparseCheckout, leaves such files out), so git status and git diff do not show whether ${sparse.length === 1 ? 'it was' : 'they were'} deleted: git-kizu reviews ${sparse.length === 1 ? 'it' : 'them'} as deleted`,
            fix: 'git sparse-checkout disable (brings the left-out files back)',
          },
        ]
      : []),
    ...scan.changes.filter((h) => !sparse.includes(h)).map((h) => ({ name: 'hidden changes', ok: false, detail: `${quote(h.path)} is marked ${h.flag}, so git status and git diff do not show that it was ${h.change}`, fix: `${restoreCommand(h.flag)} -- ${shellPath(h.path)}` })),
    ...rules.map((r) => ({ name: 'hidden changes', ok: false, detail: `${quote(r.path)} ${r.how === 'ignored' ? `is hidden by the ignore rule ${printable(r.rule)}, which the baseline does not hold, so git status does not list it` : `has the attribute ${printable(r.rule)}, so git diff does not show all of its bytes`}`, fix: ruleFix(r) })),
    ...unreadable.map((n) => ({ name: 'hidden changes', ok: false, detail: `${n} has a name that is not valid UTF-8: git-kizu cannot review, scan or snapshot it`, fix: 'rename it (git mv, or mv for an untracked file)' })),
  ];
  return out;
}

/** The fix of a file a rule hides, for `doctor`. */
function ruleFix(r: RuleHidden): string {
  if (r.how === 'ignored') return `take the rule ${printable(r.rule)} out, or commit it to keep it`;
  if (r.how === 'ident') return 'take the ident attribute out';
  const name = /^filter=(\S+)/.exec(r.rule)?.[1] ?? '';
  return `take the filter attribute out, or git config --unset ${printable(shellQuote(`filter.${name}.clean`))}`; // one shell word, whatever the name holds
}

/**
 * The hidden changes and unreadable names of a hunk listing and a scan (each may have seen
 * some the other did not: a scan's scope and the listing's paths differ), each once, in
 * path order.
 */
export function mergeHidden(...found: { hidden: HiddenChange[]; unreadable: string[]; rules?: RuleHidden[] }[]): HiddenFindings {
  const changes = new Map<string, HiddenChange>();
  for (const f of found) for (const h of f.hidden) changes.set(h.path, h);
  const rules = new Map<string, RuleHidden>();
  for (const f of found) for (const r of f.rules ?? []) rules.set(`${r.how}\0${r.path}`, r);
  const unreadable = new Set(found.flatMap((f) => f.unreadable));
  const byPath = (a: { path: string }, b: { path: string }) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path));
  return { changes: [...changes.values()].sort(byPath), unreadable: [...unreadable].sort(), rules: [...rules.values()].sort(byPath) };
}
