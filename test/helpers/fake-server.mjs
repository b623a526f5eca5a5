// What the fake model servers (fake-anthropic.mjs, fake-responses.mjs, fake-gemini.mjs) and
// their client runners share: an HTTP server on 127.0.0.1 whose close() also ends open
// keep-alive connections, JSON answers, and running a real agent client with every process it
// starts marked, so that none outlives the test.
import http from 'node:http';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * How long (ms) one run of a real agent client may take before it is killed, and one
 * end-to-end test in all. Generous: on a loaded 2-core CI machine a run that takes 10 s when
 * quiet took over 45 s; these bound a hang, they do not measure speed.
 */
export const E2E_RUN_MS = 180_000;
export const E2E_TEST_MS = 300_000;

/** Answers `obj` as JSON with HTTP status `status`. */
export function writeJson(res, status, obj) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(obj));
}

/**
 * Starts an HTTP server on 127.0.0.1 (a random port) with `handler`.
 * Resolves {port, url, close()}; close() destroys open connections, then resolves once the
 * server has closed.
 */
export async function listenLocal(handler) {
  const sockets = new Set();
  const server = http.createServer(handler);
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

const MARK = 'KIZU_E2E_RUN';
let runCounter = 0;

/**
 * Pids of live processes whose environment holds `${MARK}=${id}` (Linux /proc). Agents start
 * hook commands in process groups of their own, so a group kill would miss them; the marker
 * is inherited by everything the client starts.
 */
function markedPids(id) {
  const needle = Buffer.from(`\0${MARK}=${id}\0`);
  const out = [];
  let entries = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return out;
  }
  for (const d of entries) {
    if (!/^\d+$/.test(d) || Number(d) === process.pid) continue;
    try {
      const env = Buffer.concat([Buffer.from('\0'), readFileSync(`/proc/${d}/environ`)]);
      if (!env.includes(needle)) continue;
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z') out.push(Number(d));
    } catch {
      /* gone, or not ours to read */
    }
  }
  return out;
}

/**
 * Runs `bin args` in cwd with env and stdin closed, killing it and everything it started
 * (found by an env marker) after timeoutMs. After it exits, every process it started that is
 * still alive is killed and its pid listed in `leaked`.
 * Resolves {code, signal, stdout, stderr, timedOut, leaked, ms}; rejects when bin cannot start.
 */
export function runMarked(bin, args, { cwd, env, timeoutMs = E2E_RUN_MS }) {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const id = `${process.pid}-${++runCounter}-${started}`;
    const child = spawn(bin, args, { cwd, env: { ...env, [MARK]: id }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    let timedOut = false;
    const killAll = () => {
      for (const pid of markedPids(id)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        child.kill('SIGKILL');
      } catch {
        /* already gone */
      }
      killAll();
    }, timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`could not start ${bin}: ${e.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const leaked = markedPids(id);
      killAll();
      resolve({ code, signal, stdout, stderr, timedOut, leaked, ms: Date.now() - started });
    });
  });
}
