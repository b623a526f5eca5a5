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
 * The `baseline` check: a refs/kizu/baseline outside HEAD's history was moved, and hunks and
 * revert would trust it (issue 22, #86; hunks/baseline.ts baselineOutsideHead). Null when no
 * baseline ref is set, it is in HEAD's history, or `cwd` is not in a repository.
 */
async function movedBaseline(cwd: string): Promise<Check | null> {
  const { git } = await import('../git/run.js');
  const { BASELINE_REF } = await import('../git/layout.js');
  const b = await import('../hunks/baseline.js');
  const r = await git(['rev-parse', '--verify', '-q', `${BASELINE_REF}^{commit}`], { cwd, okStatus: [0, 1, 128] });
  const oid = r.status === 0 ? r.stdout.toString('utf8').trim() : '';
  if (!oid || !(await b.baselineOutsideHead(cwd, { rev: BASELINE_REF, oid, fromRef: true }))) return null;
  return { name: 'baseline', ok: false, detail: b.baselineMovedText(oid), fix: b.BASELINE_MOVED_FIX };
}

/**
 * Prints one line per check (`ok`, `warn` or `fix`, what was found, and the fix; a moved
 * baseline is one: {@link movedBaseline}), or
 * `{"ok": <all ok>, "checks": [Check...]}` with `json`.
 * @returns 0 when every check is ok (warnings included), else 1.
 */
export async function doctorCommand(i: DoctorCommandInput): Promise<number> {
  const checks: Check[] = await checkInstall(i.cwd, i.home ?? process.env.HOME ?? os.homedir());
  const moved = await movedBaseline(i.cwd);
  if (moved) checks.push(moved);
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
