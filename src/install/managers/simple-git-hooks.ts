/**
 * simple-git-hooks (https://github.com/toplenboren/simple-git-hooks, 2.x): `npx
 * simple-git-hooks` reads its configuration and writes each configured command into the git
 * hook of that name (`#!/bin/sh` + a fixed prelude + the command, no final newline; it deletes
 * the hooks that are not configured). Its configuration, in the order it looks:
 * `.simple-git-hooks.{cjs,js,mjs}`, `simple-git-hooks.{cjs,js,mjs}`, `.simple-git-hooks.json`,
 * `simple-git-hooks.json`, the `simple-git-hooks` key of package.json.
 *
 * kizu adds the guard to the `pre-commit` command so that the existing command still decides
 * first: `<existing> && { <GUARD_COMMAND>; }` (the added part is one insertion at the end of
 * the JSON string), or creates the `pre-commit` key (and, in package.json, the
 * `simple-git-hooks` object when only the dependency is there). JavaScript configurations
 * and commands that would swallow an appended command (a `#` comment, a trailing `;`, `&` or
 * `|`, a newline) are printed instead. No local-only configuration.
 */
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { findNodeAtLocation, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { KizuError } from '../../errors.js';
import { GUARD_COMMAND } from './guard-line.js';
import { eolOf } from '../../words.js';
import type { AddPlan, Detected, DetectInput, HookManager } from './types.js';

/** The prelude simple-git-hooks 2.x writes before the configured command (simple-git-hooks.js `PREPEND_SCRIPT`). */
export const SGH_PRELUDE =
  '#!/bin/sh\nif [ "$SKIP_SIMPLE_GIT_HOOKS" = "1" ]; then\n    echo "[INFO] SKIP_SIMPLE_GIT_HOOKS is set to 1, skipping hook."\n    exit 0\nfi\nif [ -f "$SIMPLE_GIT_HOOKS_RC" ]; then\n    . "$SIMPLE_GIT_HOOKS_RC"\nfi\n';

/** What kizu appends to an existing `pre-commit` command (raw, before JSON escaping). */
export const SGH_SUFFIX = ` && { ${GUARD_COMMAND}; }`;

const CONFIG_FILES = [
  '.simple-git-hooks.cjs',
  '.simple-git-hooks.js',
  '.simple-git-hooks.mjs',
  'simple-git-hooks.cjs',
  'simple-git-hooks.js',
  'simple-git-hooks.mjs',
  '.simple-git-hooks.json',
  'simple-git-hooks.json',
];

function readJson(file: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The JSON path of the `pre-commit` command in `file`. */
function commandPath(file: string): string[] {
  return path.basename(file) === 'package.json' ? ['simple-git-hooks', 'pre-commit'] : ['pre-commit'];
}

function parse(text: string, file: string): Node {
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: false, disallowComments: true });
  if (errors.length || !tree || tree.type !== 'object') {
    const why = errors.length ? `${printParseErrorCode(errors[0].error)} at offset ${errors[0].offset}` : 'not a JSON object';
    throw new KizuError(`cannot add the pre-commit guard to ${file}: it is not valid JSON (${why})`, {
      hint: 'fix the file (or pass --no-pre-commit), then run the command again; nothing was changed',
    });
  }
  return tree;
}

/** The configured pre-commit command in `text` (a configuration file's JSON), or null. Never throws. */
function configuredCommand(text: string | null, file: string): string | null {
  if (text === null) return null;
  try {
    const node = findNodeAtLocation(parse(text, file), commandPath(file));
    return node?.type === 'string' ? (node.value as string) : null;
  } catch {
    return null;
  }
}

/** Leading whitespace of the line `offset` is on, if only whitespace precedes `offset` there (else null: not on a line of its own). */
function lineIndent(text: string, offset: number): string | null {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const lead = text.slice(start, offset);
  return /^[ \t]*$/.test(lead) ? lead : null;
}

/** One insertion adding member `key: value` (value JSON text, possibly multi-line with `\n` to be re-indented) to the object `obj`. */
function addMember(text: string, obj: Node, key: string, value: (indent: string, eol: string) => string): AddPlan | null {
  const eol = eolOf(text);
  const props = obj.children ?? [];
  if (!props.length) {
    const inner = text.slice(obj.offset + 1, obj.offset + obj.length - 1);
    if (inner.trim()) return null;
    return { kind: 'insert', insertion: { offset: obj.offset + 1, text: ` ${JSON.stringify(key)}: ${value('', ' ')} ` } };
  }
  const last = props[props.length - 1];
  const indent = lineIndent(text, last.offset);
  const end = last.offset + last.length;
  if (indent === null) return { kind: 'insert', insertion: { offset: end, text: `, ${JSON.stringify(key)}: ${value('', ' ')}` } };
  return { kind: 'insert', insertion: { offset: end, text: `,${eol}${indent}${JSON.stringify(key)}: ${value(indent, eol)}` } };
}

