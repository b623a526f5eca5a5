// The one language table (src/syntax/languages.ts): the README's table is exactly the
// table's rows, and files find their language by base name, prefix, extension and #! line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { src } from '../helpers/sandbox.mjs';

const { tableRows, languageOf, candidateSyntaxes, LANGUAGES } = await import(src('syntax/languages.ts'));
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The README rows for the table, in its order. */
function readmeTable() {
  const esc = (s) => s.replace(/\|/g, '\\|');
  const code = (x) => `\`${x.open}${x.close ? ' ' + x.close : ''}\``;
  const rows = ['| Language | Files | Scar comment (the first that fits) | Lines inside multi-line tokens found by |', '|---|---|---|---|'];
  for (const { language: l, files } of tableRows()) {
    const syntaxes = l.grammar ? candidateSyntaxes(l) : candidateSyntaxes(l).slice(0, 1);
    const comment = l.none ? 'none: refused' : syntaxes.map((x) => (x.open === '{/*' ? `${code(x)} among JSX children` : code(x))).join(', ');
    const sections = { html: ' (`<script>` by its `lang`/`type`, `<style>` as CSS or SCSS)', astro: ' (front matter as TypeScript; `<script>` and `<style>` as in HTML)', php: ' (the text outside `<?php ?>` as HTML)' };
    const how = l.grammar ? `tree-sitter \`${l.grammar}\`${sections[l.sections] ?? ''}${l.lex ? `, and lexical rule \`${l.lex}\`` : ''}` : l.lex ? `lexical rule \`${l.lex}\`` : l.markdown ? 'fences (refused inside); `#` in front matter' : l.none ? '-' : 'line rule only';
    rows.push(`| ${esc(l.name)} | ${esc(files.join(' '))} | ${esc(comment)} | ${esc(how)} |`);
  }
  return rows.join('\n');
}

test('languages: the README table is the language table, row for row', () => {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const want = readmeTable();
  assert.ok(readme.includes(`\n${want}\n`), `README.md must hold this table exactly:\n${want}`);
});

test('languages: a file finds its language by base name, then prefix, then extension, then its #! line', () => {
  const cases = [
    ['src/a.tsx', 'TSX'],
    ['A.PY', 'Python'],
    ['Dockerfile', 'Dockerfile'],
    ['build/Dockerfile.dev', 'Dockerfile'],
    ['.env.local', '.env'],
    ['.env', '.env'],
    ['CMakeLists.txt', 'CMake'],
    ['Jenkinsfile', 'Groovy'],
    ['x.vue', 'Vue'],
    ['x.htm', 'HTML'],
    ['notes.txt', null],
    ['toString', null],
    ['a.constructor', null],
  ];
  for (const [p, want] of cases) assert.equal(languageOf(p)?.name ?? null, want, p);
  assert.equal(languageOf('bin/deploy', '#!/usr/bin/env bash')?.name, 'Shell');
  assert.equal(languageOf('bin/tool', '#!/usr/bin/python3.12')?.name, 'Python');
  assert.equal(languageOf('bin/cli', '#!/usr/bin/env node')?.name, 'JavaScript');
  assert.equal(languageOf('bin/tool.txt', '#!/bin/sh'), null);
});

test('languages: every grammar named in the table loads and parses its own comment', async () => {
  const { parseDocument, commentAt, disposeDocument } = await import(src('syntax/tree.ts'));
  const seen = new Set();
  for (const l of Object.values(LANGUAGES)) {
    if (!l.grammar || seen.has(l.grammar)) continue;
    seen.add(l.grammar);
    const [first] = candidateSyntaxes(l);
    // PHP code starts after its opening tag (the text before it is HTML).
    const head = l.grammar === 'php' ? '<?php\n' : '';
    const text = `${head}${first.open} c${first.close ? ' ' + first.close : ''}\n`;
    const doc = await parseDocument(l, text);
    assert.deepEqual(commentAt(doc, head.length)?.start, head.length, `${l.grammar}: ${JSON.stringify(text)}`);
    disposeDocument(doc);
  }
  assert.equal(seen.size, 33);
});
