// The interop scenario that every Node client runs against the server under
// test, with the same checks, names and output as the Go clients: connect,
// list every tool across pages, call echo, add, tag_catalog, fail,
// evidence_bundle and an unknown tool, run slow with progress and with a
// cancel, list resources, resource templates and prompts across pages, read
// text, binary, templated and missing resources, get prompts with and
// without their required arguments, complete a prompt argument, subscribe to
// a resource and unsubscribe, answer the server's sampling, elicitation
// (accept and decline), roots and two-step questions, check the wire, then
// close stdin and expect the server to exit.
//
// A client takes part through an adapter object, which
// makeAdapter(cmd, onStderr, answers) builds; it registers the SDK's
// sampling, elicitation and roots handlers (declaring those capabilities),
// each answering with answers (lib/answers.mjs). The adapter has:
//   connect()                      connects (spawning the server through the tap)
//   protocolVersion()              the version it settled on, or undefined
//   listAllTools()                 every tool, following cursors
//   callTool(name, args, options)  options: { onprogress, signal }
//   listAll(kind)                  every resource, resource template or prompt
//                                  ('resources', 'resourceTemplates', 'prompts'),
//                                  following cursors
//   readResource(uri)              the resources/read result
//   getPrompt(name, args)          the prompts/get result
//   complete(prompt, arg, value)   the completion/complete result for a prompt argument
//   subscribe(uri, onUpdated)      follows uri the SDK's way for its era
//                                  (resources/subscribe, or a subscriptions/listen
//                                  stream naming it); onUpdated() runs for each
//                                  notifications/resources/updated for uri; resolves
//                                  to an async unsubscribe()
//   errorCode(err)                 the JSON-RPC code in an SDK error, or undefined
//   isResourceNotFound(err)        optional: whether err is the SDK's own
//                                  resource-not-found error
//   close()                        closes the session (and so the server's stdin)
// If INTEROP_WIRE_FILE is set, the tap's log of the run is copied there.
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Report, strictFromEnv } from './report.mjs';
import { Wire, describeExchange, describeHandshake, isRequest, isResponse, sameId } from './wire.mjs';
import { startHttpServer, tapFetch } from './httptap.mjs';
import { bigText } from './bigtext.mjs';
import { checkReadBinary, checkReadMissing, checkReadTemplate, checkReadText, checkResources } from './resources.mjs';
import { checkComplete, checkPromptArgs, checkPromptMissing, checkPrompts, checkPromptSimple } from './prompts.mjs';
import { checkSubscribe } from './subscribe.mjs';
import { Answers } from './answers.mjs';
import { checkAsks } from './asks.mjs';
import { cancellation } from './look.mjs';
import { CALL_TIMEOUT_MS, call, describeError, firstText, guard, jsonEqual, sleep, withTimeout } from './util.mjs';

export const MODERN_VERSION = '2026-07-28';
export const CHECKS = [
  'connect', 'era', 'list', 'echo', 'echo-1mib', 'add', 'tags', 'fail',
  'bundle', 'unknown', 'progress', 'cancel', 'resources', 'templates',
  'read-text', 'read-binary', 'read-template', 'read-missing', 'prompts',
  'prompt-simple', 'prompt-args', 'prompt-missing', 'complete', 'subscribe',
  'sampling', 'elicitation', 'elicitation-decline', 'roots', 'multi-round',
  'wire', 'exit',
];
// SERVER_ARGS are the flags every run gives the server: two entries a page,
// so that every list takes several pages; no change of
// test://watched-resource but the ones the scenario triggers; and no caller,
// so that completion sees a caller that is no operator.
const SERVER_ARGS = ['-page-size', '2', '-watch-interval', '0', '-caller='];
const EXIT_LIMIT_MS = 2000;
const BASE_TOOLS = ['echo', 'add', 'fail', 'slow'];
const BUNDLE_TYPES = ['text', 'image', 'audio', 'resource_link', 'resource'];
const PROGRESS_STEPS = 5;
const CANCEL_DELAY_MS = 40;
const CANCEL_SLACK_MS = 5 * CANCEL_DELAY_MS; // a progress already under way may still arrive
const CANCEL_SETTLE_MS = 600; // how long the check watches the wire after cancelling
const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
// INPUT_REQUIRED_METHODS are the requests a modern server may answer with
// resultType "input_required".
const INPUT_REQUIRED_METHODS = ['tools/call', 'prompts/get', 'resources/read'];

