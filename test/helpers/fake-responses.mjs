// A scripted fake of the OpenAI Responses API on 127.0.0.1, for driving the REAL Codex CLI
// and GitHub Copilot CLI (bring-your-own-key mode) in end-to-end tests, plus helpers to run
// them against it in a sandbox repository. What each client does with hooks: the notes at the
// top of test/e2e/codex.test.mjs and test/e2e/copilot.test.mjs.
//
// Wire protocol (what both clients accept): `POST /v1/responses` with `stream: true`, answered
// as SSE: `response.created`, then per output item `response.output_item.added` and
// `response.output_item.done`, then `response.completed` with the response id, the output and
// `usage` (`input_tokens_details.cached_tokens`, `output_tokens_details.reasoning_tokens`).
// An edit is a `custom_tool_call` named `apply_patch` whose `input` is the patch text; a final
// answer is an assistant `message` with one `output_text`. `GET /v1/models` gets an empty list.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from './sandbox.mjs';
import { E2E_RUN_MS, listenLocal, runMarked, writeJson } from './fake-server.mjs';

const TOOLS_BIN = path.join(ROOT, 'test', 'tools', 'node_modules', '.bin');
/** The pinned Codex CLI (test/tools, @openai/codex 0.171.0). */
export const CODEX_BIN = path.join(TOOLS_BIN, 'codex');
/** The pinned GitHub Copilot CLI (test/tools, @github/copilot 1.0.102). */
export const COPILOT_BIN = path.join(TOOLS_BIN, 'copilot');
/** The model slug both clients are run with (Codex offers apply_patch only for a model it knows). */
export const MODEL = 'gpt-5.5';
/** The API key the clients send (any value works against the fake). */
export const API_KEY = 'sk-fake-kizu-e2e';

let idCounter = 0;
const nextId = (prefix) => `${prefix}_${String(++idCounter).padStart(6, '0')}${Date.now().toString(36)}`;

/** An assistant message item with one output_text. */
export const message = (text) => ({ type: 'message', id: nextId('msg'), role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] });
/** A custom_tool_call item of apply_patch with `patch` as its input (a fresh call id unless given). */
export const applyPatch = (patch, callId = nextId('call')) => ({ type: 'custom_tool_call', id: nextId('ctc'), call_id: callId, name: 'apply_patch', input: patch, status: 'completed' });

/** Normalises a scripted reply (string | item | item[]) into an item array. */
function itemsOf(reply) {
  if (typeof reply === 'string') return [message(reply)];
  if (Array.isArray(reply)) return reply.map((b) => (typeof b === 'string' ? message(b) : b));
  return [reply];
}

const USAGE = { input_tokens: 100, input_tokens_details: { cached_tokens: 0 }, output_tokens: 10, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 110 };

function writeSse(res, model, items) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const ev = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  const id = nextId('resp');
  const created_at = Math.floor(Date.now() / 1000);
  ev('response.created', { response: { id, object: 'response', created_at, status: 'in_progress', model, output: [] } });
  items.forEach((item, output_index) => {
    ev('response.output_item.added', { output_index, item });
    ev('response.output_item.done', { output_index, item });
  });
  ev('response.completed', { response: { id, object: 'response', created_at, status: 'completed', model, output: items, usage: USAGE } });
  res.end();
}


/**
 * Starts the fake API on 127.0.0.1 (random port).
 *
 * `agent` scripts the agent loop (the `POST /v1/responses` requests that offer tools): an
 * array of replies (reply i answers agent request i) or a function `(ctx) => reply` with
 * ctx = {index, body, request}. A reply is a string (an assistant message), an item (see
 * message()/applyPatch()) or an array of them. A request after an array script ran out gets
 * the message "fake-responses: script exhausted" and an error in `errors`. A request without
 * tools (a side request) gets the message "ok".
 *
 * Returns {url, port, requests, agentRequests(), errors, close()}; every request is logged
 * in `requests` as {seq, kind ('agent' | 'side' | 'models' | 'other'), method, path, headers, body}.
 */
export async function startFakeResponses({ agent = [] } = {}) {
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
      const entry = { seq: requests.length, kind: 'other', method: req.method, path: url.pathname, headers: req.headers, body };
      requests.push(entry);
      try {
        if (req.method === 'GET' && url.pathname === '/v1/models') {
          entry.kind = 'models';
          return writeJson(res, 200, { object: 'list', data: [] });
        }
        if (req.method === 'POST' && url.pathname === '/v1/responses' && body && typeof body === 'object') {
          const model = body.model ?? MODEL;
          let items;
          if (Array.isArray(body.tools) && body.tools.length > 0) {
            entry.kind = 'agent';
            const index = agentIndex++;
            entry.agentIndex = index;
            let reply;
            if (typeof agent === 'function') reply = agent({ index, body, request: entry });
            else if (index < agent.length) reply = agent[index];
            else {
              errors.push(`agent request #${index} came after the ${agent.length}-reply script ran out`);
              reply = 'fake-responses: script exhausted';
            }
            items = itemsOf(reply);
          } else {
            entry.kind = 'side';
            items = [message('ok')];
          }
          entry.reply = items;
          if (body.stream === false) return writeJson(res, 200, { id: nextId('resp'), object: 'response', status: 'completed', model, output: items, usage: USAGE });
          return writeSse(res, model, items);
        }
        writeJson(res, 404, { error: { message: `fake-responses: no route for ${req.method} ${url.pathname}`, type: 'not_found' } });
      } catch (e) {
        errors.push(`handler error: ${e.stack}`);
        if (!res.headersSent) writeJson(res, 500, { error: { message: String(e) } });
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
    close: server.close,
  };
}