/**
 * True if the sh command `cmd` never reaches a command appended with `&&`: it starts with
 * `exit`, ends with `exit` other than after `||` (`lint || exit 1` goes on when lint passes),
 * or `exec`s (the shell is replaced). Split on `&&`, `||`, `;` and `|` (quotes are not
 * parsed: a command that only looks like this is printed, never edited wrongly).
 */
function endsTheShell(cmd: string): boolean {
  const parts = cmd.split(/(&&|\|\||;|\|)/).map((x) => x.trim());
  const segs = parts.filter((_, i) => i % 2 === 0);
  const lastOp = parts.length > 1 ? parts[parts.length - 2] : null;
  return segs.some((x) => /^exec\b/.test(x)) || /^exit\b/.test(segs[0]) || (/^exit\b/.test(segs[segs.length - 1]) && lastOp !== '||');
}

/** The indentation unit of `text` (the first indented line's leading whitespace), default two spaces. */
function indentUnit(text: string): string {
  const m = /\n([ \t]+)\S/.exec(text);
  return m ? m[1] : '  ';
}

/** The simple-git-hooks integration. */
export const simpleGitHooks: HookManager = {
  id: 'simple-git-hooks',
  detect(i: DetectInput): Detected | null {
    const pkgFile = path.join(i.root, 'package.json');
    const mk = (file: string): Detected => ({
      id: 'simple-git-hooks',
      file,
      label: `simple-git-hooks (${path.basename(file) === 'package.json' ? 'package.json "simple-git-hooks"' : path.basename(file)})`,
      reinstall: 'npx simple-git-hooks',
    });
    for (const name of CONFIG_FILES) if (existsSync(path.join(i.root, name))) return mk(path.join(i.root, name));
    const pkg = readJson(pkgFile);
    if (!pkg) return null;
    if ('simple-git-hooks' in pkg) return mk(pkgFile);
    const deps = [pkg.devDependencies, pkg.dependencies].filter((d): d is Record<string, unknown> => !!d && typeof d === 'object');
    return deps.some((d) => 'simple-git-hooks' in d) ? mk(pkgFile) : null;
  },
  plan(text, d): AddPlan {
    const name = path.basename(d.file);
    const entry = `"pre-commit": ${JSON.stringify(GUARD_COMMAND)}`;
    if (!name.endsWith('.json')) {
      return { kind: 'print', snippet: entry, why: `${name} is JavaScript, which git-kizu does not edit; add the guard to its pre-commit command` };
    }
    if (text === null) return { kind: 'print', snippet: entry, why: `${name} is missing` };
    const tree = parse(text, name);
    const p = commandPath(d.file);
    const node = findNodeAtLocation(tree, p);
    if (node) {
      if (node.type !== 'string') return { kind: 'print', snippet: entry, why: `the pre-commit entry in ${name} is not a string` };
      const cmd = node.value as string;
      if (cmd.includes(GUARD_COMMAND)) return { kind: 'present' };
      if (!cmd.trim() || /[#\n]|[;&|]\s*$/.test(cmd) || endsTheShell(cmd)) {
        return { kind: 'print', snippet: SGH_SUFFIX.trimStart(), why: `the pre-commit command in ${name} cannot safely be extended; append this to it` };
      }
      return { kind: 'insert', insertion: { offset: node.offset + node.length - 1, text: JSON.stringify(SGH_SUFFIX).slice(1, -1) } };
    }
    let plan: AddPlan | null;
    if (p.length === 2) {
      const cfg = findNodeAtLocation(tree, [p[0]]);
      if (cfg && cfg.type !== 'object') return { kind: 'print', snippet: entry, why: `"simple-git-hooks" in ${name} is not an object` };
      plan = cfg
        ? addMember(text, cfg, 'pre-commit', () => JSON.stringify(GUARD_COMMAND))
        : addMember(text, tree, 'simple-git-hooks', (indent, eol) =>
            eol === ' ' ? `{ ${entry} }` : `{${eol}${indent}${indentUnit(text)}${entry}${eol}${indent}}`,
          );
    } else plan = addMember(text, tree, 'pre-commit', () => JSON.stringify(GUARD_COMMAND));
    return plan ?? { kind: 'print', snippet: entry, why: `${name} has an unusual shape` };
  },
  has(text) {
    return text.includes(JSON.stringify(GUARD_COMMAND).slice(1, -1));
  },
  hookProblem(i, d) {
    let hook: string | null = null;
    try {
      hook = i.hooksDir ? readFileSync(path.join(i.hooksDir, 'pre-commit'), 'utf8') : null;
    } catch {
      /* absent */
    }
    if (hook !== null && hook.includes(GUARD_COMMAND)) return null;
    return { why: `the git pre-commit hook simple-git-hooks generated does not run the guard yet (its configuration ${path.basename(d.file)} does)`, fix: 'npx simple-git-hooks' };
  },
  generatedHook(text, d) {
    const cmd = configuredCommand(text, d.file);
    return cmd === null ? null : SGH_PRELUDE + cmd;
  },
};
