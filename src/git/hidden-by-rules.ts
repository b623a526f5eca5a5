/**
 * Changes that git hides by a rule of the repository: files an ignore rule hides that the
 * baseline does not hold, and files whose bytes an attribute makes git drop before it
 * compares them. `git status`, `git diff` and `git grep` show neither; here each is found
 * from git's own answers (no cache), for review to read the working-tree bytes.
 *
 * - **Ignored by a rule not in the baseline** (gitignore(5)): `git ls-files -o -i
 *   --exclude-standard --directory` lists what is ignored now (an ignored directory as one
 *   `dir/` entry, not walked); `git check-ignore -v --no-index` names the rule behind each
 *   (source, line, pattern). A rule from a `.gitignore` in the working tree counts as
 *   committed when the baseline's version of that same file has a line equal to the pattern
 *   (`git cat-file --batch`, `<base>:<source>`); otherwise (an untracked `.gitignore`, one that
 *   ignores itself, a line added) the paths it hides are returned. Rules in
 *   `<git-dir>/info/exclude` and `core.excludesFile` are the user's own and are not looked at
 *   (edits to both are refused by the pre-tool gate). Fast path: unless a `.gitignore` is among
 *   the changed or untracked files or the ignored entries, nothing more runs.
 * - **Attributes that drop bytes** (gitattributes(5)): `ident` makes git collapse `$Id:
 *   <anything> $` to `$Id$` before it compares, so text written inside one never shows; a
 *   `filter=<x>` whose `filter.<x>.clean` or `.process` is configured shows git what the
 *   filter makes of the file (git-lfs's own filter is exempt: its pointer changes with the
 *   content). Fast path: the attribute sources (`.gitattributes` files tracked, untracked or
 *   ignored; `<git-dir>/info/attributes`; `core.attributesFile`, by default
 *   `$XDG_CONFIG_HOME/git/attributes`) are read, and only when one mentions `ident` or
 *   `filter` are the tracked files checked (`git check-attr --stdin`). An `ident` file is
 *   returned when one of its `$Id:...$` holds anything but its index blob id; a filtered file
 *   always (git cannot be asked what the filter dropped). `text`, `eol` and
 *   `working-tree-encoding` are not: they change line endings (CRLF to LF) and the encoding,
 *   and git shows the converted text whole.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { git, splitZ } from './run.js';
import { gitDirFast, indexBytesFast } from './repo.js';
import { entriesNamed } from './index-file.js';

/** One file (or ignored directory, ending in `/`) that git hides by a rule. */
export interface RuleHidden {
  /** Repository-relative path; an ignored directory ends with `/`. */
  path: string;
  /** `ignored`: an ignore rule not in the baseline; `ident` or `filter`: an attribute. */
  how: 'ignored' | 'ident' | 'filter';
  /** The rule: `x/.gitignore:1: *` (source:line: pattern), `ident (set in .gitattributes)`, `filter=strip (set in .gitattributes)`. */
  rule: string;
}

/** What a caller's listing of the working tree tells {@link hiddenByRules}, so that it need not ask git again. */
export interface Listed {
  /** Whether a `.gitignore` may be among the changed or untracked files (true when unsure). */
  touched: Promise<boolean>;
  /** The untracked files not ignored (more paths do no harm). */
  untracked: Promise<string[]>;
}

/** At most this many ignored files are returned one by one; directories whose files would pass it are returned as directories. */
export const MAX_HIDDEN_FILES = 1000;

const base = (p: string) => p.slice(p.lastIndexOf('/', p.length - 2) + 1).replace(/\/$/, '');

/**
 * The files the rules of the repository at `root` hide (see the module comment), in path order.
 * @param against the baseline commit (an object id or `HEAD`); null when there is none (no
 *   commit yet: ignore rules are then not compared).
 * @param listed what the caller's own listing tells (for the fast paths), or null to ask git here.
 * @param paths limit to these repository-relative files or directories ([] for all).
 * @param kinds `attributes`: the attributes only, without walking the working tree for ignored
 *   files (the Stop hook's first look); `ignored`: the ignore rules only; `all`: both.
 * @throws KizuError when git fails.
 */
export async function hiddenByRules(root: string, against: string | null, listed: Listed | null = null, paths: string[] = [], kinds: 'all' | 'attributes' | 'ignored' = 'all'): Promise<RuleHidden[]> {
  const within = (p: string) => !paths.length || paths.some((q) => q === '' || q === '.' || p === q || p.startsWith(q.endsWith('/') ? q : q + '/') || (p.endsWith('/') && q.startsWith(p)));
  // What is ignored now (an ignored directory as one entry): for both kinds.
  // (a walk of the working tree: `attributes` goes without it, and without the ignored .gitattributes)
  const ls = kinds === 'attributes' ? Promise.resolve([]) : git(['ls-files', '-z', '-o', '-i', '--exclude-standard', '--directory'], { cwd: root }).then((r) => splitZ(r.stdout).filter((p) => !p.includes('\uFFFD')));
  ls.catch(() => {});
  const [ignored, attrs] = await Promise.all([
    kinds === 'attributes' ? [] : ignoredByNewRules(root, against, listed?.touched ?? null, ls),
    kinds === 'ignored' ? [] : droppedByAttributes(root, ls, listed?.untracked ?? null),
  ]);
  const out = [...ignored, ...attrs].filter((r) => within(r.path));
  return out.sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)));
}

