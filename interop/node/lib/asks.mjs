// The checks of the tools that ask the client something (sampling,
// elicitation, roots), the same as the Go scenario's asks.go. In the
// legacy era the server sends the client requests while the call runs and
// the SDK's handlers answer them; in 2026-07-28 the server answers
// input_required and the SDK retries the call with the answers.
import { ANSWER_COLOR, ANSWER_NAME, ROOT_URI, SAMPLED_REPLY } from './answers.mjs';
import { call, describeError, firstText, jsonEqual } from './util.mjs';
import { isRequest, isResponse, sameId } from './wire.mjs';

const ELICIT = ['elicitation/create'];

// ASK_CHECKS: rounds are the methods of the questions, one entry per round
// (modern: one input_required result's inputRequests, sorted; legacy: the
// server's requests, in order, during the one call). handler is the kind
// of the adapter's handler that must have run, and calls how many times.
const ASK_CHECKS = [
  {
    check: 'sampling', tool: 'test_sampling', args: { prompt: 'interop: say something' },
    rounds: [['sampling/createMessage']], handler: 'sampling', calls: 1,
    want: (text) => {
      const want = `LLM response: ${SAMPLED_REPLY}`;
      return text === want ? '' : `text ${JSON.stringify(text)}, want ${JSON.stringify(want)}`;
    },
  },
  {
    check: 'elicitation', tool: 'test_elicitation', args: { message: 'interop: please fill in the form' },
    rounds: [ELICIT], handler: 'elicitation', calls: 1,
    // accepted is what the SDK sent back, read off the wire after the call.
    want: (text, accepted) => elicitTextProblem(text, 'accept', accepted),
  },
  {
    check: 'elicitation-decline', tool: 'test_elicitation', args: { message: 'interop: please decline this one' },
    rounds: [ELICIT], handler: 'elicitation', calls: 1,
    want: (text) => elicitTextProblem(text, 'decline'),
  },
  {
    check: 'roots', tool: 'test_input_required_result_list_roots', args: {},
    rounds: [['roots/list']], handler: 'roots', calls: 1,
    want: (text) => (text.includes(ROOT_URI) ? '' : `text ${JSON.stringify(text)} does not mention the client's root ${ROOT_URI}`),
  },
  {
    check: 'multi-round', tool: 'test_input_required_result_multi_round', args: {},
    rounds: [ELICIT, ELICIT], handler: 'elicitation', calls: 2,
    want: (text) =>
      text.includes(ANSWER_NAME) && text.includes(ANSWER_COLOR)
        ? ''
        : `text ${JSON.stringify(text)} does not contain both answers, ${JSON.stringify(ANSWER_NAME)} (step 1) and ${JSON.stringify(ANSWER_COLOR)} (step 2)`,
  },
];

export async function checkAsks(x) {
  for (const c of ASK_CHECKS) await checkAsk(x, c);
}

async function checkAsk(x, c) {
  if (!x.tools.has(c.tool)) {
    x.r.skip(c.check, `the server does not list ${c.tool} yet`);
    return;
  }
  const from = x.wire.events().length;
  const before = x.answers.count(c.handler);
  let res, err;
  try {
    res = await call(x, c.tool, c.args);
  } catch (e) {
    err = e;
  }
  const lines = x.wire.lines(x.pid).filter((l) => l.seq >= from);
  const w = askWire(lines, c.tool, c.rounds, x.modern);
  const onWire = w.problem ?? w.summary;
  if (err) return x.r.fail(c.check, `${describeError(err)} (wire: ${onWire})`);
  if (res.isError) return x.r.fail(c.check, `isError: ${firstText(res)} (wire: ${onWire})`);
  const text = firstText(res);
  const problem = c.want(text, acceptedOnWire(lines));
  if (problem) return x.r.fail(c.check, `${problem} (wire: ${onWire})`);
  if (w.problem) return x.r.fail(c.check, `the text is right (${JSON.stringify(text)}) but the wire is not: ${w.problem}`);
  const ran = x.answers.count(c.handler) - before;
  if (ran !== c.calls) return x.r.fail(c.check, `the SDK ran its ${c.handler} handler ${ran} times, want ${c.calls} (wire: ${onWire})`);
  x.r.pass(c.check, `text ${JSON.stringify(text)}; ${w.summary}; the SDK's ${c.handler} handler ran ${ran} time(s)`);
}

