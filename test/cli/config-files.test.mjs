// Which config files git-kizu reads, through the real bin: JSON and YAML only. A code config
// (.kizurc.js and the other places cosmiconfig would load code from) is never run, by the
// hooks (which warn in one line and use the defaults) nor by the commands (which refuse it,
// exit 2); neither is cosmiconfig's meta config (.config/config.cjs of the current
// directory) nor a file named by "$import". Config error messages name the file, and show a
// value JSON cannot write (1e400, NaN) as it is, not as null.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, realpathSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { BIN, hook, sandbox } from '../helpers/sandbox.mjs';
import { stopPayload } from '../helpers/hooks.mjs';

const WHY = "git-kizu reads only JSON or YAML config (code in a repository's config would run in every hook); move its settings to .kizurc.json";

/** Code that creates `marker` when run, in the module syntax `name` would be loaded with. */
function evil(name, marker) {
  const esm = name.endsWith('.mjs') || name.endsWith('.ts');
  return esm
    ? `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'ran');\nexport default {};\n`
    : `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\nmodule.exports = {};\n`;
}

test('a code config is never run: the Stop hook (Codex, Claude Code) warns in one line and uses the defaults; status and scan refuse it, exit 2', () => {
  for (const name of ['.kizurc.js', '.kizurc.cjs', '.kizurc.mjs', '.kizurc.ts', '.config/kizurc.cjs', 'kizu.config.js', 'kizu.config.mjs']) {
    const sb = sandbox({ files: { 'a.txt': 'a\n' } });
    const marker = path.join(sb.base, 'PWNED');
    sb.write({ [name]: evil(name, marker) });
    const file = path.join(realpathSync(sb.dir), name);
    const warning = `git-kizu: warning: ${file} is not read: ${WHY}; the defaults are used until it is fixed (see README "Config")`;

    const codexPayload = { session_id: 'e', turn_id: 't', cwd: sb.dir, hook_event_name: 'Stop', stop_hook_active: false };
    const codex = sb.run(process.execPath, [BIN, 'hook', 'stop', '--agent', 'codex'], { input: JSON.stringify(codexPayload) });
    assert.deepEqual([codex.status, codex.stdout, codex.stderr], [0, JSON.stringify({ systemMessage: warning }) + '\n', warning + '\n'], name);
    const claude = hook(sb, 'stop', stopPayload(sb, false));
    assert.deepEqual([claude.status, claude.stdout, claude.stderr], [0, JSON.stringify({ systemMessage: warning }) + '\n', warning + '\n'], name);

    const refused =
      `git-kizu: error: ${file} is not read: ${WHY}\n` +
      `hint: write the settings of ${file} as JSON to .kizurc.json in the repository root (or as YAML to .kizurc.yaml) and delete ${file} (see README "Config")\n`;
    for (const cmd of ['status', 'scan']) {
      const r = sb.kizu([cmd]);
      assert.deepEqual([r.status, r.stdout, r.stderr], [2, '', refused], `${cmd} with ${name}`);
    }
    assert.equal(existsSync(marker), false, `${name} was run`);
  }
});