const tapPath = join(dirname(fileURLToPath(import.meta.url)), '..', 'tap.mjs');

// parseArgs reads the command line shared by the client scripts:
// --server PATH (or $INTEROP_SERVER), --mode MODE, --transport stdio|http,
// --strict (or $INTEROP_STRICT).
export function parseArgs(argv, modes) {
  const opts = { server: process.env.INTEROP_SERVER, mode: modes[0], transport: 'stdio', strict: strictFromEnv() };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i].replace(/^--?/, '');
    if (a === 'server') opts.server = argv[++i];
    else if (a === 'mode') opts.mode = argv[++i];
    else if (a === 'transport') opts.transport = argv[++i];
    else if (a === 'strict') opts.strict = true;
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  if (!opts.server || !modes.includes(opts.mode) || !['stdio', 'http'].includes(opts.transport)) {
    throw new Error(`usage: --server PATH [--mode ${modes.join('|')}] [--transport stdio|http] [--strict]`);
  }
  return opts;
}

// serverCommand is how an adapter spawns the server: through the tap, which
// logs the wire to logFile.
export function serverCommand(server, logFile) {
  return { command: process.execPath, args: [tapPath, logFile, server, ...SERVER_ARGS] };
}

// run runs every check with the adapter that makeAdapter(link) builds,
// prints the report and sets the exit code. Over stdio link is the
// serverCommand the SDK's stdio transport spawns; with transport 'http' the
// run starts the server itself and link is { url, fetch }, the endpoint and
// the fetch (lib/httptap.mjs) the SDK's Streamable HTTP transport must use.
export async function run({ label, server, strict, wantModern, makeAdapter, transport = 'stdio' }) {
  const r = new Report(strict);
  r.info(`${label}, transport ${transport}`);
  const dir = mkdtempSync(join(tmpdir(), 'mcpwire-interop-'));
  const wire = new Wire(join(dir, 'wire.jsonl'));
  const stderr = [];
  const answers = new Answers();
  const onStderr = (chunk) => stderr.push(String(chunk));
  let link = serverCommand(server, wire.logFile);
  let httpServer;
  if (transport === 'http') {
    try {
      httpServer = await startHttpServer(server, SERVER_ARGS, wire.logFile, onStderr);
    } catch (err) {
      for (const c of CHECKS) r.fail(c, `starting the server: ${describeError(err)}`);
      console.log('RESULT FAIL');
      process.exitCode = 1;
      return;
    }
    r.info(`server at ${httpServer.url}`);
    link = { url: httpServer.url, fetch: tapFetch(wire.logFile, httpServer.pid) };
  }
  const adapter = makeAdapter(link, onStderr, answers);
  const x = {
    r, wire, adapter, answers, wantModern, stderr, tools: new Map(), connected: false, http: httpServer,
    // The session process is looked up on each use: with an SDK that
    // settles the era on a probe process, connect can return before the
    // session process has even logged its start.
    get pid() {
      return session(this);
    },
  };
  try {
    if (await connect(x)) {
      checkEra(x);
      await checkList(x);
      await checkEcho(x, 'echo', 'héllo\nworld ✓');
      await checkEcho(x, 'echo-1mib', bigText(1 << 20));
      await checkAdd(x);
      await checkTags(x);
      await checkFail(x);
      await checkBundle(x);
      await checkUnknown(x);
      await checkProgress(x);
      await checkCancel(x);
      await checkResources(x);
      await checkReadText(x);
      await checkReadBinary(x);
      await checkReadTemplate(x);
      await checkReadMissing(x);
      await checkPrompts(x);
      await checkPromptSimple(x);
      await checkPromptArgs(x);
      await checkPromptMissing(x);
      await checkComplete(x);
      await checkSubscribe(x);
      await checkAsks(x);
      checkWire(x);
      if (x.wire.pids().length > 1) x.r.info(`first client line on the session process, after connecting: ${x.wire.firstClientLine(x.pid)}`);
    } else {
      for (const c of CHECKS.slice(1, -1)) r.fail(c, 'not connected');
    }
    await (x.http ? checkExitHTTP(x) : checkExit(x));
  } catch (err) {
    r.fail('scenario', `crashed: ${err?.stack ?? err}`);
  }
  httpServer?.kill();
  if (process.env.INTEROP_WIRE_FILE) copyFileSync(wire.logFile, process.env.INTEROP_WIRE_FILE);
  rmSync(dir, { recursive: true, force: true });
  console.log(r.failed ? 'RESULT FAIL' : 'RESULT PASS');
  process.exitCode = r.failed ? 1 : 0;
}