// ----------------------------------------------------------------------------- request helpers

/** True for an input item the model itself produced (assistant message or tool call). */
const fromModel = (it) => (it.type === 'message' && it.role === 'assistant') || /_call$/.test(it.type ?? '');

/**
 * The input items agent request `q` added after the model's last own item (tool outputs, hook
 * feedback, ...), without `id` fields.
 */
export function newInput(q) {
  const input = q.body.input ?? [];
  let i = input.length - 1;
  while (i >= 0 && !fromModel(input[i])) i--;
  return input.slice(i + 1).map(({ id, ...rest }) => rest);
}

/** Every text of a request's input (each content part's text, each tool output), joined by '\n'. */
export function inputText(q) {
  const out = [];
  for (const it of q.body.input ?? []) {
    if (typeof it.output === 'string') out.push(it.output);
    for (const c of Array.isArray(it.content) ? it.content : []) if (typeof c.text === 'string') out.push(c.text);
  }
  return out.join('\n');
}

// ----------------------------------------------------------------------------- running the clients



/**
 * Runs `bin args` in cwd with env and stdin closed, killing it (and everything it started,
 * found by an env marker) after timeoutMs. Resolves {code, signal, stdout, stderr, timedOut, leaked, ms}.
 */
export function runClient(bin, args, { cwd, env, timeoutMs = E2E_RUN_MS }) {
  return runMarked(bin, args, { cwd, env, timeoutMs });
}

/**
 * Writes `$CODEX_HOME/config.toml` (CODEX_HOME = <sandbox home>/.codex) for the fake at `url`,
 * trusting project `root`, keeping what is already in the file after it (init's trust entries).
 * Returns the env codex runs with.
 */
export function codexEnv(sb, url, root = sb.dir) {
  const codexHome = path.join(sb.home, '.codex');
  mkdirSync(codexHome, { recursive: true });
  const file = path.join(codexHome, 'config.toml');
  let rest = '';
  try {
    rest = readFileSync(file, 'utf8').replace(/^[^]*?# end of test settings\n/, '');
  } catch {
    /* new */
  }
  writeFileSync(
    file,
    `model = "${MODEL}"\nmodel_provider = "fake"\napproval_policy = "never"\nsandbox_mode = "danger-full-access"\n\n` +
      `[model_providers.fake]\nname = "fake"\nbase_url = "${url}/v1"\nwire_api = "responses"\nenv_key = "FAKE_OPENAI_API_KEY"\n\n` +
      `[projects.${JSON.stringify(root)}]\ntrust_level = "trusted"\n# end of test settings\n` +
      rest,
  );
  return { ...sb.env, CODEX_HOME: codexHome, FAKE_OPENAI_API_KEY: API_KEY };
}

let copilotCache = null;
/**
 * COPILOT_CACHE_HOME for every copilot run of this test process: Copilot unpacks its package
 * (~6 s) into its cache directory on the first run, so the runs share one (removed at exit).
 */
export function copilotCacheEnv() {
  if (!copilotCache) {
    copilotCache = mkdtempSync(path.join(tmpdir(), 'kizu-copilot-cache-'));
    process.on('exit', () => rmSync(copilotCache, { recursive: true, force: true }));
  }
  return { COPILOT_CACHE_HOME: copilotCache, COPILOT_AUTO_UPDATE: 'false' };
}

/** The env copilot runs with against the fake at `url` (bring-your-own-key, offline, no update, the shared cache). */
export function copilotEnv(sb, url) {
  return {
    ...sb.env,
    ...copilotCacheEnv(),
    COPILOT_OFFLINE: 'true',
    COPILOT_PROVIDER_BASE_URL: `${url}/v1`,
    COPILOT_PROVIDER_WIRE_API: 'responses',
    COPILOT_PROVIDER_API_KEY: API_KEY,
    COPILOT_MODEL: MODEL,
    COPILOT_AUTO_UPDATE: 'false',
  };
}

/**
 * Starts the fake with `agent`, runs the client once (`bin args` built by `argsFor(url)`, env
 * by `envFor(url)`), closes the fake after the test, and asserts a clean run: in time, exit 0,
 * no process left behind, no fake errors, no unknown endpoint. Resolves {fake, r, agent, diag()}.
 */
export async function runAgainstFake(t, { agent, bin, args, envFor, cwd, timeoutMs = E2E_RUN_MS }) {
  const fake = await startFakeResponses({ agent });
  t.after(() => fake.close());
  const r = await runClient(bin, args, { cwd, env: envFor(fake.url), timeoutMs });
  const diag = () => `${path.basename(bin)} exit ${r.code}/${r.signal} after ${r.ms} ms${r.timedOut ? ' (TIMED OUT, killed)' : ''}\nstdout: ${r.stdout.slice(-3000)}\nstderr: ${r.stderr.slice(-3000)}\nfake errors: ${JSON.stringify(fake.errors)}`;
  assert.equal(r.timedOut, false, `the client did not finish within ${timeoutMs} ms\n${diag()}`);
  assert.equal(r.code, 0, diag());
  assert.deepEqual(r.leaked, [], 'processes started by the run were still alive after it ended (killed now)');
  assert.deepEqual(fake.errors, [], diag());
  assert.deepEqual(fake.requests.filter((q) => q.kind === 'other').map((q) => `${q.method} ${q.path}`), [], 'the client called an endpoint the fake does not know');
  for (const q of fake.agentRequests()) assert.equal(q.headers.authorization, `Bearer ${API_KEY}`);
  return { fake, r, agent: fake.agentRequests(), diag };
}
