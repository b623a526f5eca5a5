// Config loading (cosmiconfig `kizu`, repo root only) and validation, observed through the
// real bin: which sources are read, that values take effect, and that an invalid config is
// one error listing every problem (exit 2).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sandbox, src } from '../helpers/sandbox.mjs';
import { expectRun } from '../helpers/expect.mjs';
import { ASK, kizuScar } from '../helpers/scars.mjs';

const SOURCES = {
  'package.json': JSON.stringify({ name: 'x', kizu: { scar: { bodies: { ask: 'from package.json' } } } }),
  '.kizurc': 'scar:\n  bodies:\n    ask: from .kizurc\n',
  '.kizurc.json': '{"scar": {"bodies": {"ask": "from .kizurc.json"}}}',
  '.kizurc.yaml': 'scar:\n  bodies:\n    ask: "from .kizurc.yaml"\n',
  '.kizurc.yml': 'scar: {bodies: {ask: from .kizurc.yml}}\n',
  '.kizurc.cjs': "module.exports = { scar: { bodies: { ask: 'from .kizurc.cjs' } } };\n",
  '.kizurc.mjs': "export default { scar: { bodies: { ask: 'from .kizurc.mjs' } } };\n",
  '.config/kizurc.json': '{"scar": {"bodies": {"ask": "from .config/kizurc.json"}}}',
  'kizu.config.mjs': "export default { scar: { bodies: { ask: 'from kizu.config.mjs' } } };\n",
  'kizu.config.cjs': "module.exports = { scar: { bodies: { ask: 'from kizu.config.cjs' } } };\n",
  'kizu.config.js': "module.exports = { scar: { bodies: { ask: 'from kizu.config.js' } } };\n",
};

test('config sources: package.json "kizu" key, .kizurc, .kizurc.{json,yaml,yml}, .config/kizurc* data files (scar.bodies takes effect); code files are refused unread (config-files.test.mjs)', () => {
  for (const [name, content] of Object.entries(SOURCES).filter(([n]) => !/\.[cm]?[jt]s$/.test(n))) {
    const sb = sandbox({ files: { [name]: content, 'a.py': 'x = 1\n' } });
    expectRun(sb, ['scar', 'a.py:1'], { status: 0, stdout: `scarred a.py:1  # @kizu[ask]: ${name.replace(/^/, 'from ')}\n` });
    assert.equal(sb.read('a.py'), `# @kizu[ask]: from ${name}\nx = 1\n`, name);
  }
});

test('config: read from the repo root when run from a subdirectory; a config elsewhere is ignored', () => {
  const sb = sandbox({
    files: {
      '.kizurc.json': JSON.stringify({ scar: { bodies: { reject: 'undo it' } } }),
      'sub/.kizurc.json': JSON.stringify({ scar: { bodies: { reject: 'wrong config' } } }),
      'sub/deeper/a.sh': 'echo\n',
    },
  });
  writeFileSync(path.join(sb.base, '.kizurc.json'), '{"scar": {"bodies": {"reject": "parent config"}}}');
  expectRun(sb, ['scar', 'a.sh:1', '-k', 'reject'], { cwd: sb.path('sub/deeper'), status: 0, stdout: 'scarred sub/deeper/a.sh:1  # @kizu[reject]: undo it\n' });
  const bare = sandbox({ files: { 'a.sh': 'echo\n' } });
  writeFileSync(path.join(bare.base, '.kizurc.json'), '{"scar": {"bodies": {"ask": "parent config"}}}');
  expectRun(bare, ['scar', 'a.sh:1'], { status: 0, stdout: `scarred a.sh:1  # ${ASK}\n` });
});

test('config: valid stop/scan/scar values are accepted; empty config means defaults', () => {
  const sb = sandbox({
    files: {
      '.kizurc.json': JSON.stringify({
        stop: { maxBlocks: 5, subagents: true },
        scan: { exclude: ['gen/**'], maxFileBytes: 1000 },
        scar: { bodies: { ask: 'why?', reject: 'no' }, syntax: { txt: '//', tpl: '<!-- -->', '.q': ';;', sqlx: '--', Jenkinsfile: '//', lock: 'none' } },
      }),
    },
  });
  sb.write({ 'gen/a.txt': '// @kizu[ask]: x\n', 'n.txt': 'x\n', 'p.tpl': 'x\n' });
  expectRun(sb, ['scar', 'n.txt:1'], { status: 0, stdout: 'scarred n.txt:1  // @kizu[ask]: why?\n' });
  expectRun(sb, ['scar', 'p.tpl:1', '-k', 'reject'], { status: 0, stdout: 'scarred p.tpl:1  <!-- @kizu[reject]: no -->\n' });
  expectRun(sb, ['scan'], { status: 1, stdout: 'n.txt:1  [ask]  why?\n\np.tpl:1  [reject]  no\n' });
  for (const empty of ['{}', '']) {
    const e = sandbox({ files: { '.kizurc.json': empty, '.kizurc': empty, 'a.py': 'x\n' } });
    expectRun(e, ['scar', 'a.py:1'], { status: 0, stdout: `scarred a.py:1  # ${ASK}\n` });
  }
});