// stderrTail returns the end of the server's stderr as a suffix for a
// failure's detail, or '' when the server wrote nothing there.
function stderrTail(chunks) {
  const text = chunks.join('').trimEnd();
  return text === '' ? '' : `; server stderr: ${text.split('\n').slice(-3).join(' | ')}`;
}

// session is the pid of the tap that carries the session: the last process
// spawned (an SDK that probes on a sibling process spawns that one first).
function session(x) {
  const pids = x.wire.pids();
  return pids[pids.length - 1];
}

async function connect(x) {
  const start = Date.now();
  let err;
  try {
    await withTimeout(x.adapter.connect(), CALL_TIMEOUT_MS, 'connect');
  } catch (e) {
    err = e;
  }
  const took = Date.now() - start;
  await sleep(50); // let the tap log the last handshake lines
  const pids = x.wire.pids();
  pids.forEach((pid, i) => {
    const which = pids.length > 1 ? ` (process ${i + 1} of ${pids.length})` : '';
    x.r.info(`first client line${which}: ${x.wire.firstClientLine(pid) || '(none while connecting)'}`);
    x.r.info(`handshake${which}: ${describeHandshake(x.wire, pid)}`);
  });
  if (err) {
    x.r.fail('connect', `after ${took}ms: ${describeError(err)}${stderrTail(x.stderr)}`);
    return false;
  }
  x.connected = true;
  x.version = x.adapter.protocolVersion() ?? negotiatedOnWire(x);
  x.modern = x.version >= MODERN_VERSION;
  x.r.pass('connect', `protocol version ${x.version} in ${took}ms`);
  return true;
}

// negotiatedOnWire reads the version from the initialize answer, for SDKs
// that do not expose it.
function negotiatedOnWire(x) {
  for (const l of x.wire.lines(x.pid)) {
    if (l.dir === 'c2s' && l.msg?.method === 'initialize') {
      return x.wire.responseTo(x.pid, l.msg.id)?.msg?.result?.protocolVersion;
    }
  }
  return undefined;
}

function checkEra(x) {
  const era = (m) => (m ? 'modern' : 'legacy');
  const got = `${era(x.modern)} era (${x.version})`;
  if (x.modern !== x.wantModern) {
    x.r.fail('era', `want the ${era(x.wantModern)} era, got ${got}; handshake: ${x.wire.pids().map((p) => describeHandshake(x.wire, p)).join(' || ')}`);
    return;
  }
  x.r.pass('era', got);
}

async function checkList(x) {
  const mark = x.wire.events().length;
  let tools;
  try {
    tools = await withTimeout(x.adapter.listAllTools(), CALL_TIMEOUT_MS, 'tools/list');
  } catch (err) {
    x.r.fail('list', describeError(err));
    return;
  }
  const names = tools.map((t) => t.name);
  for (const t of tools) x.tools.set(t.name, t);
  const pages = listPagesOnWire(x, mark);
  const missing = BASE_TOOLS.filter((n) => !names.includes(n));
  if (typeof pages === 'string') x.r.fail('list', pages);
  else if (new Set(names).size !== names.length) x.r.fail('list', `duplicates in ${names}`);
  else if (missing.length) x.r.fail('list', `missing ${missing} in ${names}`);
  else if (pages < 2) x.r.fail('list', `${names.length} tools in one page: the run asks for a small page size so that cursors are followed`);
  else x.r.pass('list', `${names.length} tools over ${pages} pages, each cursor followed: ${names.join(',')}`);
}