// elicitTextProblem checks test_elicitation's text, "User response:
// action=<a>, content=<json>": the action, and for an accepted form the
// content the client sent.
function elicitTextProblem(text, action, content) {
  const prefix = `User response: action=${action}`;
  if (!text.startsWith(prefix)) return `text ${JSON.stringify(text)}, want it to start with ${JSON.stringify(prefix)}`;
  if (action !== 'accept') return '';
  const head = `${prefix}, content=`;
  if (!text.startsWith(head)) return `text ${JSON.stringify(text)} has no ", content=" after the action`;
  let got;
  try {
    got = JSON.parse(text.slice(head.length));
  } catch (err) {
    return `content in the text is no JSON: ${JSON.stringify(text.slice(head.length))}: ${err.message}`;
  }
  if (!jsonEqual(got, content ?? null)) return `content in the text ${JSON.stringify(got)}, the client accepted with ${JSON.stringify(content)}`;
  return '';
}

// acceptedOnWire is the content of the first accepted form the client sent:
// in its response to an elicitation/create (legacy) or in the
// inputResponses of a retried call (modern).
function acceptedOnWire(lines) {
  for (const l of lines) {
    if (l.dir !== 'c2s') continue;
    const m = l.msg;
    let answers = [];
    if (isResponse(m) && m.result) answers = [m.result];
    else if (m?.method === 'tools/call') answers = Object.values(m.params?.inputResponses ?? {});
    const a = answers.find((r) => r?.action === 'accept');
    if (a) return a.content;
  }
  return undefined;
}

// askWire checks the exchange of a tool call that asks the client, in the
// session's lines from the call on, and summarises it: { summary } or
// { problem }.
//
// Legacy: one tools/call; while it runs the server sends requests with the
// methods of rounds, in order, each answered by the client with a result
// before the call's result.
//
// Modern: one tools/call per round plus the last: every answer but the last
// is resultType input_required with inputRequests of the round's methods;
// each retry has a new id, carries inputResponses for every key asked and
// echoes requestState exactly (or omits it when none was given); the last
// answer is resultType complete. The server sends no requests.
export function askWire(lines, tool, rounds, modern) {
  const calls = lines.filter((l) => l.dir === 'c2s' && isRequest(l.msg) && l.msg.method === 'tools/call' && l.msg.params?.name === tool);
  if (calls.length === 0) return { problem: `no tools/call for ${tool}` };
  return modern ? modernAskWire(lines, calls, rounds) : legacyAskWire(lines, calls, rounds);
}

function responseAfter(lines, dir, id, seq) {
  return lines.find((l) => l.seq > seq && l.dir === dir && isResponse(l.msg) && sameId(l.msg.id, id));
}

function legacyAskWire(lines, calls, rounds) {
  if (calls.length !== 1) return { problem: `${calls.length} tools/call requests, want 1 in the legacy era` };
  const c = calls[0];
  const resp = responseAfter(lines, 's2c', c.msg.id, c.seq);
  if (!resp) return { problem: `no answer to tools/call id ${JSON.stringify(c.msg.id)}` };
  const want = rounds.flat();
  const got = [];
  const parts = [];
  for (const l of lines) {
    if (l.seq <= c.seq || l.seq >= resp.seq || l.dir !== 's2c' || !isRequest(l.msg)) continue;
    const m = l.msg;
    got.push(m.method);
    const answer = responseAfter(lines, 'c2s', m.id, l.seq);
    if (!answer || answer.seq > resp.seq) return { problem: `the client did not answer the server's ${m.method} (id ${JSON.stringify(m.id)}) before the call's result` };
    if (answer.msg.error) return { problem: `the client answered the server's ${m.method} (id ${JSON.stringify(m.id)}) with error ${answer.msg.error.code} ${JSON.stringify(answer.msg.error.message)}` };
    parts.push(`${m.method} (id ${JSON.stringify(m.id)}) answered ${JSON.stringify(answer.msg.result).slice(0, 120)}`);
  }
  if (JSON.stringify(got) !== JSON.stringify(want)) return { problem: `during the call the server asked ${JSON.stringify(got)}, want ${JSON.stringify(want)}` };
  return { summary: `one tools/call; the server asked ${parts.join(', ')}; then the result` };
}

