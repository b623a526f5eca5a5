// The man page git-kizu(1), made from README.md at build time (`npm run build` runs this file;
// `man/git-kizu.1` is a build output, not committed, so it cannot drift from the README).
// The README is the one source: its title and opening paragraphs become NAME and DESCRIPTION,
// and every `##` section is copied in order (`###` become subsections), except the sections
// for people working on git-kizu itself (DEVELOPER_SECTIONS). GFM tables, which roff tables
// cannot wrap, become lists (one item per row); NAME is the first sentence of the opening paragraph. Compiled with remark-man (mdast to roff,
// man(7) macros; a devDependency: nothing of it runs when git-kizu does).
// Run directly: `node man/from-readme.mjs` writes man/git-kizu.1 next to this file.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkGfm from 'remark-gfm';
import remarkMan from 'remark-man';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
/** Where the build writes the page; package.json `man` names it. */
export const MAN_FILE = path.join(ROOT, 'man', 'git-kizu.1');
/** `##` sections of the README left out of the man page (they are about working on git-kizu). */
export const DEVELOPER_SECTIONS = ['Set up (from a clone)', 'Development'];

const text = (node) => (node.value ?? '') + (node.children ?? []).map(text).join('');

/**
 * A GFM table as a list: one item per body row, `<first cell>; <header>: <cell>; ... — <last
 * cell>` (the last column is the prose, the ones between are short facts).
 */
function tableAsList(table) {
  const [head, ...rows] = table.children;
  const headers = head.children.map(text);
  const items = rows.map((row) => {
    const cells = row.children;
    const children = [...cells[0].children];
    for (let i = 1; i < cells.length - 1; i++) children.push({ type: 'text', value: `; ${headers[i]}: ` }, ...cells[i].children);
    if (cells.length > 1) children.push({ type: 'text', value: ' — ' }, ...cells[cells.length - 1].children);
    return { type: 'listItem', spread: false, children: [{ type: 'paragraph', children }] };
  });
  return { type: 'list', ordered: false, spread: false, children: items };
}

function tablesAsLists(node) {
  if (!node.children) return node;
  return { ...node, children: node.children.map((c) => (c.type === 'table' ? tableAsList(c) : tablesAsLists(c))) };
}

/**
 * The man page (roff, man(7)) for the README text `readme`.
 * @param {string} readme README.md as text (GFM)
 * @param {{version: string, date: string | number | Date}} o the page footer: package version
 *   and the date remark-man prints as "<Month> <year>"
 * @returns {string} the page, ending in a newline
 * @throws Error when the README does not start with a `# ` title
 */
export function manPage(readme, { version, date }) {
  const tree = unified().use(remarkParse).use(remarkGfm).parse(readme);
  const [title, ...rest] = tree.children;
  if (title?.type !== 'heading' || title.depth !== 1) throw new Error('README.md must start with a "# " title');
  // NAME: the first sentence of the README's opening paragraph.
  const intro = rest.find((n) => n.type === 'paragraph');
  const summary = intro ? text(intro).replace(/\s+/g, ' ').replace(/\..*$/, '') : '';
  const children = [
    { type: 'heading', depth: 1, children: [{ type: 'text', value: `${text(title)}(1) -- ${summary.charAt(0).toLowerCase()}${summary.slice(1)}` }] },
    { type: 'heading', depth: 2, children: [{ type: 'text', value: 'SYNOPSIS' }] },
    {
      type: 'paragraph',
      children: [
        { type: 'inlineCode', value: 'git kizu <command> [<options>] [<arguments>]' },
        { type: 'break' },
        { type: 'inlineCode', value: 'git kizu help [<command>]' },
      ],
    },
    { type: 'heading', depth: 2, children: [{ type: 'text', value: 'DESCRIPTION' }] },
  ];
  let keep = true;
  for (const node of rest) {
    if (node.type === 'heading' && node.depth === 2) keep = !DEVELOPER_SECTIONS.includes(text(node));
    if (keep) children.push(node);
  }
  const page = unified()
    .use(remarkMan, { version, date, manual: 'git-kizu manual' })
    .stringify(tablesAsLists({ type: 'root', children }));
  // A text line that starts with `.` or `'` (a table row such as `.env`, a sentence wrapped
  // before `...`) would be read as a roff request and vanish: `\&` (zero width) keeps it text.
  // The requests remark-man writes are left alone.
  const escaped = String(page).replace(/^(?=[.'](?!(?:TH|SH|SS|P|PP|LP|IP|TP|RS|RE|B|I|BR|IR|nf|fi|br|sp|in|ti)(?: |$)))/gm, '\\&');
  return escaped.endsWith('\n') ? escaped : `${escaped}\n`;
}

/**
 * The date of the page: `SOURCE_DATE_EPOCH` (seconds) when set, else the committer date of
 * the last commit that changed README.md, else now (not a git checkout).
 * @returns {Date}
 */
export function manDate(env = process.env) {
  if (env.SOURCE_DATE_EPOCH && /^\d+$/.test(env.SOURCE_DATE_EPOCH)) return new Date(Number(env.SOURCE_DATE_EPOCH) * 1000);
  try {
    const iso = execFileSync('git', ['log', '-1', '--format=%cI', '--', 'README.md'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    if (iso) return new Date(iso);
  } catch {
    /* not a git checkout */
  }
  return new Date();
}

/** The page for this checkout: its README.md, package.json version and {@link manDate}. */
export function currentManPage() {
  const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  return manPage(readFileSync(path.join(ROOT, 'README.md'), 'utf8'), { version, date: manDate() });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(MAN_FILE, currentManPage());
}
