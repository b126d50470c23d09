// Wire reads the log that tap.mjs writes: every line that crossed the
// server's stdio, per spawned server process.
import { readFileSync } from 'node:fs';

export class Wire {
  constructor(logFile) {
    this.logFile = logFile;
  }

  // events returns every logged event, in order.
  events() {
    let text;
    try {
      text = readFileSync(this.logFile, 'utf8');
    } catch {
      return [];
    }
    return text
      .split('\n')
      .filter((l) => l !== '')
      .map((l, seq) => ({ seq, ...JSON.parse(l) }));
  }

  // pids lists the spawned processes (taps) in the order they started.
  pids() {
    return this.events()
      .filter((e) => e.ev === 'spawn')
      .map((e) => e.pid);
  }

  // lines returns the JSON-RPC lines of one process (or of all).
  lines(pid) {
    return this.events().filter((e) => e.ev === 'line' && (pid === undefined || e.pid === pid));
  }

  // firstClientLine returns the first line a process received, as JSON text.
  firstClientLine(pid) {
    const l = this.lines(pid).find((e) => e.dir === 'c2s');
    if (!l) return '';
    return l.msg !== undefined ? JSON.stringify(l.msg) : l.bad;
  }

  // responseTo returns the server's response to a request id, if any.
  responseTo(pid, id) {
    return this.lines(pid).find((e) => e.dir === 's2c' && isResponse(e.msg) && sameId(e.msg.id, id));
  }

  // exit returns the exit event of a process, if it has exited.
  exit(pid) {
    return this.events().find((e) => e.ev === 'exit' && e.pid === pid);
  }

  // exchanges returns the HTTP exchanges of a Streamable HTTP run, in the
  // order the client sent them: { ex, method, sessionId, version, messages,
  // requests, status, type, newSession, error, closedAt }.
  exchanges(pid) {
    const byEx = new Map();
    for (const e of this.events()) {
      if (pid !== undefined && e.pid !== pid) continue;
      if (e.ev === 'http') byEx.set(e.ex, { ex: e.ex, method: e.method, sessionId: e.sessionId, version: e.version, messages: e.messages, requests: e.requests, t: e.t });
      const x = byEx.get(e.ex);
      if (!x) continue;
      if (e.ev === 'http-response') Object.assign(x, { status: e.status, type: e.type, newSession: e.newSession });
      if (e.ev === 'http-error') x.error = e.error;
      if (e.ev === 'http-closed') x.closedAt = e.t;
    }
    return [...byEx.values()];
  }

  // signals returns the signals a process's tap received.
  signals(pid) {
    return this.events().filter((e) => e.ev === 'signal' && e.pid === pid).map((e) => e.signal);
  }
}

export function isRequest(m) {
  return m && typeof m.method === 'string' && m.id !== undefined;
}

export function isResponse(m) {
  return m && m.method === undefined && m.id !== undefined && m.id !== null;
}

export function sameId(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

// requestedVersion is the protocol version a request asks for: initialize's
// protocolVersion, or the modern _meta key.
export function requestedVersion(m) {
  const p = m?.params ?? {};
  return p.protocolVersion ?? p._meta?.['io.modelcontextprotocol/protocolVersion'] ?? '';
}

// describeHandshake summarises what a client sent to one process before its
// first tools/list, and the answers.
export function describeHandshake(wire, pid) {
  const lines = wire.lines(pid);
  const parts = [];
  for (const l of lines) {
    if (l.dir !== 'c2s') continue;
    const m = l.msg;
    if (m?.method === 'tools/list') break;
    if (!isRequest(m)) {
      parts.push(m?.method ?? `(not JSON: ${l.bad})`);
      continue;
    }
    const v = requestedVersion(m);
    parts.push(`${m.method}${v ? ` [${v}]` : ''} → ${describeResponse(wire, pid, m.id)}`);
  }
  const ex = wire.exit(pid);
  if (ex && lines.length > 0 && !lines.some((l) => l.msg?.method === 'tools/list')) {
    const sigs = wire.signals(pid);
    parts.push(`process ended (${sigs.length ? `sent ${sigs.join(',')}, then ` : ''}${ex.signal ? `signal ${ex.signal}` : `exit code ${ex.code}`})`);
  }
  return parts.length ? parts.join('; ') : '(the client wrote nothing)';
}

function describeResponse(wire, pid, id) {
  const r = wire.responseTo(pid, id);
  if (!r) return 'no answer';
  const m = r.msg;
  if (m.error) return `error ${m.error.code} ${JSON.stringify(m.error.message)}`;
  if (m.result?.protocolVersion) return m.result.protocolVersion;
  if (m.result?.supportedVersions) return `supportedVersions ${m.result.supportedVersions.join(',')}`;
  return 'ok';
}

// describeExchange names an HTTP exchange for reports.
export function describeExchange(x) {
  let s = `#${x.ex} ${x.method}`;
  if (x.sessionId) s += ` [Mcp-Session-Id ${x.sessionId}]`;
  if (x.version) s += ` [MCP-Protocol-Version ${x.version}]`;
  if (x.method === 'POST') s += ` (${x.messages} messages, ${x.requests} requests)`;
  if (x.error) return `${s} → error ${x.error}`;
  s += ` → ${x.status} ${x.type}`;
  if (x.newSession) s += ` [Mcp-Session-Id ${x.newSession}]`;
  if (x.closedAt) s += '; the client closed the response before its end';
  return s;
}