function modernAskWire(lines, calls, rounds) {
  const req = lines.find((l) => l.dir === 's2c' && isRequest(l.msg));
  if (req) return { problem: `the server sent a request to a modern client: ${JSON.stringify(req.msg).slice(0, 300)}` };
  if (calls.length !== rounds.length + 1) {
    return { problem: `${calls.length} tools/call requests, want ${rounds.length + 1} (${rounds.length} input_required rounds and the complete one)` };
  }
  const seen = new Set();
  const parts = [];
  let prev;
  for (const [i, c] of calls.entries()) {
    const id = JSON.stringify(c.msg.id);
    if (seen.has(id)) return { problem: `call ${i + 1} reuses id ${id}` };
    seen.add(id);
    if (prev) {
      const problem = retryProblem(c.msg.params ?? {}, prev);
      if (problem) return { problem: `retry ${i} (id ${id}): ${problem}` };
    }
    const resp = responseAfter(lines, 's2c', c.msg.id, c.seq);
    if (!resp) return { problem: `no answer to call ${i + 1} (id ${id})` };
    if (resp.msg.error) return { problem: `call ${i + 1} (id ${id}): error ${resp.msg.error.code} ${JSON.stringify(resp.msg.error.message)}` };
    const res = resp.msg.result ?? {};
    const head = JSON.stringify(resp.msg).slice(0, 300);
    if (i === rounds.length) {
      if (res.resultType !== 'complete') return { problem: `call ${i + 1}: resultType ${JSON.stringify(res.resultType)}, want "complete" after ${rounds.length} rounds: ${head}` };
      parts.push('complete');
      break;
    }
    if (res.resultType !== 'input_required') return { problem: `call ${i + 1}: resultType ${JSON.stringify(res.resultType)}, want "input_required" (round ${i + 1} of ${rounds.length}): ${head}` };
    const asked = res.inputRequests ?? {};
    const keys = Object.keys(asked).sort();
    const methods = Object.values(asked).map((r) => r?.method).sort();
    if (JSON.stringify(methods) !== JSON.stringify(rounds[i])) return { problem: `round ${i + 1} asked ${JSON.stringify(methods)}, want ${JSON.stringify(rounds[i])}: ${head}` };
    parts.push(`input_required [${keys.join(' ')}] with ${res.requestState === undefined ? 'no requestState' : 'requestState'}`);
    prev = res;
  }
  return { summary: `${calls.length} calls: ${parts.join(' → ')}, each retried with a new id, the answers under the same keys and the state echoed` };
}

// retryProblem checks that a retried call's params answer every question of
// the previous input_required result and echo its requestState.
function retryProblem(params, prev) {
  for (const k of Object.keys(prev.inputRequests ?? {})) {
    if (!(k in (params.inputResponses ?? {}))) return `no inputResponses[${JSON.stringify(k)}]: ${JSON.stringify(params).slice(0, 300)}`;
  }
  if (prev.requestState === undefined && params.requestState !== undefined) return 'a requestState the server never gave';
  if (prev.requestState !== undefined && params.requestState === undefined) return 'the requestState is not echoed';
  if (prev.requestState !== undefined && params.requestState !== prev.requestState) return 'the requestState echoed is not the one given';
  return '';
}