// listPagesOnWire checks that the tools/list requests made after mark follow
// each nextCursor in turn, and returns how many pages there were (or what
// went wrong).
function listPagesOnWire(x, mark) {
  const reqs = x.wire.lines(x.pid).filter((l) => l.seq >= mark && l.dir === 'c2s' && l.msg?.method === 'tools/list');
  let want;
  for (const [i, req] of reqs.entries()) {
    const cursor = req.msg.params?.cursor;
    if (cursor !== want) return `page ${i + 1} asked for cursor ${JSON.stringify(cursor)}, want ${JSON.stringify(want)}`;
    const resp = x.wire.responseTo(x.pid, req.msg.id);
    if (!resp || resp.msg.error) return `page ${i + 1}: ${JSON.stringify(resp?.msg?.error ?? 'no answer')}`;
    want = resp.msg.result.nextCursor;
    if (want === undefined) return reqs.length === i + 1 ? reqs.length : `${reqs.length - i - 1} requests after the last page`;
  }
  return `the last page had nextCursor ${JSON.stringify(want)}, never followed`;
}

function types(res) {
  return (res.content ?? []).map((b) => b.type);
}

async function checkEcho(x, check, text) {
  const bytes = Buffer.byteLength(text);
  let res;
  try {
    res = await call(x, 'echo', { text });
  } catch (err) {
    x.r.fail(check, `${bytes} bytes: ${describeError(err)}`);
    return;
  }
  const got = res.content?.[0]?.text;
  if (res.isError) x.r.fail(check, `isError: ${firstText(res)}`);
  else if (res.content?.length !== 1 || res.content[0].type !== 'text') x.r.fail(check, `want one text block, got ${types(res)}`);
  else if (got !== text) x.r.fail(check, `sent ${bytes} bytes, got back ${Buffer.byteLength(got)} bytes that differ`);
  else x.r.pass(check, `${bytes} bytes back byte-identical`);
}

async function checkAdd(x) {
  let res;
  try {
    res = await call(x, 'add', { a: 2, b: 40 });
  } catch (err) {
    x.r.fail('add', describeError(err));
    return;
  }
  if (res.isError) x.r.fail('add', `isError: ${firstText(res)}`);
  else if (!jsonEqual(res.structuredContent, { sum: 42 })) x.r.fail('add', `structuredContent ${JSON.stringify(res.structuredContent)}, want {"sum":42}`);
  else x.r.pass('add', `structuredContent ${JSON.stringify(res.structuredContent)}`);
}

function skipUnlisted(x, check, tool) {
  if (x.tools.has(tool)) return false;
  x.r.skip(check, `the server does not list ${tool} yet`);
  return true;
}

async function checkTags(x) {
  if (skipUnlisted(x, 'tags', 'tag_catalog')) return;
  const tags = ['alpha', 'beta', 'gamma'];
  const [root, want] = x.modern ? ['array', tags] : ['object', { result: tags }];
  const schema = x.tools.get('tag_catalog').outputSchema;
  if (schema?.type !== root) {
    x.r.fail('tags', `listed outputSchema has type ${JSON.stringify(schema?.type)}, want "${root}" in this era: ${JSON.stringify(schema)}`);
    return;
  }
  let res;
  try {
    res = await call(x, 'tag_catalog', {});
  } catch (err) {
    x.r.fail('tags', describeError(err));
    return;
  }
  if (res.isError) x.r.fail('tags', `isError: ${firstText(res)}`);
  else if (!jsonEqual(res.structuredContent, want)) x.r.fail('tags', `structuredContent ${JSON.stringify(res.structuredContent)}, want ${JSON.stringify(want)}`);
  else x.r.pass('tags', `structuredContent ${JSON.stringify(res.structuredContent)}, outputSchema type ${root}`);
}

async function checkFail(x) {
  let res;
  try {
    res = await call(x, 'fail', {});
  } catch (err) {
    x.r.fail('fail', `a protocol error instead of an isError result: ${describeError(err)}`);
    return;
  }
  if (!res.isError) x.r.fail('fail', `isError is not true: ${types(res)}`);
  else x.r.pass('fail', `isError true: ${firstText(res)}`);
}

async function checkBundle(x) {
  if (skipUnlisted(x, 'bundle', 'evidence_bundle')) return;
  let res;
  try {
    res = await call(x, 'evidence_bundle', {});
  } catch (err) {
    x.r.fail('bundle', describeError(err));
    return;
  }
  const got = types(res);
  const c = res.content ?? [];
  if (res.isError) x.r.fail('bundle', `isError: ${firstText(res)}`);
  else if (JSON.stringify(got) !== JSON.stringify(BUNDLE_TYPES)) x.r.fail('bundle', `block types ${got}, want ${BUNDLE_TYPES}`);
  else if (!c[1].data || !c[1].mimeType?.startsWith('image/')) x.r.fail('bundle', `image block without data or an image/ mimeType`);
  else if (!c[2].data || !c[2].mimeType?.startsWith('audio/')) x.r.fail('bundle', `audio block without data or an audio/ mimeType`);
  else if (!c[3].uri || !c[3].name) x.r.fail('bundle', `resource_link without uri or name: ${JSON.stringify(c[3])}`);
  else if (!c[4].resource?.uri || (!c[4].resource.text && !c[4].resource.blob)) x.r.fail('bundle', `embedded resource without uri or contents: ${JSON.stringify(c[4])}`);
  else x.r.pass('bundle', `block types ${got}`);
}