async function ignoredByNewRules(root: string, against: string | null, touched: Promise<boolean> | null, ls: Promise<string[]>): Promise<RuleHidden[]> {
  if (!against) return [];
  const entries = await ls;
  if (!entries.length) return [];
  const listed = touched
    ? await touched
    : splitZ((await git(['status', '--porcelain=v1', '-z', '--no-renames', '-unormal'], { cwd: root })).stdout).some((r) => base(r.slice(3)) === '.gitignore');
  if (!listed && !entries.some((p) => base(p) === '.gitignore')) return [];
  const ci = await git(['check-ignore', '-v', '-z', '--no-index', '--stdin'], { cwd: root, input: entries.join('\0') + '\0', okStatus: [0, 1] });
  const rec = splitZ(ci.stdout);
  const hits: { source: string; line: string; pattern: string; path: string }[] = [];
  for (let i = 0; i + 3 < rec.length; i += 4) hits.push({ source: rec[i], line: rec[i + 1], pattern: rec[i + 2], path: rec[i + 3] });
  // The per-directory .gitignore files behind them (not info/exclude, not core.excludesFile).
  const sources = [...new Set(hits.map((h) => h.source))].filter((s) => !path.isAbsolute(s) && !s.startsWith('.git/') && base(s) === '.gitignore' && !s.includes('\n'));
  const committed = new Map<string, Set<string> | null>();
  if (sources.length) {
    // The baseline commit first: when it does not exist (no commit yet), nothing is compared.
    const r = await git(['cat-file', '--batch'], { cwd: root, input: [`${against}^{commit}`, ...sources.map((s) => `${against}:${s}`)].join('\n') + '\n' });
    const buf = r.stdout;
    let pos = buf.indexOf(0x0a) + 1;
    if (!/^[0-9a-f]+ commit (\d+)$/.test(buf.toString('utf8', 0, pos - 1))) return [];
    pos += Number(/ (\d+)$/.exec(buf.toString('utf8', 0, pos - 1))![1]) + 1;
    for (const s of sources) {
      const nl = buf.indexOf(0x0a, pos);
      if (nl < 0) break;
      const m = /^[0-9a-f]+ blob (\d+)$/.exec(buf.toString('utf8', pos, nl));
      pos = nl + 1;
      if (!m) {
        committed.set(s, null);
        continue;
      }
      const size = Number(m[1]);
      committed.set(s, new Set(buf.toString('utf8', pos, pos + size).split('\n').map((l) => l.replace(/\r$/, '').trimEnd())));
      pos += size + 1;
    }
  }
  const hidden = hits.filter((h) => committed.has(h.source) && !committed.get(h.source)?.has(h.pattern.trimEnd()));
  const out: RuleHidden[] = [];
  const dirs: RuleHidden[] = [];
  for (const h of hidden) (h.path.endsWith('/') ? dirs : out).push({ path: h.path, how: 'ignored', rule: `${h.source}:${h.line}: ${h.pattern}` });
  if (dirs.length) {
    // The files under a hidden directory, one by one while there are not too many.
    const r = await git(['ls-files', '-z', '-o', '--', ...dirs.map((d) => `:(literal)${d.path}`)], { cwd: root });
    const under = new Map<RuleHidden, string[]>(dirs.map((d) => [d, []]));
    for (const f of splitZ(r.stdout)) {
      const d = dirs.find((x) => f.startsWith(x.path));
      // (a repository nested there is listed as `dir/`: its own business, as in git status)
      if (d && !f.includes('\uFFFD') && !f.endsWith('/')) under.get(d)!.push(f);
    }
    // The smallest directories first, while the files fit; the rest are named as directories.
    const seen = new Set(out.map((h) => h.path));
    const named: RuleHidden[] = [];
    for (const [d, files] of [...under].sort((a, b) => a[1].length - b[1].length)) {
      const fresh = files.filter((f) => !seen.has(f));
      if (seen.size + fresh.length > MAX_HIDDEN_FILES) {
        named.push(d);
        continue;
      }
      for (const f of fresh) seen.add(f), out.push({ path: f, how: 'ignored', rule: d.rule });
    }
    out.push(...named);
  }
  return out;
}

/** A line of an attributes file that sets `ident` or a `filter`. */
const DROPS = /(?<=^|\s)(ident|filter=\S+)(?=\s|$)/m;
/** git-lfs's own filter (git lfs install): its pointer changes with the content, so nothing is hidden. */
const LFS = new Map([
  ['clean', 'git-lfs clean -- %f'],
  ['process', 'git-lfs filter-process'],
]);

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/**
 * The `.gitattributes` files of the index: read from the index file without git when it can
 * be (git/index-file.ts entriesNamed), else `git ls-files`.
 */
