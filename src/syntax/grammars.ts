/**
 * Loading tree-sitter grammars, lazily: web-tree-sitter (the WebAssembly build of the
 * tree-sitter runtime) is imported and initialised the first time a file needs parsing,
 * and each grammar (`@cursorless/tree-sitter-wasms/out/tree-sitter-<name>.wasm`, prebuilt
 * for that runtime) the first time a file of its language does. A process that parses
 * nothing loads neither.
 */
import { createRequire } from 'node:module';
import type { Grammar } from './languages.js';
import type { Language as TsLanguage, Parser as TsParser } from 'web-tree-sitter';

type Runtime = typeof import('web-tree-sitter');

let runtime: Promise<Runtime> | null = null;
const languages = new Map<Grammar, Promise<TsLanguage>>();
const parsers = new Map<Grammar, TsParser>();

/**
 * The web-tree-sitter module, initialised once per process. WebAssembly is compiled by V8's
 * baseline compiler only (`--liftoff-only`): git-kizu runs for a moment, and V8's optimizing
 * tier would recompile the grammar's hot functions on background threads that the process
 * then waits for at exit (measured: 0.56 s for a hook that parsed one file in 0.1 s, 0.21 s
 * with Liftoff only; bench/ "hook post-tool-use ... parsed").
 */
function loadRuntime(): Promise<Runtime> {
  runtime ??= import('node:v8').then((v8) => {
    v8.setFlagsFromString('--liftoff-only');
    return import('web-tree-sitter');
  }).then(async (m) => {
    await m.Parser.init();
    return m;
  });
  return runtime;
}

/**
 * A parser for `grammar`, reused within the process (parsing is synchronous, so one parser
 * per grammar is enough).
 * @throws Error when the runtime or the grammar's `.wasm` file cannot be loaded (a broken
 *   install); callers that must not fail (the hooks, scan) fall back to the line rule.
 */
export async function parserFor(grammar: Grammar): Promise<TsParser> {
  const have = parsers.get(grammar);
  if (have) return have;
  const m = await loadRuntime();
  let lang = languages.get(grammar);
  if (!lang) {
    const file = createRequire(import.meta.url).resolve(`@cursorless/tree-sitter-wasms/out/tree-sitter-${grammar}.wasm`);
    lang = m.Language.load(file);
    languages.set(grammar, lang);
  }
  const parser = new m.Parser();
  parser.setLanguage(await lang);
  parsers.set(grammar, parser);
  return parser;
}