test('JSON and YAML configs are read from every place they were: package.json "kizu", .kizurc (JSON or YAML), .kizurc.{json,yaml,yml}, .config/kizurc{,.json,.yaml,.yml}', () => {
  const json = '{"stop": {"maxBlocks": 0}}\n';
  const yaml = 'stop:\n  maxBlocks: 0\n';
  const places = [
    ['package.json', '{"name": "x", "kizu": {"stop": {"maxBlocks": 0}}}\n'],
    ['.kizurc', json],
    ['.kizurc', yaml],
    ['.kizurc.json', json],
    ['.kizurc.yaml', yaml],
    ['.kizurc.yml', yaml],
    ['.config/kizurc', yaml],
    ['.config/kizurc.json', json],
    ['.config/kizurc.yaml', yaml],
    ['.config/kizurc.yml', yaml],
  ];
  for (const [name, text] of places) {
    const sb = sandbox({ files: { [name]: text } });
    const r = sb.kizu(['status']);
    const file = path.join(realpathSync(sb.dir), name);
    assert.deepEqual(
      [r.status, r.stdout, r.stderr],
      [2, '', `git-kizu: error: invalid config in ${file}:\n  - "stop.maxBlocks" must be an integer >= 1, got 0\nhint: fix the listed keys (see README "Config")\n`],
      name,
    );
  }
  // A valid YAML config is used: stop.maxBlocks 1 lets the second stop through.
  const sb = sandbox({ files: { 'src/app.js': 'const a = 1;\n', '.kizurc.yml': 'stop:\n  maxBlocks: 1\n' } });
  sb.write({ 'src/app.js': '// @kizu[ask]: why\nconst a = 1;\n' });
  assert.equal(JSON.parse(hook(sb, 'stop', stopPayload(sb, false)).stdout).decision, 'block');
  const second = hook(sb, 'stop', stopPayload(sb, true));
  assert.equal(second.stderr, '');
  assert.match(JSON.parse(second.stdout).systemMessage, /^git-kizu: allowing the stop after 1 block without progress; 1 scar still unresolved:/);
});

test('a code config behind a data one is not run either (the data one is read, as before); cosmiconfig meta config and "$import" are never read', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  const marker = path.join(sb.base, 'PWNED');
  // .kizurc.json comes before .kizurc.js in the search: it is the config, the other is not touched.
  sb.write({ '.kizurc.json': '{"stop": {"maxBlocks": 2}}\n', '.kizurc.js': evil('.kizurc.js', marker) });
  // cosmiconfig() reads options for every tool from the current directory's .config/config.*, with loaders that run code.
  sb.write({ '.config/config.cjs': evil('config.cjs', marker), '.config/config.js': evil('config.js', marker) });
  const ok = sb.kizu(['scan']);
  assert.deepEqual([ok.status, ok.stdout, ok.stderr], [0, '', '']);
  assert.equal(sb.kizu(['status']).status, 0);
  assert.equal(hook(sb, 'stop', stopPayload(sb, false)).stderr, '');
  assert.equal(existsSync(marker), false, 'the meta config or .kizurc.js was run');

  // "$import" (cosmiconfig merges the files it names) is refused, in a file and in package.json.
  const root = realpathSync(sb.dir);
  sb.write({ '.kizurc.json': '{"$import": "./more.js", "stop": {"maxBlocks": 2}}\n', 'more.js': evil('more.js', marker) });
  const imp = sb.kizu(['scan']);
  const file = path.join(root, '.kizurc.json');
  assert.deepEqual(
    [imp.status, imp.stdout, imp.stderr],
    [2, '', `git-kizu: error: ${file} has "$import": git-kizu reads only the config file it finds, not files it names\nhint: copy the settings of the imported files into ${file} and remove "$import" (see README "Config")\n`],
  );
  const only = sandbox({ files: { 'package.json': '{"name": "x", "kizu": {"$import": "./more.json"}}\n', 'more.json': '{}\n' } });
  const pkg = path.join(realpathSync(only.dir), 'package.json');
  const r = only.kizu(['status']);
  assert.deepEqual([r.status, r.stderr.split('\n')[0]], [2, `git-kizu: error: ${pkg} has "$import": git-kizu reads only the config file it finds, not files it names`]);
  assert.equal(existsSync(marker), false);
});

