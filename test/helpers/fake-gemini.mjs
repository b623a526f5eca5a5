// A scripted fake of the Gemini API (generativelanguage v1beta) on 127.0.0.1, for driving the
// REAL Gemini CLI (test/tools/node_modules/.bin/gemini, @google/gemini-cli 0.61.0, pinned) in
// end-to-end tests, plus helpers to run `gemini -p` against it in a sandbox repository.
//
// ---------------------------------------------------------------------------------------------
// What Gemini CLI 0.61.0 does (measured on this machine: `gemini -p <prompt> --approval-mode
// yolo --skip-trust </dev/null`, cwd = a git repo, env from geminiEnv()):
//
// * Auth: ~/.gemini/settings.json `{"security":{"auth":{"selectedType":"gemini-api-key"}}}`
//   plus GEMINI_API_KEY (any value, sent as `x-goog-api-key`); GOOGLE_GEMINI_BASE_URL points it
//   here. Without the auth type headless mode exits 41.
// * Agent loop: `POST /v1beta/models/<model>:streamGenerateContent?alt=sse` with
//   `{contents, systemInstruction, tools:[{functionDeclarations}], generationConfig}`; answered
//   with SSE events `data: {"candidates":[{"content":{"role":"model","parts":[...]},
//   "finishReason":"STOP","index":0}],"usageMetadata":{...}}`. A tool call part is
//   `{"functionCall":{"name":"write_file","args":{"file_path":"/abs","content":"..."}}}` or
//   `replace` with `file_path`, `old_string`, `new_string`; the CLI answers with a user turn
//   of `functionResponse` parts. The model name in the URL varies with the CLI's routing.
// * Side call: `POST /v1beta/models/<model>:generateContent` (not streamed), the routing
//   classifier, with `generationConfig.responseJsonSchema`; answered with a JSON text that fits
//   the schema (a wrong answer is only logged by the CLI).
// * Hooks: see src/agents/gemini/ (payload.ts, envelope.ts, install.ts). What the model sees:
//   an AfterTool additionalContext C (`<`, `>` escaped as `&lt;`, `&gt;`) appended to the
//   tool's functionResponse output as "\n\n<hook_context>C</hook_context>"; an AfterAgent block
//   reason R as the next user turn `{"role":"user","parts":[{"text":R}]}`.
// ---------------------------------------------------------------------------------------------
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './sandbox.mjs';
import { E2E_RUN_MS, listenLocal, runMarked, writeJson } from './fake-server.mjs';

/** The pinned Gemini CLI (test/tools, `npm run test:tools`). */
export const GEMINI_BIN = path.join(ROOT, 'test', 'tools', 'node_modules', '.bin', 'gemini');
/** Its version. */
export const GEMINI_VERSION = '0.61.0';
/** The API key the runs use (any value works against the fake). */
export const GEMINI_KEY = 'fake-gemini-kizu-e2e';

/** A text part. */
export const text = (t) => ({ text: t });
/** A function call part (`write_file`, `replace`, ...). */
export const call = (name, args) => ({ functionCall: { name, args } });

function partsOf(reply) {
  const list = Array.isArray(reply) ? reply : [reply];
  return list.map((p) => (typeof p === 'string' ? text(p) : p));
}

/** A value that fits JSON schema `s` (objects, strings, numbers, integers, booleans, enums, arrays). */
function fitSchema(s) {
  if (!s || typeof s !== 'object') return null;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (String(type).toLowerCase()) {
    case 'object': {
      const o = {};
      for (const [k, v] of Object.entries(s.properties ?? {})) o[k] = fitSchema(v);
      return o;
    }
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : 1;
    case 'boolean':
      return false;
    default:
      return 'fake';
  }
}


const USAGE = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };

/**
 * Starts the fake API on 127.0.0.1 (random port).
 *
 * `agent` scripts the agent loop (the streamed requests): an array of replies (reply i answers
 * agent-loop request i) or a function `(ctx) => reply` with ctx = {index, body, request}. A reply
 * is a string (a text part), a part (see text()/call()), or an array of them. When an array
 * script runs out, the request is answered with the text "fake-gemini: script exhausted" and an
 * error is recorded in `errors`.
 *
 * Returns {url, port, requests, agentRequests(), sideRequests(), errors, close()}; every request
 * is logged in `requests` as {seq, kind ('agent' | 'classifier' | 'other'), method, path, search,
 * model, headers, body}.
 */
export async function startFakeGemini({ agent = [] } = {}) {
  const requests = [];
  const errors = [];
  let agentIndex = 0;
  const server = await listenLocal((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body = null;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        body = raw;
      }
      const url = new URL(req.url, 'http://127.0.0.1');
      const m = /^\/v1beta\/models\/([^/:]+):(streamGenerateContent|generateContent)$/.exec(url.pathname);
      const entry = { seq: requests.length, kind: 'other', method: req.method, path: url.pathname, search: url.search, model: m?.[1] ?? null, headers: req.headers, body };
      requests.push(entry);
      try {
        if (req.method === 'POST' && m && m[2] === 'streamGenerateContent' && body && typeof body === 'object') {
          entry.kind = 'agent';
          const index = agentIndex++;
          entry.agentIndex = index;
          let reply;
          if (typeof agent === 'function') reply = agent({ index, body, request: entry });
          else if (index < agent.length) reply = agent[index];
          else {
            errors.push(`agent-loop request #${index} came after the ${agent.length}-reply script ran out`);
            reply = 'fake-gemini: script exhausted';
          }
          entry.reply = partsOf(reply);
          res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
          const event = { candidates: [{ content: { role: 'model', parts: entry.reply }, finishReason: 'STOP', index: 0 }], usageMetadata: USAGE, modelVersion: entry.model };
          res.end(`data: ${JSON.stringify(event)}\r\n\r\n`);
          return;
        }
        if (req.method === 'POST' && m && m[2] === 'generateContent' && body && typeof body === 'object') {
          const schema = body.generationConfig?.responseJsonSchema ?? body.generationConfig?.responseSchema;
          entry.kind = schema ? 'classifier' : 'side';
          const answer = schema ? JSON.stringify(fitSchema(schema)) : 'ok';
          return writeJson(res, 200, { candidates: [{ content: { role: 'model', parts: [text(answer)] }, finishReason: 'STOP', index: 0 }], usageMetadata: USAGE });
        }
        writeJson(res, 404, { error: { code: 404, message: `fake-gemini: no route for ${req.method} ${url.pathname}`, status: 'NOT_FOUND' } });
      } catch (e) {
        errors.push(`handler error: ${e.stack}`);
        if (!res.headersSent) writeJson(res, 500, { error: { code: 500, message: String(e), status: 'INTERNAL' } });
        else res.end();
      }
    });
  });
  return {
    port: server.port,
    url: server.url,
    requests,
    errors,
    agentRequests: () => requests.filter((r) => r.kind === 'agent'),
    sideRequests: () => requests.filter((r) => r.kind !== 'agent'),
    close: server.close,
  };
}

// ----------------------------------------------------------------------------- request helpers

/** The contents a request added after the last model turn in it (tool results, a block's reason, ...). */
export function newContents(q) {
  const c = q.body.contents;
  let i = c.length - 1;
  while (i >= 0 && c[i].role !== 'model') i--;
  return c.slice(i + 1);
}

/** The text of the last model turn in a request (null if none). */
export function lastModelText(q) {
  const c = q.body.contents;
  for (let i = c.length - 1; i >= 0; i--) if (c[i].role === 'model') return c[i].parts.filter((p) => typeof p.text === 'string').map((p) => p.text).join('');
  return null;
}

// ----------------------------------------------------------------------------- running gemini

/**
 * Prepares the sandbox's HOME for Gemini CLI: ~/.gemini/settings.json with the API-key auth
 * type (merged into `extra` settings, e.g. user-scope hooks), and a temp dir inside the sandbox.
 */