async function trackedAttributes(root: string): Promise<string[]> {
  const bytes = indexBytesFast(root);
  if (bytes === null) return []; // no index yet
  if (bytes) {
    for (const oidLen of [20, 32]) {
      try {
        const r = entriesNamed(bytes, oidLen, '.gitattributes');
        if (!r.extensions.includes('link') && !r.extensions.includes('sdir')) return r.paths;
        break;
      } catch {
        /* the other object id length */
      }
    }
  }
  return splitZ((await git(['ls-files', '-z', '--', '.gitattributes', ':(glob)**/.gitattributes'], { cwd: root })).stdout);
}

async function droppedByAttributes(root: string, ignored: Promise<string[]>, untracked: Promise<string[]> | null): Promise<RuleHidden[]> {
  const named = (ps: string[]) => ps.filter((p) => base(p) === '.gitattributes');
  const [tracked, ls, ign, cfg] = await Promise.all([
    trackedAttributes(root),
    untracked ? untracked.then(named) : git(['ls-files', '-z', '-o', '--exclude-standard', '--', '.gitattributes', ':(glob)**/.gitattributes'], { cwd: root }).then((r) => splitZ(r.stdout)),
    // An ignored .gitattributes applies too (one inside an ignored directory only to its files).
    ignored.then(named),
    git(['config', '-z', '--get-regexp', '^core\\.attributesfile$|^filter\\..*\\.(clean|process)$'], { cwd: root, okStatus: [0, 1] }),
  ]);
  const config = new Map<string, string>();
  for (const r of splitZ(cfg.stdout)) {
    const nl = r.indexOf('\n');
    config.set(nl < 0 ? r : r.slice(0, nl), nl < 0 ? '' : r.slice(nl + 1));
  }
  const gd = gitDirFast(root);
  const home = process.env.HOME || os.homedir();
  const xdg = process.env.XDG_CONFIG_HOME || path.join(home, '.config');
  const global = config.get('core.attributesfile');
  const files = [...new Set([...tracked, ...ls, ...ign])].map((p) => path.join(root, p));
  if (gd) files.push(path.join(gd, 'info', 'attributes'));
  files.push(global ? (global.startsWith('~/') ? path.join(home, global.slice(2)) : path.resolve(root, global)) : path.join(xdg, 'git', 'attributes'));
  const setIn = files.filter((f) => DROPS.test(readText(f))).map((f) => (f.startsWith(root + path.sep) ? path.relative(root, f).split(path.sep).join('/') : f));
  if (!setIn.length) return [];
  const where = ` (set in ${setIn.join(', ')})`;
  // Filters that are configured (a filter with no command is a no-op in git) and not git-lfs's.
  const filters = new Map<string, boolean>();
  for (const [k, v] of config) {
    const m = /^filter\.(.+)\.(clean|process)$/.exec(k);
    if (m && v.trim()) filters.set(m[1], (filters.get(m[1]) ?? false) || LFS.get(m[2]) !== v.trim());
  }
  // Nothing more to do when no source sets ident and every filter named is unconfigured or git-lfs's.
  const mentioned = files.flatMap((f) => [...readText(f).matchAll(new RegExp(DROPS.source, 'gm'))].map((m) => m[1]));
  if (!mentioned.some((n) => n === 'ident' || filters.get(n.slice('filter='.length)))) return [];
  const staged = await git(['ls-files', '-z', '-s'], { cwd: root });
  const regular: string[] = [];
  for (const r of splitZ(staged.stdout)) {
    const m = /^(\d+) [0-9a-f]+ 0\t([^]*)$/.exec(r);
    if (m && m[1].startsWith('100')) regular.push(m[2]);
  }
  if (!regular.length) return [];
  const ca = await git(['check-attr', '-z', '--stdin', 'ident', 'filter'], { cwd: root, input: regular.join('\0') + '\0' });
  const rec = splitZ(ca.stdout);
  const out: RuleHidden[] = [];
  for (let i = 0; i + 2 < rec.length; i += 3) {
    const [p, attr, value] = [rec[i], rec[i + 1], rec[i + 2]];
    if (attr === 'ident' && value === 'set') {
      let text: string;
      try {
        text = readFileSync(path.join(root, p), 'latin1');
      } catch {
        continue; // gone: git diff shows a deletion
      }
      // git's ident clean: `$Id:` up to the next `$` on the same line becomes `$Id$`; what
      // git itself writes there is a blob id.
      const ids = text.match(/\$Id:[^$\n]*\$/g) ?? [];
      if (ids.some((m) => !/^\$Id: [0-9a-f]{40}(?:[0-9a-f]{24})? \$$/.test(m))) out.push({ path: p, how: 'ident', rule: `ident${where}` });
    } else if (attr === 'filter' && value !== 'unspecified' && value !== 'unset' && value !== 'set' && filters.get(value)) {
      out.push({ path: p, how: 'filter', rule: `filter=${value}${where}` });
    }
  }
  return out;
}
