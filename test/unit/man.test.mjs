// The man page git-kizu(1) (man/from-readme.mjs): the build's man/git-kizu.1 is the README's
// user-facing sections, rendered by the real man (man-db, groff).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../helpers/sandbox.mjs';
import { manPage, currentManPage, MAN_FILE, DEVELOPER_SECTIONS } from '../../man/from-readme.mjs';

const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const DATE = '2026-01-15T12:00:00Z';

/** `man -l` of a page as plain ASCII, one paragraph per line (no wrapping, no hyphenation), spaces collapsed. */
function rendered(page) {
  const r = spawnSync('man', ['-E', 'ascii', '-l', '-'], {
    input: page,
    encoding: 'utf8',
    env: { ...process.env, MANWIDTH: '5000', MANROFFOPT: '-rHY=0', MANPAGER: 'cat', PAGER: 'cat', LANG: 'C.UTF-8' },
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.replace(/[ \t]+/g, ' ');
}

/** Markdown inline text as man prints it in ASCII: no backticks, emphasis marks or link targets, `\|` as `|`. */
const plain = (md) =>
  md
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .replace(/\\\|/g, '|')
    .replace(/\*+/g, '')
    .trim();

/** The body rows of the GFM tables in `md` (a header row is the one above a `| --- |` line). */
function tableRows(md) {
  const lines = md.split('\n');
  return lines.filter((l, k) => /^\|.*\|$/.test(l) && !/^\|[\s:|-]+\|$/.test(l) && !/^\|[\s:|-]+\|$/.test(lines[k + 1] ?? ''));
}

/** The README's `##` sections: [heading, body]. */
function sections(readme) {
  const parts = readme.split(/^## /m).slice(1);
  return parts.map((p) => [p.slice(0, p.indexOf('\n')), p.slice(p.indexOf('\n') + 1)]);
}

test('man/git-kizu.1 (built by npm run build) is the page of the README as it is now', () => {
  const built = readFileSync(MAN_FILE, 'utf8');
  assert.ok(built === currentManPage(), 'man/git-kizu.1 differs from README.md: run npm run build');
});

test('every user-facing README section is in the page, with every row of its tables; developer sections are not', () => {
  const page = manPage(README, { version, date: DATE });
  const text = rendered(page);
  assert.match(page, new RegExp(`^\\.TH "GIT-KIZU" "1" "January 2026" "${version.replace(/\./g, '\\.')}" "git-kizu manual"$`, 'm'));
  assert.match(text, /^NAME\n git-kizu - git-native review for people who let AI coding agents \(Claude Code, Codex CLI, Gemini CLI, Copilot CLI, Cursor\) edit their repositories\n/m);
  const all = sections(README);
  let rows = 0;
  assert.ok(all.length >= 5, all.map(([h]) => h).join(', '));
  for (const [heading, body] of all) {
    const developer = DEVELOPER_SECTIONS.includes(heading);
    assert.equal(page.includes(`.SH "${heading.toUpperCase()}"`), !developer, `section ${heading}`);
    for (const sub of body.match(/^### .*$/gm) ?? []) assert.equal(page.includes(`.SS "${sub.slice(4)}"`), !developer, `subsection ${sub}`);
    if (developer) continue;
    // Each table row's first cell and the start of its last cell, in the rendered page.
    for (const row of tableRows(body)) {
      const cells = row.slice(1, -1).trim().split(/ (?<!\\)\| /);
      const first = plain(cells[0]);
      const last = plain(cells[cells.length - 1]).split(/[;:(]/)[0].trim();
      assert.ok(text.includes(first), `${heading}: ${first}`);
      assert.ok(text.includes(last), `${heading}: ${last}`);
      rows++;
    }
  }
  assert.ok(rows >= 40, `${rows} table rows checked`);
  for (const heading of DEVELOPER_SECTIONS) {
    assert.ok(README.includes(`\n## ${heading}\n`), `README has the section ${heading} the page leaves out`);
  }
  assert.ok(!text.includes('npm run check:cycles'), 'nothing of Development');
});

test('a change to the README changes the page; a change to a developer section does not', () => {
  const base = manPage(README, { version, date: DATE });
  const added = manPage(`${README}\n## Troubleshooting\n\nIf \`git kizu\` is not found, check \`PATH\`.\n`, { version, date: DATE });
  assert.ok(added.startsWith(base.slice(0, -1)), 'the page grows at its end');
  assert.match(added, /\.SH "TROUBLESHOOTING"\n\.P\nIf \\fBgit kizu\\fR is not found, check \\fBPATH\\fR\.\n$/);
  const dev = README.replace('\n## Development\n', '\n## Development\n\nA line for contributors only.\n');
  assert.notEqual(dev, README);
  assert.equal(manPage(dev, { version, date: DATE }), base);
  assert.throws(() => manPage('no title\n', { version, date: DATE }), /README\.md must start with a "# " title/);
});