export function geminiHome(sb, extra = {}) {
  const dir = path.join(sb.home, '.gemini');
  mkdirSync(dir, { recursive: true });
  const settings = { ...extra, security: { ...(extra.security ?? {}), auth: { selectedType: 'gemini-api-key' } } };
  writeFileSync(path.join(dir, 'settings.json'), JSON.stringify(settings, null, 2) + '\n');
}

/**
 * The environment gemini runs in: the sandbox env (isolated HOME and git config), the fake's
 * URL, a dummy key, the project trusted (GEMINI_CLI_TRUST_WORKSPACE: project hooks need it),
 * no relaunch, and every switch that stops telemetry, update checks and other traffic.
 */
export function geminiEnv(sb, fakeUrl, extra = {}) {
  const tmp = path.join(sb.base, 'tmp');
  mkdirSync(tmp, { recursive: true });
  return {
    ...sb.env,
    TMPDIR: tmp,
    GEMINI_API_KEY: GEMINI_KEY,
    GOOGLE_GEMINI_BASE_URL: fakeUrl,
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
    GEMINI_TELEMETRY_ENABLED: 'false',
    GEMINI_CLI_DISABLE_AUTO_UPDATE: 'true',
    NO_BROWSER: 'true',
    // The CLI's own start (bundle/gemini.js) otherwise starts the same program again as a
    // child with a larger heap and this variable set: one node process loading the bundle
    // instead of two (about half the start-up time), with the same hooks and requests.
    GEMINI_CLI_NO_RELAUNCH: 'true',
    ...extra,
  };
}



/**
 * Runs `gemini -p <prompt> --approval-mode yolo --skip-trust --output-format json` in cwd with
 * env and stdin closed, killing it (and everything it started, found by an env marker) after
 * timeoutMs. Resolves {code, signal, stdout, stderr, json, timedOut, leaked, ms}.
 */
export async function runGemini({ prompt, cwd, env, timeoutMs = E2E_RUN_MS, args = [] }) {
  const r = await runMarked(GEMINI_BIN, ['-p', prompt, '--approval-mode', 'yolo', '--skip-trust', '--output-format', 'json', ...args], { cwd, env, timeoutMs });
  let json = null;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    /* the test asserts on json */
  }
  return { ...r, json };
}

/**
 * Starts the fake with `agent`, runs gemini once in cwd (the fake's URL set in env), closes the
 * fake after the test, and asserts that the run was clean: finished in time, exit 0, no process
 * left behind, no fake errors, no unknown endpoint, our key on every request. Resolves {fake, r,
 * agent (the agent-loop requests), diag()}.
 */
export async function runAgainstFakeGemini(t, { agent, prompt, cwd, sb, timeoutMs = E2E_RUN_MS, extraEnv = {} }) {
  const fake = await startFakeGemini({ agent });
  t.after(() => fake.close());
  const r = await runGemini({ prompt, cwd, env: geminiEnv(sb, fake.url, extraEnv), timeoutMs });
  const diag = () =>
    `gemini exit ${r.code}/${r.signal} after ${r.ms} ms${r.timedOut ? ' (TIMED OUT, killed)' : ''}\nstdout: ${r.stdout.slice(0, 3000)}\nstderr: ${r.stderr.slice(0, 3000)}\n` +
    `fake errors: ${JSON.stringify(fake.errors)}`;
  assert.equal(r.timedOut, false, `gemini did not finish within ${timeoutMs} ms\n${diag()}`);
  assert.equal(r.code, 0, diag());
  assert.deepEqual(r.leaked, [], 'processes started by the gemini run were still alive after it ended (killed now)');
  assert.deepEqual(fake.errors, [], diag());
  assert.deepEqual(
    fake.requests.filter((q) => q.kind === 'other').map((q) => `${q.method} ${q.path}`),
    [],
    'the client called an endpoint the fake does not know',
  );
  for (const q of fake.requests) assert.equal(q.headers['x-goog-api-key'], GEMINI_KEY, `${q.path}: API key header`);
  return { fake, r, agent: fake.agentRequests(), diag };
}