test('config errors name the file: YAML syntax (line and column), JSON or YAML in .kizurc, a file that cannot be read', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  const root = realpathSync(sb.dir);
  sb.write({ '.kizurc.yaml': 'stop:\n  maxBlocks: [\n' });
  const yaml = path.join(root, '.kizurc.yaml');
  const r = sb.kizu(['status']);
  assert.deepEqual(
    [r.status, r.stdout, r.stderr],
    [2, '', `git-kizu: error: ${yaml} is not valid YAML: unexpected end of the stream within a flow collection at line 3, column 1\nhint: fix line 3, column 1 of ${yaml} (see README "Config")\n`],
  );
  // The hooks: the same, in their one warning line.
  const warning = `git-kizu: warning: could not read config: ${yaml} is not valid YAML: unexpected end of the stream within a flow collection at line 3, column 1; the defaults are used until it is fixed (see README "Config")`;
  const h = hook(sb, 'stop', stopPayload(sb, false));
  assert.deepEqual([h.status, h.stdout, h.stderr], [0, JSON.stringify({ systemMessage: warning }) + '\n', warning + '\n']);

  const rc = sandbox({ files: { '.kizurc': '{"stop": {"maxBlocks": 1,}\n' } });
  const rcFile = path.join(realpathSync(rc.dir), '.kizurc');
  const e = rc.kizu(['status']);
  assert.deepEqual([e.status, e.stderr.split('\n')[0]], [2, `git-kizu: error: ${rcFile} is not valid JSON or YAML: unexpected end of the stream within a flow collection at line 2, column 1`]);

  // A symlink to itself: the read fails (ELOOP); the message names the file.
  const loop = sandbox({ files: { 'a.txt': 'a\n' } });
  symlinkSync('.kizurc.json', loop.path('.kizurc.json'));
  const looped = path.join(realpathSync(loop.dir), '.kizurc.json');
  const l = loop.kizu(['scan']);
  assert.deepEqual(
    [l.status, l.stdout, l.stderr],
    [2, '', `git-kizu: error: could not read config ${looped}: ELOOP: too many symbolic links encountered, open '${looped}'\nhint: fix or remove ${looped} (see README "Config")\n`],
  );
});

test('a value JSON cannot write is shown as it is: 1e400 is Infinity, not null; -0, NaN, a YAML date', () => {
  const sb = sandbox({ files: { '.kizurc.json': '{"stop": {"maxBlocks": 1e400}, "snapshot": {"keep": -0}, "scan": {"maxFileBytes": -1e400, "exclude": [1e400]}, "retention": {"journal": {"maxAgeDays": -0}}}\n' } });
  const file = path.join(realpathSync(sb.dir), '.kizurc.json');
  const r = sb.kizu(['status']);
  assert.deepEqual(
    [r.status, r.stdout, r.stderr],
    [
      2,
      '',
      `git-kizu: error: invalid config in ${file}:\n` +
        '  - "stop.maxBlocks" must be an integer >= 1, got Infinity\n' +
        '  - "scan.exclude" must be an array of non-empty glob strings, got [Infinity]\n' +
        '  - "scan.maxFileBytes" must be a positive integer (bytes), got -Infinity\n' +
        '  - "snapshot.keep" must be an integer >= 1, got -0\n' +
        '  - "retention.journal.maxAgeDays" must be a number of days > 0, got -0\n' +
        'hint: fix the listed keys (see README "Config")\n',
    ],
  );
  const yaml = sandbox({ files: { '.kizurc.yml': 'stop:\n  maxBlocks: .nan\n  subagents: 2024-01-02\nreview:\n  keys:\n    tap: .inf\n' } });
  const y = yaml.kizu(['status']);
  assert.deepEqual(
    [y.status, y.stderr],
    [
      2,
      `git-kizu: error: invalid config in ${path.join(realpathSync(yaml.dir), '.kizurc.yml')}:\n` +
        '  - "stop.maxBlocks" must be an integer >= 1, got NaN\n' +
        '  - "stop.subagents" must be true or false, got 2024-01-02T00:00:00.000Z\n' +
        '  - "review.keys.tap" must be a single character, got Infinity\n' +
        'hint: fix the listed keys (see README "Config")\n',
    ],
  );
});