// toolCall finds the first tools/call request for a tool after mark.
function toolCall(x, mark, name) {
  return x.wire.lines(x.pid).find((l) => l.seq >= mark && l.dir === 'c2s' && isRequest(l.msg) && l.msg.method === 'tools/call' && l.msg.params?.name === name);
}

async function checkUnknown(x) {
  const name = 'no_such_tool_interop';
  const mark = x.wire.events().length;
  let res;
  try {
    res = await call(x, name, {});
  } catch (err) {
    const req = toolCall(x, mark, name);
    const resp = req && x.wire.responseTo(x.pid, req.msg.id);
    const onWire = resp?.msg?.error ? `wire: error ${resp.msg.error.code} ${JSON.stringify(resp.msg.error.message)}` : 'no error response on the wire';
    const code = x.adapter.errorCode(err);
    if (code === undefined) x.r.fail('unknown', `the SDK's error carries no JSON-RPC code: ${describeError(err)} (${onWire})`);
    else if (code !== -32602) x.r.fail('unknown', `code ${code}, want -32602: ${describeError(err)} (${onWire})`);
    else x.r.pass('unknown', `code -32602, surfaced as ${describeError(err)} (${onWire})`);
    return;
  }
  x.r.fail('unknown', `the SDK returned a result, isError=${res.isError} ${JSON.stringify(firstText(res))}; want a JSON-RPC error -32602`);
}

function progressFor(x, token) {
  return x.wire.lines(x.pid).filter((l) => l.dir === 's2c' && l.msg?.method === 'notifications/progress' && sameId(l.msg.params?.progressToken, token));
}

async function checkProgress(x) {
  const mark = x.wire.events().length;
  const got = [];
  let returned = false;
  let late = 0;
  let res;
  try {
    res = await call(x, 'slow', { steps: PROGRESS_STEPS, delay_ms: 20 }, {
      onprogress: (p) => {
        got.push(p);
        if (returned) late++;
      },
    });
  } catch (err) {
    x.r.fail('progress', describeError(err));
    return;
  }
  returned = true;
  if (res.isError) {
    x.r.fail('progress', `isError: ${firstText(res)}`);
    return;
  }
  await sleep(100);
  const problem = progressProblem(x, mark, got);
  if (problem) {
    x.r.fail('progress', problem);
    return;
  }
  x.r.pass('progress', `${PROGRESS_STEPS} notifications on the wire, increasing, all before the result; ${delivery(got, late)}`);
}

// delivery describes what the SDK handed to the progress callback.
function delivery(got, late) {
  const values = got.map((p) => p.progress).join(',');
  const count = got.length === PROGRESS_STEPS ? `all ${PROGRESS_STEPS}` : `only ${got.length} of ${PROGRESS_STEPS}`;
  const order = late ? `, ${late} only after the call returned` : '';
  return `the SDK delivered ${count} (${values})${order}`;
}

function progressProblem(x, mark, client) {
  const req = toolCall(x, mark, 'slow');
  if (!req) return 'no tools/call for slow on the wire';
  const token = req.msg.params?._meta?.progressToken;
  if (token === undefined) return `the SDK sent no progressToken: ${JSON.stringify(req.msg.params)}`;
  const resp = x.wire.responseTo(x.pid, req.msg.id);
  if (!resp) return 'no response on the wire';
  const wire = progressFor(x, token);
  if (wire.length !== PROGRESS_STEPS) return `the server sent ${wire.length} progress notifications for token ${JSON.stringify(token)}, want ${PROGRESS_STEPS}`;
  for (const [i, p] of wire.entries()) {
    if (p.seq > resp.seq) return `progress ${i + 1} came after the result`;
    if (i > 0 && p.msg.params.progress <= wire[i - 1].msg.params.progress) return `progress went from ${wire[i - 1].msg.params.progress} to ${p.msg.params.progress}`;
  }
  if (client.length === 0) return `the server sent ${wire.length} progress notifications, the SDK delivered none`;
  for (let i = 1; i < client.length; i++) {
    if (client[i].progress <= client[i - 1].progress) return `the SDK delivered progress ${client[i].progress} after ${client[i - 1].progress}`;
  }
  return '';
}

