// `git kizu review` in a terminal: the prompt, the help, and how it shows hunks.

/** The key prompt (after the `(i/n) ` counter). */
export const PROMPT = 'Review this hunk [space,!,a,r,c,x,X,s,q,?]? ';
/** What `?` lists. */
export const HELP = [
  'space - tap: mark this hunk reviewed and OK',
  '!     - reject: mark this hunk reviewed and not OK',
  'a     - ask scar: write the canned ask scar above the first changed line',
  'r     - reject scar: write the canned reject scar above the first changed line',
  'c     - free scar: type the scar text (Enter writes it, Esc cancels)',
  'x     - revert this hunk (the file is saved in refs/kizu/reverts first)',
  'X     - revert this hunk and write a scar "reverted: <reason>" (type the reason)',
  's     - skip: leave this hunk as it is and go to the next one',
  'q     - quit: stop here and list the hunks not tapped yet',
  '?     - help: show this list',
];
/** What the pane shows after the review exits: its exit status and the terminal's mode. */
export const TAIL = ['EXIT=0', 'TTY: isig icanon echo'];

/** A hunk as the `not tapped` list at the end shows it (`mark` shown unless unreviewed). */
export const listLine = (h, mark = h.mark) => `  ${h.shortId}  ${h.range}  +${h.added} -${h.removed}  ${h.kind}${mark !== 'unreviewed' ? `  [${mark}]` : ''}`;
/** The header line review shows above a hunk. */
export const head = (h, mark = 'unreviewed') => `${h.shortId}  ${h.range}  +${h.added} -${h.removed}  ${h.kind}  [${mark}]`;
