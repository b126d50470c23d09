// tap.mjs sits between a client SDK and the server under test and records
// what crosses the server's stdio, so that the checks can look at the wire
// and so that the first line of every client (including a probe the SDK
// sends on a process of its own) can be reported.
//
// Usage: node tap.mjs LOGFILE SERVER [ARGS...]
//
// It starts SERVER with ARGS and passes bytes through unchanged in both
// directions, as soon as they arrive. It appends one JSON object per event
// to LOGFILE:
//   {"pid", "t", "ev": "spawn"}                         when the server started
//   {"pid", "t", "ev": "line", "dir": "c2s"|"s2c", "len", "msg"|"bad"}
//   {"pid", "t", "ev": "stdin-eof"}                     the client closed stdin
//   {"pid", "t", "ev": "signal", "signal"}              the tap was signalled
//   {"pid", "t", "ev": "exit", "code", "signal", "afterEofMs"}
// "pid" is the tap's own pid, one per spawn. "msg" is the decoded JSON-RPC
// message; for lines over 64 KiB only its jsonrpc, id, method and error are
// kept. "bad" holds the start of a line that is not JSON. A client line is
// logged before it is passed on, so that an answer never precedes it in the
// log. The tap exits as the server did.
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';

const [logFile, server, ...args] = process.argv.slice(2);
const pid = process.pid;
const log = (ev) => appendFileSync(logFile, JSON.stringify({ pid, t: Date.now(), ...ev }) + '\n');

const child = spawn(server, args, { stdio: ['pipe', 'pipe', 'inherit'] });
log({ ev: 'spawn', server, args });

function liner(dir) {
  let partial = Buffer.alloc(0);
  return (chunk) => {
    let data = partial.length ? Buffer.concat([partial, chunk]) : chunk;
    for (let i = data.indexOf(10); i >= 0; i = data.indexOf(10)) {
      record(dir, data.subarray(0, i));
      data = data.subarray(i + 1);
    }
    partial = Buffer.from(data);
  };
}

function record(dir, bytes) {
  const text = bytes.toString('utf8').replace(/\r$/, '');
  let msg;
  try {
    msg = JSON.parse(text);
  } catch {
    log({ ev: 'line', dir, len: bytes.length, bad: text.slice(0, 300) });
    return;
  }
  if (bytes.length > 64 << 10 && msg && typeof msg === 'object') {
    msg = { jsonrpc: msg.jsonrpc, id: msg.id, method: msg.method, error: msg.error, truncated: true };
  }
  log({ ev: 'line', dir, len: bytes.length, msg });
}

let eofAt;
const fromClient = liner('c2s');
process.stdin.on('data', (chunk) => {
  fromClient(chunk);
  child.stdin.write(chunk);
});
process.stdin.on('end', () => {
  eofAt = Date.now();
  log({ ev: 'stdin-eof' });
  child.stdin.end();
});
child.stdin.on('error', () => {}); // the server may exit before reading everything

const fromServer = liner('s2c');
child.stdout.on('data', (chunk) => {
  fromServer(chunk);
  process.stdout.write(chunk);
});

for (const sig of ['SIGTERM', 'SIGINT']) {
  process.on(sig, () => {
    log({ ev: 'signal', signal: sig });
    child.kill(sig);
  });
}

child.on('close', (code, signal) => {
  log({ ev: 'exit', code, signal, afterEofMs: eofAt === undefined ? null : Date.now() - eofAt });
  process.stdout.end(() => process.exit(code ?? 1));
});