async function checkCancel(x) {
  const mark = x.wire.events().length;
  const ac = new AbortController();
  let first;
  const firstProgress = new Promise((resolve) => (first = resolve));
  const callDone = x.adapter
    .callTool('slow', { steps: 100, delay_ms: CANCEL_DELAY_MS }, { signal: ac.signal, onprogress: () => first() })
    .then((res) => ({ res }), (err) => ({ err }));
  const started = await Promise.race([firstProgress.then(() => 'progress'), callDone.then(() => 'done'), guard(5000).then(() => 'timeout')]);
  if (started !== 'progress') {
    x.r.fail('cancel', started === 'done' ? `slow ended before it was cancelled: ${describeError((await callDone).err)}` : 'no progress within 5s');
    return;
  }
  const cancelAt = Date.now();
  ac.abort();
  const outcome = await Promise.race([callDone, guard(2000).then(() => undefined)]);
  if (!outcome) {
    x.r.fail('cancel', 'the SDK call had not settled 2s after aborting');
    return;
  }
  const returned = Date.now() - cancelAt;
  if (!outcome.err) {
    x.r.fail('cancel', 'the SDK returned a result for a cancelled call');
    return;
  }
  await sleep(CANCEL_SETTLE_MS);
  const { problem, how } = cancelProblem(x, mark);
  if (problem) {
    x.r.fail('cancel', `${problem} (the SDK rejected with ${describeError(outcome.err)})`);
    return;
  }
  try {
    const after = await call(x, 'echo', { text: 'after cancel' });
    if (after.isError || firstText(after) !== 'after cancel') throw new Error(JSON.stringify(after));
  } catch (err) {
    x.r.fail('cancel', `the next call failed: ${describeError(err)}`);
    return;
  }
  const seen = how === 'notifications/cancelled' ? 'server stopped, sent no response' : 'no response and no late progress before the stream closed (what the server does after is off the wire)';
  x.r.pass('cancel', `SDK rejected with ${describeError(outcome.err)} after ${returned}ms, cancelling by ${how}; ${seen}; next call works`);
}

// cancelProblem checks the wire after a cancelled slow call made after
// mark: { problem } or { how } the client cancelled.
function cancelProblem(x, mark) {
  const req = toolCall(x, mark, 'slow');
  if (!req) return { problem: 'no tools/call for slow on the wire' };
  const id = req.msg.id;
  const cancelled = cancellation(x, req);
  if (!cancelled) return { problem: `the client sent no notifications/cancelled for request ${JSON.stringify(id)}${req.ex === undefined ? '' : ' and kept its response stream open'}` };
  const resp = x.wire.responseTo(x.pid, id);
  if (resp) return { problem: `the server answered the cancelled request: ${JSON.stringify(resp.msg).slice(0, 300)}` };
  const late = progressFor(x, req.msg.params?._meta?.progressToken).filter((p) => p.t > cancelled.t + CANCEL_SLACK_MS);
  if (late.length) return { problem: `the server sent ${late.length} progress notifications more than ${CANCEL_SLACK_MS}ms after the cancel` };
  return { how: cancelled.how };
}

