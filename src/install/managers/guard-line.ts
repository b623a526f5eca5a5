/**
 * The one shell command every hook-manager integration runs for the pre-commit guard. It
 * holds no machine facts (it goes into committed files): it finds this clone's launcher
 * (install/launcher.ts) at run time, else `git-kizu` on PATH, else says so on stderr and lets
 * the commit through. A failing check exits with git-kizu's status (1: staged scars).
 * It contains no single quote and no backquote, so it can be wrapped in `sh -c '...'`.
 */
export const GUARD_COMMAND =
  'kizu_guard="$(git rev-parse --git-common-dir)/kizu/git-kizu"; ' +
  'if [ -x "$kizu_guard" ]; then "$kizu_guard" hook pre-commit || exit $?; ' +
  'elif command -v git-kizu >/dev/null 2>&1 && command -v node >/dev/null 2>&1; then git-kizu hook pre-commit || exit $?; ' +
  'else echo "git-kizu: review-scar check skipped: git-kizu is not installed for this clone (npm install -g git-kizu, then: git kizu init)" >&2; fi';

/** The comment kizu puts above {@link GUARD_COMMAND} where the format has comments. */
export const GUARD_COMMENT = 'git-kizu: refuse commits whose staged files hold review scars (added by git kizu init; git kizu teardown removes it)';
