#!/usr/bin/env node
// A Node process that does nothing but run a benchmark's floor git commands: the least any
// Node implementation of that work can cost (Node's own start-up plus the git work), so that
// bench/run.mjs can show how much of a ratio is the runtime rather than git-kizu.
// Usage: node bench/floor-in-node.mjs seq|par -- <git args...> [-- <git args...>]...
// Each command's stdout is read (as git-kizu reads it) and dropped. Environment variables
// for git may be given as leading NAME=value words of a command.
import { spawn } from 'node:child_process';

const [mode, ...rest] = process.argv.slice(2);
const cmds = [];
for (const a of rest) {
  if (a === '--') cmds.push([]);
  else cmds[cmds.length - 1].push(a);
}
const run = (words) =>
  new Promise((resolve, reject) => {
    const env = { ...process.env };
    while (/^[A-Z_]+=/.test(words[0])) {
      const w = words.shift();
      env[w.slice(0, w.indexOf('='))] = w.slice(w.indexOf('=') + 1);
    }
    const c = spawn('git', words, { env, stdio: ['ignore', 'pipe', 'inherit'] });
    c.stdout.resume();
    c.on('error', reject);
    c.on('close', (s) => (s === 0 ? resolve() : reject(new Error(`git ${words.join(' ')}: exit ${s}`))));
  });
if (mode === 'par') await Promise.all(cmds.map(run));
else for (const c of cmds) await run(c);