// checkWire checks every line the server wrote to the session process:
// valid JSON-RPC, answers only to requests made, no requests to a modern
// client, and result fields that match the era of the request answered.
function checkWire(x) {
  const asked = new Map();
  let n = 0;
  for (const l of x.wire.lines(x.pid)) {
    const m = l.msg;
    if (l.dir === 'c2s') {
      if (isRequest(m)) asked.set(JSON.stringify(m.id), m);
      continue;
    }
    n++;
    if (!m || m.jsonrpc !== '2.0') return x.r.fail('wire', `a line that is not JSON-RPC 2.0: ${l.bad ?? JSON.stringify(m)}`);
    if (isRequest(m) && x.modern) return x.r.fail('wire', `a request to a modern client: ${JSON.stringify(m)}`);
    if (!isResponse(m) || m.error || m.truncated) continue;
    const req = asked.get(JSON.stringify(m.id));
    if (!req) return x.r.fail('wire', `a response to id ${JSON.stringify(m.id)}, which the client never sent`);
    const modernReq = (req.params?._meta?.['io.modelcontextprotocol/protocolVersion'] ?? '') >= MODERN_VERSION;
    const res = m.result ?? {};
    if (!modernReq) {
      const extra = ['resultType', 'ttlMs', 'cacheScope'].find((k) => k in res);
      if (extra) return x.r.fail('wire', `answer to ${req.method}: legacy result carries "${extra}"`);
    } else if (res.resultType === 'input_required' && !INPUT_REQUIRED_METHODS.includes(req.method)) {
      return x.r.fail('wire', `answer to ${req.method}: resultType "input_required", which it cannot take`);
    } else if (res.resultType !== 'complete' && res.resultType !== 'input_required') {
      return x.r.fail('wire', `answer to ${req.method}: modern result without resultType "complete" (or "input_required")`);
    } else if (!res._meta?.[SERVER_INFO]) {
      return x.r.fail('wire', `answer to ${req.method}: modern result without _meta["${SERVER_INFO}"]`);
    }
  }
  const era = x.modern ? 'modern results carry resultType (complete, or input_required for a call) and serverInfo' : 'no modern-only result fields';
  if (!x.http) return x.r.pass('wire', `${n} server lines, all JSON-RPC 2.0 answering requests the client sent; ${era}`);
  const { problem, how } = httpProblem(x);
  if (problem) return x.r.fail('wire', problem);
  x.r.pass('wire', `${n} server messages, all JSON-RPC 2.0 answering requests the client sent; ${era}; ${how}`);
}

// modernStatus is the HTTP status of a 2026-07-28 response carrying a
// JSON-RPC error with the given code, by that revision's Streamable HTTP
// status table: 400 for parse errors, invalid requests and params, header
// mismatches, missing client capabilities and unsupported versions, 404
// for an unknown method, 200 for any other error.
function modernStatus(code) {
  if ([-32700, -32600, -32602, -32020, -32021, -32022].includes(code)) return 400;
  if (code === -32601) return 404;
  return 200;
}

// httpProblem checks the HTTP exchanges behind the transcript: each answer
// came back on the POST that carried its request; a POST of requests got
// 200 with application/json or text/event-stream (in 2026-07-28, a 4xx by
// the status table when the answer is such an error), a POST of
// notifications and responses alone 202; a legacy session's id, given with
// the initialize answer, is on every later request, and the modern era has
// no session id at all.
function httpProblem(x) {
  const asked = new Map();
  const answers = new Map(); // exchange → the responses it carried
  for (const l of x.wire.lines(x.pid)) {
    const m = l.msg;
    if (l.dir === 'c2s') {
      if (isRequest(m)) asked.set(JSON.stringify(m.id), l);
      continue;
    }
    if (!isResponse(m)) continue;
    const req = asked.get(JSON.stringify(m.id));
    if (!req) continue; // the JSON-RPC check reports it
    if (l.ex !== req.ex) return { problem: `the answer to ${req.msg.method} (id ${JSON.stringify(m.id)}, sent in exchange #${req.ex}) came in exchange #${l.ex}` };
    answers.set(l.ex, [...(answers.get(l.ex) ?? []), m]);
  }
  let session;
  let posts = 0, gets = 0, streams = 0;
  for (const ex of x.wire.exchanges(x.pid)) {
    if (ex.error || ex.status === undefined) continue; // the client gave the request up; nothing came back
    const d = describeExchange(ex);
    if (x.modern && (ex.newSession || ex.sessionId)) return { problem: `a session id in the modern era: ${d}` };
    if (!x.modern) {
      if (session === undefined && ex.newSession) session = ex.newSession;
      else if (session !== undefined && ex.sessionId !== session) return { problem: `a request without the session's id ${session}: ${d}` };
      else if (session !== undefined && ex.newSession && ex.newSession !== session) return { problem: `the server changed the session id: ${d}` };
    }
    if (ex.method === 'POST') {
      posts++;
      if (ex.type === 'text/event-stream') streams++;
      if (ex.requests === 0) {
        if (ex.status !== 202) return { problem: `a POST of notifications or responses only, want 202: ${d}` };
        continue;
      }
      const a = answers.get(ex.ex) ?? [];
      const want = x.modern && a.length === 1 && a[0].error ? modernStatus(a[0].error.code) : 200;
      if (ex.status !== want) return { problem: `want status ${want}: ${d}${a.length === 1 ? `: ${JSON.stringify(a[0]).slice(0, 300)}` : ''}` };
      if (ex.type !== 'application/json' && ex.type !== 'text/event-stream') return { problem: `a POST of requests answered with neither application/json nor text/event-stream: ${d}` };
    } else if (ex.method === 'GET') {
      gets++;
      if (!x.modern && (ex.status !== 200 || ex.type !== 'text/event-stream')) return { problem: `the legacy session's GET stream: ${d}` };
    }
  }
  if (!x.modern && session === undefined) return { problem: 'no Mcp-Session-Id in the answer to initialize' };
  const what = `${posts} POSTs (${streams} answered with SSE) and ${gets} GETs, every answer on its request's POST`;
  return { how: x.modern ? `${what}, no session id` : `${what}, all in session ${session}` };
}

