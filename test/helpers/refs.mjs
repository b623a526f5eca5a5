// Reading git refs of a sandbox repo.

/** The object id `ref` names (in `cwd`, default the sandbox repo), or '' when it names none. */
export const rev = (sb, ref, cwd) => sb.git('rev-parse', '--verify', '-q', ref, { allowFail: true, cwd }).trim();

/** The tip of the edit journal (refs/kizu/journal), or '' when there is none. */
export const journalTip = (sb) => rev(sb, 'refs/kizu/journal');

/** The newest commit of the revert trash (refs/kizu/reverts), or '' when there is none. */
export const trashHead = (sb) => rev(sb, 'refs/kizu/reverts');