test('config: several problems are reported together in one error (exit 2) by every command', () => {
  const bad = {
    stop: { maxBlocks: 0, subagents: 'yes', extra: 1 },
    scan: { exclude: 'x', maxFileBytes: -1 },
    scar: { bodies: { ask: '', nit: 'x' }, syntax: { txt: 'a b c' } },
    other: true,
  };
  const sb = sandbox({ files: { '.kizurc.json': JSON.stringify(bad), 'a.py': 'x = 1\n' } });
  const file = path.join(realpathSync(sb.dir), '.kizurc.json');
  const stderr =
    `git-kizu: error: invalid config in ${file}:\n` +
    '  - unknown key "stop.extra" (known: stop.maxBlocks, stop.subagents, stop.requireReview, stop.maxFiles)\n' +
    '  - unknown key "other" (known: stop, scan, scar, review, snapshot, retention)\n' +
    '  - "stop.maxBlocks" must be an integer >= 1, got 0\n' +
    '  - "stop.subagents" must be true or false, got "yes"\n' +
    '  - "scan.exclude" must be an array of non-empty glob strings, got "x"\n' +
    '  - "scan.maxFileBytes" must be a positive integer (bytes), got -1\n' +
    '  - "scar.bodies.ask" must be a non-empty string\n' +
    '  - unknown key "scar.bodies.nit" (known: scar.bodies.ask, scar.bodies.reject)\n' +
    `  - "scar.syntax.txt" must be ${'"none", a line-comment opener ("//", "#", "--", "%", ";", or one of them repeated, e.g. "///"; or "REM") or one of "/* */", "<!-- -->", "{/* */}", "(* *)"'}, got "a b c"\n` +
    'hint: fix the listed keys (see README "Config")\n';
  for (const args of [['scan'], ['scan', '--all'], ['scar', 'a.py:1'], ['unscar', '--all']]) {
    expectRun(sb, args, { status: 2, stderr });
  }
  assert.equal(sb.read('a.py'), 'x = 1\n');
  const wrongShapes = sandbox({ files: { '.kizurc.json': JSON.stringify({ stop: 3, scan: [], scar: { bodies: 'x', syntax: ['//'] } }) } });
  expectRun(wrongShapes, ['scan'], {
    status: 2,
    stderr:
      `git-kizu: error: invalid config in ${path.join(realpathSync(wrongShapes.dir), '.kizurc.json')}:\n` +
      '  - "stop" must be an object\n' +
      '  - "scan" must be an object\n' +
      '  - "scar.bodies" must be an object like {"ask": "...", "reject": "..."}\n' +
      '  - "scar.syntax" must be an object like {"ts": "//", "tpl": "<!-- -->"}\n' +
      'hint: fix the listed keys (see README "Config")\n',
  });
});

// The first value of each list goes through the bin; the others run the same command in this
// process (kizuScar), and the scan of their scar is scanBuffer (what `git kizu scan` reads a file with).
test('config: scar.syntax must be a comment syntax the scanner recognises (else the scar would be invisible)', async () => {
  const { scanBuffer } = await import(src('scars/parse.ts'));
  for (const bad of ['REMARK', "'", '/*', '<!--', '// */', '(* )', '(*', '#!', 'REM;']) {
    const sb = sandbox({ files: { '.kizurc.json': JSON.stringify({ scar: { syntax: { bas: bad } } }), 'a.bas': '10 PRINT 1\n' } });
    const r = bad === 'REMARK' ? sb.kizu(['scar', 'a.bas:1']) : await kizuScar(sb, 'a.bas:1');
    assert.deepEqual(
      [r.status, r.stdout, r.stderr],
      [
        2,
        '',
        `git-kizu: error: invalid config in ${path.join(realpathSync(sb.dir), '.kizurc.json')}:\n` +
          `  - "scar.syntax.bas" must be "none", a line-comment opener ("//", "#", "--", "%", ";", or one of them repeated, e.g. "///"; or "REM") or one of "/* */", "<!-- -->", "{/* */}", "(* *)", got ${JSON.stringify(bad)}\n` +
          'hint: fix the listed keys (see README "Config")\n',
      ],
      bad,
    );
    assert.equal(sb.read('a.bas'), '10 PRINT 1\n');
  }
  // every accepted value yields a scar that scan finds
  for (const good of ['//', '///', '#', '##', '--', '%%', ';;', 'REM', 'rem', '/* */', '<!-- -->', '{/* */}', '(* *)']) {
    const sb = sandbox({ files: { '.kizurc.json': JSON.stringify({ scar: { syntax: { bas: good } } }), 'a.bas': '10 PRINT 1\n' } });
    const r = good === '//' ? sb.kizu(['scar', 'a.bas:1']) : await kizuScar(sb, 'a.bas:1');
    assert.equal(r.status, 0, `${good}: ${r.stderr}`);
    const [open, close] = good.split(' ');
    assert.equal(sb.read('a.bas'), `${open} ${ASK}${close ? ' ' + close : ''}\n10 PRINT 1\n`, good);
    if (good === '//') expectRun(sb, ['scan'], { status: 1, stdout: 'a.bas:1  [ask]  explain this change\n' });
    else assert.deepEqual((await scanBuffer('a.bas', sb.read('a.bas', 'buffer'))).map((x) => [x.line, x.kind, x.body]), [[1, 'ask', 'explain this change']], good);
  }
});

