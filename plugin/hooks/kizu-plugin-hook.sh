#!/bin/sh
# kizu-plugin-hook.sh: the hook runner of git-kizu's Claude Code plugin (hooks/hooks.json runs
# it as `sh "${CLAUDE_PLUGIN_ROOT}/hooks/kizu-plugin-hook.sh" <event>`, with the hook payload
# on stdin). The plugin (plugin/ in the git-kizu repository, copied as is into Claude Code's
# plugin cache) holds no git-kizu, so it runs the git-kizu on PATH: install git-kizu
# (npm install -g git-kizu) for the plugin to work.
# The events (templates/hooks/kizu-hook.sh, the runner `git kizu init` writes into a
# repository, takes the same; the names are git-kizu's, registered as in
# src/agents/claude/settings.ts):
#   stop                Stop and SubagentStop
#   post-tool-use       PostToolUse (Write, Edit, MultiEdit, NotebookEdit)
#   journal             PostToolUse, run async: records the edit in the git-kizu edit
#                       journal (refs/kizu/journal; list it with `git kizu journal`)
#   user-prompt-submit  UserPromptSubmit: snapshots the working tree (refs/kizu/snapshots)
#   pre-tool-use        PreToolUse (Bash and the editing tools): the pre-tool gate
# It runs `git-kizu hook <event>` when git-kizu and node are on PATH. If they are not, or the
# event is not one of these, it says so in one line on stderr, reads the payload and exits 0,
# so it never blocks the agent or the prompt; except pre-tool-use, the gate, which fails
# closed when git-kizu cannot run: exit 2, and the tool call does not run.
case "$1" in
  stop) kizu_label='Stop' ;;
  post-tool-use) kizu_label='PostToolUse' ;;
  journal) kizu_label='PostToolUse journal' ;;
  user-prompt-submit) kizu_label='UserPromptSubmit' ;;
  pre-tool-use) kizu_label='PreToolUse' ;;
  *)
    echo "git-kizu: hook skipped: $0 was run with \"$1\", expected stop, post-tool-use, journal, user-prompt-submit or pre-tool-use; reinstall the git-kizu plugin (claude plugin update git-kizu@git-kizu)" >&2
    [ -t 0 ] || cat >/dev/null # drain the payload so the agent's write does not fail
    exit 0
    ;;
esac
if command -v git-kizu >/dev/null 2>&1 && command -v node >/dev/null 2>&1; then
  exec git-kizu hook "$1"
fi
[ -t 0 ] || cat >/dev/null # drain the payload so the agent's write does not fail
if [ "$kizu_label" = PreToolUse ]; then
  # The pre-tool gate fails closed: a call it cannot judge does not run (exit 2: refused).
  echo "git-kizu: tool call refused: the pre-tool gate cannot run here: the git-kizu Claude Code plugin needs git-kizu and node on PATH; the human installs git-kizu (npm install -g git-kizu) where Claude Code's PATH finds it" >&2
  exit 2
fi
echo "git-kizu: $kizu_label hook skipped: the git-kizu Claude Code plugin needs git-kizu and node on PATH; install git-kizu (npm install -g git-kizu) where Claude Code's PATH finds it" >&2
exit 0
