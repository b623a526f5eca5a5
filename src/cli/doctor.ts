/** `git kizu doctor [--json]`: checks the whole install (src/install/doctor.ts) and names the fixes. */
import os from 'node:os';
import { EXIT } from '../errors.js';
import { pc, type Reporter } from '../output.js';
import { checkInstall, type Check } from '../install/doctor.js';

export interface DoctorCommandInput {
  cwd: string;
  json: boolean;
  reporter: Reporter;
  /** Home directory (default: the HOME environment variable). */
  home?: string;
}

/**
 * Prints one line per check (`ok`, `warn` or `fix`, what was found, and the fix), or
 * `{"ok": <all ok>, "checks": [Check...]}` with `json`.
 * @returns 0 when every check is ok (warnings included), else 1.
 */
export async function doctorCommand(i: DoctorCommandInput): Promise<number> {
  const checks: Check[] = await checkInstall(i.cwd, i.home ?? process.env.HOME ?? os.homedir());
  const ok = checks.every((c) => c.ok);
  if (i.json) {
    i.reporter.log(JSON.stringify({ ok, checks }));
  } else {
    for (const c of checks) {
      i.reporter.log(`${c.warn ? pc.yellow('warn') : c.ok ? pc.green('ok ') : pc.red('fix')}${c.warn ? ' ' : '  '}${c.name}: ${c.detail}${c.fix ? `; fix: ${c.fix}` : ''}`);
    }
    i.reporter.log(ok ? 'everything git-kizu needs is in place' : `${checks.filter((c) => !c.ok).length} to fix (see the lines marked fix)`);
  }
  return ok ? EXIT.OK : EXIT.FOUND;
}
