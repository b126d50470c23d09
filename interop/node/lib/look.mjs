// Wire look-ups the resource, prompt and subscription checks share. Each
// takes the scenario's state x: x.wire, x.pid (the session process),
// x.adapter.
import { isRequest, isResponse, sameId } from './wire.mjs';
import { describeError } from './util.mjs';

export const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

// mark is the current end of the wire log, for looking at what follows.
export function mark(x) {
  return x.wire.events().length;
}

// serverCapabilities returns the capabilities of the server's last
// successful answer to initialize or server/discover on any process (an SDK
// may discover on a probe process of its own), or undefined.
export function serverCapabilities(x) {
  const asked = new Map();
  let caps;
  for (const l of x.wire.lines()) {
    const m = l.msg;
    const key = `${l.pid} ${JSON.stringify(m?.id)}`;
    if (l.dir === 'c2s') {
      if (isRequest(m)) asked.set(key, m.method);
      continue;
    }
    if (!isResponse(m) || m.error) continue;
    const method = asked.get(key);
    if ((method === 'initialize' || method === 'server/discover') && m.result?.capabilities) caps = m.result.capabilities;
  }
  return caps;
}

// request finds the first request for method the client sent to the session
// process after from whose params satisfy match.
export function request(x, from, method, match = () => true) {
  return x.wire.lines(x.pid).find((l) => l.seq >= from && l.dir === 'c2s' && isRequest(l.msg) && l.msg.method === method && match(l.msg.params ?? {}));
}

// notifications returns the server's notifications for method on the
// session process after from whose params satisfy match.
export function notifications(x, from, method, match = () => true) {
  return x.wire.lines(x.pid).filter((l) => l.seq >= from && l.dir === 's2c' && l.msg?.method === method && l.msg.id === undefined && match(l.msg.params ?? {}));
}

// cancelledFor finds the client's notifications/cancelled for a request id.
export function cancelledFor(x, id) {
  return x.wire.lines(x.pid).find((l) => l.dir === 'c2s' && l.msg?.method === 'notifications/cancelled' && sameId(l.msg.params?.requestId, id));
}

// pagesOnWire checks that the requests for a list method made after from
// follow each nextCursor in turn, and returns how many pages there were (or
// what went wrong).
export function pagesOnWire(x, from, method) {
  const reqs = x.wire.lines(x.pid).filter((l) => l.seq >= from && l.dir === 'c2s' && l.msg?.method === method);
  let want;
  for (const [i, req] of reqs.entries()) {
    const cursor = req.msg.params?.cursor;
    if (cursor !== want) return `page ${i + 1} asked for cursor ${JSON.stringify(cursor)}, want ${JSON.stringify(want)}`;
    const resp = x.wire.responseTo(x.pid, req.msg.id);
    if (!resp || resp.msg.error) return `page ${i + 1}: ${JSON.stringify(resp?.msg?.error ?? 'no answer')}`;
    want = resp.msg.result.nextCursor;
    if (want === undefined) return reqs.length === i + 1 ? reqs.length : `${reqs.length - i - 1} requests after the last page`;
  }
  return reqs.length === 0 ? `no ${method} on the wire` : `the last page had nextCursor ${JSON.stringify(want)}, never followed`;
}

// rpcError checks that the server answered req with a JSON-RPC error of
// code want and that the SDK surfaced it, as err, with that code, or with
// another one that accepted(code) allows. It returns { detail } for a
// pass, { problem } otherwise.
export function rpcError(x, req, err, want, accepted = () => undefined) {
  const method = req.msg.method;
  const resp = x.wire.responseTo(x.pid, req.msg.id);
  const e = resp?.msg?.error;
  if (!resp) return { problem: `no response to ${method} on the wire; the SDK said ${describeError(err)}` };
  if (!e) return { problem: `the server answered ${method} with a result, want error ${want}: ${JSON.stringify(resp.msg).slice(0, 300)}` };
  if (e.code !== want) return { problem: `the server answered ${method} with error ${e.code} ${JSON.stringify(e.message)}, want ${want}` };
  const onWire = `wire: error ${e.code} ${JSON.stringify(e.message)}`;
  const code = x.adapter.errorCode(err);
  if (code === undefined) return { problem: `the SDK's error carries no JSON-RPC code: ${describeError(err)} (${onWire})` };
  if (code !== want) {
    const why = accepted(code);
    if (why) return { detail: `wire code ${want}, surfaced as ${describeError(err)}: ${why} (${onWire})`, resp };
    return { problem: `the SDK surfaced code ${code}, want ${want}: ${describeError(err)} (${onWire})` };
  }
  return { detail: `code ${code}, surfaced as ${describeError(err)} (${onWire})`, resp };
}

// cancellation finds how the client cancelled a request (a wire line): a
// notifications/cancelled for it, or, over HTTP, closing the SSE response
// its answer was to come on before the answer. In 2026-07-28 that close is
// the Streamable HTTP transport's own cancellation; in the 2025 revisions
// it is a disconnect, which they say a server should not take for one. It
// returns { t, how } or undefined.
export function cancellation(x, req) {
  const n = cancelledFor(x, req.msg.id);
  if (n) return { t: n.t, how: 'notifications/cancelled' };
  if (req.ex === undefined) return undefined;
  const ex = x.wire.exchanges(x.pid).find((e) => e.ex === req.ex);
  if (!ex?.closedAt) return undefined;
  return {
    t: ex.closedAt,
    how: x.modern
      ? "closing the request's SSE response (2026-07-28's cancellation over HTTP), with no notifications/cancelled"
      : "closing the request's SSE response only, with no notifications/cancelled (a disconnect, which the 2025 revisions say is no cancellation)",
  };
}
