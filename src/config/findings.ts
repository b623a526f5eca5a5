/**
 * The config findings that `status`, `doctor` and `init` show (issue 22): a working-tree
 * config whose gate keys are not applied (./trust.ts), a committed config missing from the
 * working tree, and a committed config whose gate keys are weaker than the defaults (a
 * repository someone else configured: named, not refused).
 */
import { checkConfig, defaultConfig, loadConfigLenient } from './config.js';
import { GATE_KEYS, keyValue, sameAt } from './gate-keys.js';
import { committedConfig, headPlaces } from './trust.js';
import { commitFix, untrustedWhat } from './untrusted.js';

/** One finding about the config, for `status`, `doctor` and `init`. */
export interface ConfigFinding {
  /** True for a working config not applied (something to do), false for a committed one that weakens review (to know). */
  actionable: boolean;
  /** What was found, one sentence. */
  detail: string;
  /** The command or edit that changes it. */
  fix: string;
}

/**
 * The config findings of the repository at `root`: a working-tree config whose gate keys
 * are not applied (see {@link applyTrusted}; also a committed config missing from the working
 * tree, whose gate keys then take the defaults), and a committed config whose gate keys are
 * weaker than the defaults (a repository someone else configured). Reads the working config
 * leniently (an invalid one is `doctor`'s own check). Never throws: git failing gives [].
 */
export async function configFindings(root: string): Promise<ConfigFinding[]> {
  try {
    const { untrusted } = await loadConfigLenient(root);
    const out: ConfigFinding[] = [];
    const { ids, ok } = await headPlaces(root);
    const committed = ok ? await committedConfig(root, ids, (raw, file) => checkConfig(raw, file).cfg) : { config: defaultConfig(), file: null };
    if (untrusted) {
      const what = untrustedWhat(untrusted);
      out.push({
        actionable: true,
        detail: `${what}, so its ${untrusted.keys.length === 1 ? 'change' : 'changes'} to ${untrusted.keys.join(', ')} ${untrusted.keys.length === 1 ? 'is' : 'are'} not applied (${untrusted.committed ? `the committed ${untrusted.committed}'s values are used` : 'the defaults are used: nothing is committed'})`,
        fix: `commit it to apply it: ${commitFix(untrusted)}`,
      });
    } else if (committed.file) {
      // A committed config the working tree has lost (deleted): the hooks then use the defaults.
      const { searchConfigFile } = await import('./search.js');
      const working = await searchConfigFile(root).catch(() => undefined);
      if (working === null) {
        const keys = GATE_KEYS.filter((k) => !sameAt(defaultConfig(), committed.config, k.key)).map((k) => k.key);
        if (keys.length) {
          out.push({
            actionable: true,
            detail: `the committed ${committed.file} is missing from the working tree, so its ${keys.join(', ')} ${keys.length === 1 ? 'is' : 'are'} not applied (the defaults are used)`,
            fix: `restore it: git checkout HEAD -- ${committed.file}, or commit its removal: git rm -- ${committed.file} && git commit`,
          });
        }
      }
    }
    if (committed.file) {
      const def = defaultConfig();
      const weak = GATE_KEYS.map((k) => ({ k, w: k.weakens?.(keyValue(committed.config, k.key), keyValue(def, k.key)) ?? null })).filter((x) => x.w !== null);
      if (weak.length) {
        out.push({
          actionable: false,
          detail: `the committed ${committed.file} weakens review: ${weak.map(({ k, w }) => `${k.key} ${w}`).join('; ')}`,
          fix: `if that is not wanted, change ${committed.file} and commit it`,
        });
      }
    }
    return out;
  } catch {
    return [];
  }
}

