/**
 * Finds and parses the config file of a repository with cosmiconfig (module name `kizu`),
 * reading data only: the config is JSON or YAML, never code. A repository's config is
 * read by every hook, and the hooks may be installed for the user (~/.codex, ~/.gemini,
 * ...) and so run in any clone the agent opens; a config that is code would run the
 * repository's JavaScript through git-kizu's already-trusted hooks, past the agents' own
 * folder trust (and `git kizu status` in a fresh clone would run it, where git itself runs
 * no repository code). So:
 * - The places searched are cosmiconfig's defaults for `kizu`, in their order, in the
 *   repository root only. A code file (`.kizurc.js`, `.ts`, `.cjs`, `.mjs`,
 *   `.config/kizurc.*` likewise, `kizu.config.*`) found where cosmiconfig would have loaded
 *   it is refused by name, unread ({@link refuseCode}), instead of silently skipped.
 * - cosmiconfig's "meta config" (its options read from `package.json` "cosmiconfig",
 *   `package.yaml` or `.config/config.{json,yaml,yml,js,ts,cjs,mjs}` of the current
 *   directory, loaded with its default loaders, which run JavaScript) is not read: the
 *   search is cosmiconfig's Explorer built with these options directly, as `cosmiconfig()`
 *   builds it after reading the meta config (cosmiconfig 9.0.2, pinned in package.json).
 * - `$import` (cosmiconfig's way for a config to merge in other files) is refused: the
 *   config is the one file found.
 * Imported only when a config file may exist (config.ts), so the hooks' path through a
 * repository without one loads none of this.
 */
import path from 'node:path';
import { defaultLoaders, type CosmiconfigResult, type LoaderSync } from 'cosmiconfig';
import { KizuError } from '../errors.js';
import { quoteCStyle } from '../git/quote.js';
import { loadJsonConfig } from './json-loader.js';

/** The data places, then the code places, exactly as cosmiconfig 9 orders its defaults for `kizu`. */
export const SEARCH_PLACES = [
  'package.json',
  '.kizurc',
  '.kizurc.json',
  '.kizurc.yaml',
  '.kizurc.yml',
  '.kizurc.js',
  '.kizurc.ts',
  '.kizurc.cjs',
  '.kizurc.mjs',
  '.config/kizurc',
  '.config/kizurc.json',
  '.config/kizurc.yaml',
  '.config/kizurc.yml',
  '.config/kizurc.js',
  '.config/kizurc.ts',
  '.config/kizurc.cjs',
  '.config/kizurc.mjs',
  'kizu.config.js',
  'kizu.config.ts',
  'kizu.config.cjs',
  'kizu.config.mjs',
] as const;

/**
 * The loader of a code config file: throws without running or importing it.
 * @throws KizuError (exit 2) `<file> is not read: git-kizu reads only JSON or YAML config
 *   (...); move its settings to .kizurc.json`.
 */
function refuseCode(filepath: string): never {
  const file = quoteCStyle(filepath);
  throw new KizuError(
    `${file} is not read: git-kizu reads only JSON or YAML config (code in a repository's config would run in every hook); move its settings to .kizurc.json`,
    { hint: `write the settings of ${file} as JSON to .kizurc.json in the repository root (or as YAML to .kizurc.yaml) and delete ${file} (see README "Config")` },
  );
}

/**
 * cosmiconfig's YAML loader (js-yaml's safe default schema: data only) with its errors
 * in the words of the JSON loader.
 * @throws KizuError (exit 2) `<file> is not valid YAML: <reason> at line L, column C`
 *   (1-based), or `is not valid JSON or YAML` for `.kizurc`, which may be either.
 */
function loadYamlConfig(filepath: string, content: string): unknown {
  try {
    return (defaultLoaders['.yaml'] as LoaderSync)(filepath, content);
  } catch (e) {
    const file = quoteCStyle(filepath);
    const what = path.extname(filepath) === '' ? 'JSON or YAML' : 'YAML';
    const { reason, mark } = e as { reason?: string; mark?: { line: number; column: number } };
    if (reason && mark) {
      const line = mark.line + 1;
      const column = mark.column + 1;
      throw new KizuError(`${file} is not valid ${what}: ${reason} at line ${line}, column ${column}`, {
        hint: `fix line ${line}, column ${column} of ${file} (see README "Config")`,
      });
    }
    const message = String((e as Error)?.message ?? e).split('\n').filter((l) => l.trim() && !l.startsWith('YAML Error in '))[0] ?? 'syntax error';
    throw new KizuError(`${file} is not valid ${what}: ${message}`, { hint: `fix the syntax of ${file} (see README "Config")` });
  }
}

/**
 * `load` that refuses a config holding `$import` (for package.json: its `kizu` key holding it).
 * @throws KizuError (exit 2) naming the file.
 */
