// The HTTP side of the wire log: for a Streamable HTTP run the scenario
// starts the server itself with -http 127.0.0.1:0, and hands the SDK a fetch
// that records every exchange and every JSON-RPC message of the request
// bodies and of the response bodies (application/json, or each event of a
// text/event-stream, as the SDK reads it), in the log format tap.mjs writes
// for stdio, plus:
//   {"pid", "t", "ev": "http", "ex", "method", "sessionId", "version", "messages", "requests"}
//   {"pid", "t", "ev": "http-response", "ex", "status", "type", "newSession"}
//   {"pid", "t", "ev": "http-closed", "ex"}      the client dropped an SSE response before its end
//   {"pid", "t", "ev": "http-error", "ex", "error"}  the request failed, no response
//   {"pid", "t", "ev": "stop", "signal"}         the scenario sent the server SIGTERM
//   {"pid", "t", "ev": "exit", "code", "signal", "afterStopMs"}
// Each "line" event of an exchange carries "ex", the exchange's number.
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';

const LISTENING = 'everything: listening on ';

// startHttpServer runs server with -http 127.0.0.1:0 and args, and resolves,
// once it has logged where it listens, to { url, pid, stop() }: stop sends
// SIGTERM. Its stderr goes to onStderr.
export function startHttpServer(server, args, logFile, onStderr, waitMs = 5000) {
  const child = spawn(server, ['-http', '127.0.0.1:0', ...args], { stdio: ['pipe', 'ignore', 'pipe'] });
  const pid = child.pid;
  const log = (ev) => appendFileSync(logFile, JSON.stringify({ pid, t: Date.now(), ...ev }) + '\n');
  let stoppedAt;
  child.on('close', (code, signal) => log({ ev: 'exit', code, signal, afterStopMs: stoppedAt === undefined ? null : Date.now() - stoppedAt }));
  return new Promise((resolve, reject) => {
    let text = '';
    let listening = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no "${LISTENING.trim()}" line on stderr within ${waitMs}ms: ${text}`));
    }, waitMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.stderr.on('data', (chunk) => {
      onStderr(chunk);
      if (listening) return;
      text += String(chunk);
      const line = text.split('\n').slice(0, -1).find((l) => l.startsWith(LISTENING));
      if (!line) return;
      listening = true;
      clearTimeout(timer);
      const url = line.slice(LISTENING.length).trim();
      log({ ev: 'spawn', server, args, url });
      resolve({
        url,
        pid,
        stop() {
          stoppedAt = Date.now();
          log({ ev: 'stop', signal: 'SIGTERM' });
          child.kill('SIGTERM');
        },
        kill: () => child.kill('SIGKILL'),
      });
    });
    child.on('exit', (code) => {
      if (listening) return;
      clearTimeout(timer);
      reject(new Error(`the server exited (code ${code}) before listening: ${text}`));
    });
  });
}

// tapFetch returns a fetch that logs to logFile under pid.
export function tapFetch(logFile, pid) {
  const log = (ev) => appendFileSync(logFile, JSON.stringify({ pid, t: Date.now(), ...ev }) + '\n');
  const logMessage = (dir, text, ex) => {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      log({ ev: 'line', dir, len: text.length, bad: text.slice(0, 300), ex });
      return;
    }
    for (const m of Array.isArray(msg) ? msg : [msg]) {
      const len = Array.isArray(msg) ? JSON.stringify(m).length : Buffer.byteLength(text);
      log({ ev: 'line', dir, len, msg: len > 64 << 10 && m && typeof m === 'object' ? { jsonrpc: m.jsonrpc, id: m.id, method: m.method, error: m.error, truncated: true } : m, ex });
    }
  };
  let n = 0;
  return async (input, init = {}) => {
    const ex = ++n;
    const req = new Request(input, init);
    const body = init.body === undefined || init.body === null ? '' : String(init.body);
    let msgs = [];
    try {
      const parsed = body === '' ? [] : JSON.parse(body);
      msgs = Array.isArray(parsed) ? parsed : [parsed];
    } catch {}
    log({
      ev: 'http', ex, method: req.method,
      sessionId: req.headers.get('mcp-session-id') ?? undefined,
      version: req.headers.get('mcp-protocol-version') ?? undefined,
      messages: msgs.length,
      requests: msgs.filter((m) => typeof m?.method === 'string' && m.id !== undefined).length,
    });
    if (body !== '') logMessage('c2s', body, ex);
    let resp;
    try {
      resp = await fetch(input, init);
    } catch (err) {
      log({ ev: 'http-error', ex, error: String(err?.message ?? err) });
      throw err;
    }
    const type = (resp.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
    log({ ev: 'http-response', ex, status: resp.status, type, newSession: resp.headers.get('mcp-session-id') ?? undefined });
    if (!resp.body || [204, 205, 304].includes(resp.status)) return resp;
    const sse = type === 'text/event-stream';
    const reader = resp.body.getReader();
    const decoder = new TextDecoder();
    let buf = '';
    let data = [];
    let ended = false;
    const events = () => {
      for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
        const line = buf.slice(0, i).replace(/\r$/, '');
        buf = buf.slice(i + 1);
        if (line === '') {
          const text = data.join('\n');
          if (text.trim() !== '') logMessage('s2c', text, ex);
          data = [];
        } else if (line.startsWith('data:')) {
          data.push(line.slice(5).replace(/^ /, ''));
        }
      }
    };
    const finish = () => {
      if (ended) return;
      ended = true;
      if (type === 'application/json' && buf.trim() !== '') logMessage('s2c', buf, ex);
    };
    const stream = new ReadableStream({
      async pull(controller) {
        let chunk;
        try {
          chunk = await reader.read();
        } catch (err) {
          if (sse && !ended) log({ ev: 'http-closed', ex, why: String(err?.name ?? err) });
          finish();
          controller.error(err);
          return;
        }
        if (chunk.done) {
          finish();
          controller.close();
          return;
        }
        buf += decoder.decode(chunk.value, { stream: true });
        if (sse) events();
        controller.enqueue(chunk.value);
      },
      async cancel(reason) {
        if (sse && !ended) log({ ev: 'http-closed', ex, why: 'cancelled' });
        finish();
        await reader.cancel(reason);
      },
    });
    return new Response(stream, { status: resp.status, statusText: resp.statusText, headers: resp.headers });
  };
}
