// Config files in a sandbox as a user sets them up: written and committed, since the keys
// that can weaken review take effect only from the committed config (src/config/trust.ts).
/**
 * Writes `files` (relative path -> text) into the sandbox's repository and commits them
 * (`git add -f`, so an ignored name is committed too) with the message `config`.
 */
export function commitConfig(sb, files) {
  sb.write(files);
  sb.git('add', '-f', '--', ...Object.keys(files));
  sb.git('commit', '-q', '-m', 'config');
}
