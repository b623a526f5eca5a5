/**
 * git-kizu as a Claude Code plugin: this package (and the repository it is built from) is also
 * a one-plugin marketplace (`.claude-plugin/marketplace.json`, `.claude-plugin/plugin.json`,
 * `hooks/hooks.json`; Claude Code docs "Plugins reference" and "Plugin marketplaces").
 * `git kizu init --agent claude --via plugin` writes no Claude Code settings and prints the
 * two commands that install the plugin from the installed package's directory.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../package.js';
import { shellQuote } from '../words.js';

/** The plugin's name in `.claude-plugin/plugin.json`. */
export const PLUGIN_NAME = 'git-kizu';

/**
 * The marketplace's name (`name` of `<PACKAGE_ROOT>/.claude-plugin/marketplace.json`).
 * @throws Error when the file is missing or has no string `name` (a broken installation).
 */
export function marketplaceName(root = PACKAGE_ROOT): string {
  const v = JSON.parse(readFileSync(path.join(root, '.claude-plugin', 'marketplace.json'), 'utf8')) as { name?: unknown };
  if (typeof v.name !== 'string' || !v.name) throw new Error(`${path.join(root, '.claude-plugin', 'marketplace.json')} has no "name"`);
  return v.name;
}

/**
 * The lines init prints for `--via plugin`: the two `claude plugin` commands (the
 * marketplace added from this package's directory, then the plugin installed from it) and
 * that the plugin's hooks run `git-kizu` from PATH.
 */
export function pluginSteps(root = PACKAGE_ROOT): string[] {
  return [
    'Claude Code gets the hooks and /kizu from the git-kizu plugin; install it with:',
    `  claude plugin marketplace add ${shellQuote(root)}`,
    `  claude plugin install ${PLUGIN_NAME}@${marketplaceName(root)}`,
    "The plugin's hooks run git-kizu from PATH (keep `npm install -g git-kizu` installed); restart Claude Code afterwards.",
  ];
}