test('config: a config file that cannot be parsed is an error (exit 2) naming the file, line and column; nothing written', () => {
  const cases = [
    ['{"scar": ', 'expected a value (the file ends too early) at line 1, column 10', 'line 1, column 10'],
    ['{\n  "stop": {"maxBlocks": 2,}\n}\n', 'expected a property name in double quotes at line 2, column 27', 'line 2, column 27'],
    ['{"stop": {}}\n}\n', 'unexpected text after the end of the value at line 2, column 1', 'line 2, column 1'],
  ];
  for (const [text, what, where] of cases) {
    const sb = sandbox({ files: { '.kizurc.json': text, 'a.py': 'x\n' } });
    const file = path.join(realpathSync(sb.dir), '.kizurc.json');
    expectRun(sb, ['scar', 'a.py:1'], { status: 2, stdout: '', stderr: `git-kizu: error: ${file} is not valid JSON: ${what}\nhint: fix ${where} of ${file} (see README "Config")\n` });
    assert.equal(sb.read('a.py'), 'x\n');
  }
});

test('config: a UTF-8 byte order mark at the start of .kizurc.json is accepted, as in .kizurc.yaml', () => {
  for (const [name, text] of [
    ['.kizurc.json', '\uFEFF{"stop": {"maxBlocks": 0}}\n'],
    ['.kizurc.yaml', '\uFEFFstop:\n  maxBlocks: 0\n'],
  ]) {
    const sb = sandbox({ files: { [name]: text } });
    // Parsed: the invalid value inside is what is reported.
    expectRun(sb, ['scan'], {
      status: 2,
      stderr: `git-kizu: error: invalid config in ${path.join(realpathSync(sb.dir), name)}:\n  - "stop.maxBlocks" must be an integer >= 1, got 0\nhint: fix the listed keys (see README "Config")\n`,
    });
  }
});

test('config: keys named like Object.prototype members are unknown keys, not a crash', () => {
  const sb = sandbox({ files: { '.kizurc.json': '{"toString": {}, "stop": {"valueOf": 1}, "scar": {"bodies": {"constructor": "x"}}}' } });
  expectRun(sb, ['scan'], {
    status: 2,
    stderr:
      `git-kizu: error: invalid config in ${path.join(realpathSync(sb.dir), '.kizurc.json')}:\n` +
      '  - unknown key "toString" (known: stop, scan, scar, review, snapshot, retention)\n' +
      '  - unknown key "stop.valueOf" (known: stop.maxBlocks, stop.subagents, stop.requireReview, stop.maxFiles)\n' +
      '  - unknown key "scar.bodies.constructor" (known: scar.bodies.ask, scar.bodies.reject)\n' +
      'hint: fix the listed keys (see README "Config")\n',
  });
});

test('a config that cannot be read (bad YAML, a code file, bad JSON) is one warning line where commands go on with the defaults (rollback snapshot --dry-run)', () => {
  const sb = sandbox({ files: { 'a.txt': 'a\n' } });
  const snap = /^snapshot (\S+):/m.exec(sb.kizu(['snapshot']).stdout)[1];
  const root = realpathSync(sb.dir);
  const cases = [
    ['.kizurc.yaml', 'snapshot: [\n', `could not read config: ${root}/.kizurc.yaml is not valid YAML: unexpected end of the stream within a flow collection at line 2, column 1`],
    ['.kizurc.cjs', 'throw new Error("boom")\n', `${root}/.kizurc.cjs is not read: git-kizu reads only JSON or YAML config (code in a repository's config would run in every hook); move its settings to .kizurc.json`],
    ['.kizurc.json', '{"snapshot":{"keep":0},}', `could not read config: ${root}/.kizurc.json is not valid JSON: expected a property name in double quotes at line 1, column 24`],
  ];
  for (const [file, text, why] of cases) {
    writeFileSync(sb.path(file), text);
    const r = sb.kizu(['rollback', 'snapshot', snap, '--dry-run']);
    assert.equal(r.stderr, `git-kizu: warning: ${why}; the defaults are used until it is fixed (see README "Config")\n`, file);
    sb.run('rm', [sb.path(file)]);
  }
});
