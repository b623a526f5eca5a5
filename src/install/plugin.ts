/**
 * `git kizu init --agent claude --via plugin`: no Claude Code settings are written; Claude
 * Code gets the hooks and `/kizu` from the git-kizu plugin (agents/claude/plugin.ts), which
 * the installed package ships (`plugin/`, with the one-plugin marketplace
 * `.claude-plugin/marketplace.json` at the package root). Init prints the two commands that
 * install it from the package's own directory.
 */
import { PACKAGE_ROOT } from '../package.js';
import { pluginInstallCommands } from '../agents/claude/plugin.js';

/**
 * The lines init prints for `--via plugin`: the two `claude plugin` commands (the
 * marketplace added from `root`, the installed package's directory, then the plugin
 * installed from it) and that the plugin's hooks run `git-kizu` from PATH.
 */
export function pluginSteps(root = PACKAGE_ROOT): string[] {
  const [add, install] = pluginInstallCommands(root);
  return [
    'Claude Code gets the hooks and /kizu from the git-kizu plugin; install it with:',
    `  ${add}`,
    `  ${install}`,
    "The plugin's hooks run git-kizu from PATH (keep `npm install -g git-kizu` installed); restart Claude Code afterwards.",
  ];
}