function withoutImports(load: (filepath: string, content: string) => unknown): LoaderSync {
  return (filepath, content) => {
    const value = load(filepath, content) as Record<string, unknown> | null;
    const own = path.basename(filepath) === 'package.json' ? (value as { kizu?: unknown } | null)?.kizu : value;
    if (typeof own === 'object' && own !== null && !Array.isArray(own) && Object.hasOwn(own, '$import')) {
      const file = quoteCStyle(filepath);
      throw new KizuError(`${file} has "$import": git-kizu reads only the config file it finds, not files it names`, {
        hint: `copy the settings of the imported files into ${file} and remove "$import" (see README "Config")`,
      });
    }
    return value;
  };
}

/**
 * The config held by `content` if it were the file at `place` (one of {@link SEARCH_PLACES},
 * root-relative), read as {@link searchConfigFile} reads it: null when cosmiconfig's search
 * would go on to the next place (an empty or blank file; package.json without a `kizu` key;
 * a file holding only `null`), else the parsed value. For the committed config (./trust.ts),
 * whose files are git blobs, not files of the working tree.
 * @param filepath the name used in messages.
 * @throws KizuError (exit 2) as searchConfigFile: a code config, invalid JSON or YAML, `$import`.
 */
export function parseConfigText(place: string, filepath: string, content: string): unknown {
  if (content.trim() === '') return null;
  const ext = path.extname(place);
  if (['.js', '.ts', '.cjs', '.mjs'].includes(ext)) refuseCode(filepath);
  const value = withoutImports(ext === '.json' ? loadJsonConfig : loadYamlConfig)(filepath, content) as unknown;
  const own = path.basename(place) === 'package.json' ? (value as { kizu?: unknown } | null)?.kizu : value;
  return own ?? null;
}

/** The options cosmiconfig 9.0.2's `cosmiconfig()` passes its Explorer (src/index.ts mergeOptions), without a meta config. */
interface ExplorerOptions {
  moduleName: string;
  searchPlaces: readonly string[];
  ignoreEmptySearchPlaces: boolean;
  cache: boolean;
  transform: (r: CosmiconfigResult) => CosmiconfigResult;
  loaders: Record<string, LoaderSync>;
  metaConfigFilePath: null;
  mergeImportArrays: boolean;
  mergeSearchPlaces: boolean;
  searchStrategy: 'none';
}

/**
 * Searches `root` (and no other directory) for the config, in {@link SEARCH_PLACES} order;
 * an empty file is skipped as cosmiconfig skips it.
 * @returns the parsed value (for package.json its `kizu` key) and the absolute path of its
 *   file, or null when there is none.
 * @throws KizuError (exit 2) for a code config file, a file that is not valid JSON or YAML,
 *   `$import`, or a file that cannot be read (e.g. ELOOP, a symlink to itself): `could not
 *   read config <file>: <error>`, the file as cosmiconfig (`filepath`) or node (`path`)
 *   names it.
 */
export async function searchConfigFile(root: string): Promise<{ config: unknown; filepath: string } | null> {
  // The internal class, not cosmiconfig(): that reads the meta config of process.cwd() first,
  // with loaders that run JavaScript (see the module comment). A CommonJS module imported from
  // ESM: its exports are the default export (node), or also named ones (other loaders).
  type ExplorerClass = new (options: ExplorerOptions) => { search(from: string): Promise<CosmiconfigResult> };
  const mod = (await import('cosmiconfig/dist/Explorer.js')) as unknown as { Explorer?: ExplorerClass; default?: { Explorer?: ExplorerClass } };
  const Explorer = mod.default?.Explorer ?? mod.Explorer;
  if (!Explorer) throw new Error('cosmiconfig/dist/Explorer.js has no Explorer class (cosmiconfig changed: see src/config/search.ts)');
  const json = withoutImports(loadJsonConfig);
  const yaml = withoutImports(loadYamlConfig);
  const explorer = new Explorer({
    moduleName: 'kizu',
    searchPlaces: SEARCH_PLACES,
    ignoreEmptySearchPlaces: true,
    cache: false,
    transform: (r) => r,
    loaders: { '.json': json, '.yaml': yaml, '.yml': yaml, noExt: yaml, '.js': refuseCode, '.ts': refuseCode, '.cjs': refuseCode, '.mjs': refuseCode },
    metaConfigFilePath: null,
    mergeImportArrays: true,
    mergeSearchPlaces: true,
    searchStrategy: 'none',
  });
  let result;
  try {
    result = await explorer.search(root);
  } catch (e) {
    if (e instanceof KizuError) throw e;
    // cosmiconfig sets `filepath` on what a loader threw; node sets `path` on a failed read.
    const where = (e as { filepath?: unknown }).filepath ?? (e as { path?: unknown }).path;
    const file = typeof where === 'string' ? quoteCStyle(where) : null;
    const message = String((e as Error)?.message ?? e);
    throw new KizuError(file ? `could not read config ${file}: ${message}` : `could not read config: ${message}`, {
      hint: file ? `fix or remove ${file} (see README "Config")` : 'fix the config file (see README "Config")',
    });
  }
  if (!result) return null;
  return { config: result.isEmpty ? null : result.config, filepath: result.filepath };
}