// checkExitHTTP closes the session the SDK's way (a legacy session's
// DELETE, if the SDK sends one), then stops the server with SIGTERM, which
// must exit with code 0 within EXIT_LIMIT_MS.
async function checkExitHTTP(x) {
  try {
    await withTimeout(x.adapter.close(), 6000, 'close');
  } catch (err) {
    x.r.info(`the SDK's close failed: ${describeError(err)}`);
  }
  await sleep(50);
  let closing = "; the SDK's close sent no DELETE";
  for (const ex of x.wire.exchanges(x.pid).filter((e) => e.method === 'DELETE')) {
    if (![200, 204, 405].includes(ex.status)) return x.r.fail('exit', `the SDK's DELETE, ending the session: ${describeExchange(ex)}`);
    closing = `; the SDK's close sent DELETE, answered ${ex.status}`;
  }
  x.http.stop();
  let ex;
  for (let i = 0; i < 50 && !(ex = x.wire.exit(x.pid)); i++) await sleep(50);
  const how = ex && `exit code ${ex.code}${ex.signal ? `, signal ${ex.signal}` : ''}, ${ex.afterStopMs}ms after SIGTERM`;
  if (!x.connected) x.r.fail('exit', `not connected${ex ? ` (${how})` : ''}`);
  else if (!ex) x.r.fail('exit', `the server had not exited 2.5s after SIGTERM${closing}${stderrTail(x.stderr)}`);
  else if (ex.code !== 0 || ex.afterStopMs > EXIT_LIMIT_MS) x.r.fail('exit', `${how}${closing}${stderrTail(x.stderr)}`);
  else x.r.pass('exit', `${how}${closing}${ex.afterStopMs > 500 ? stderrTail(x.stderr) : ''}`);
}

async function checkExit(x) {
  const pid = x.pid;
  try {
    await withTimeout(x.adapter.close(), 6000, 'close');
  } catch (err) {
    x.r.info(`the SDK's close failed: ${describeError(err)}`);
  }
  let ex;
  for (let i = 0; pid !== undefined && i < 50 && !(ex = x.wire.exit(pid)); i++) await sleep(100);
  const signals = pid === undefined ? [] : x.wire.signals(pid);
  const how = ex && `exit code ${ex.code}${ex.signal ? `, signal ${ex.signal}` : ''}, ${ex.afterEofMs === null ? 'stdin never closed' : `${ex.afterEofMs}ms after stdin closed`}`;
  if (!x.connected) x.r.fail('exit', `not connected${ex ? ` (the server ended: ${signals.length ? `stopped with ${signals.join(',')}, ` : ''}${how})` : ''}`);
  else if (!ex) x.r.fail('exit', 'the server had not exited after the SDK closed the session');
  else if (signals.length) x.r.fail('exit', `the server had to be stopped with ${signals.join(',')} (${how})`);
  else if (ex.afterEofMs === null || ex.code !== 0 || ex.afterEofMs > EXIT_LIMIT_MS) x.r.fail('exit', how);
  else x.r.pass('exit', how);
}

// packageVersion reads the version of an installed package.
export function packageVersion(name) {
  const file = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', name, 'package.json');
  return JSON.parse(readFileSync(file, 'utf8')).version;
}

