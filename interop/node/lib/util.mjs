// Helpers the scenario's check modules share.

// CALL_TIMEOUT_MS bounds each step of the scenario.
export const CALL_TIMEOUT_MS = 15000;

// describeError names an SDK error: its class, its code if any, its message.
export function describeError(err) {
  const code = err?.code !== undefined ? ` code=${err.code}` : '';
  return `${err?.constructor?.name ?? typeof err}${code}: ${err?.message ?? err}`;
}

export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// guard is a sleep that does not keep the process alive, for the losing side
// of a race.
export function guard(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

export function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms}ms`)), ms))),
  ]);
}

// waitFor polls cond every 20 ms until it holds or ms have passed, and
// resolves to whether it held.
export async function waitFor(ms, cond) {
  const deadline = Date.now() + ms;
  for (;;) {
    if (cond()) return true;
    if (Date.now() > deadline) return false;
    await sleep(20);
  }
}

export function jsonEqual(a, b) {
  return a !== undefined && JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}

function sortKeys(v) {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys(v[k])]));
  return v;
}

// call runs one tool call bounded by the step timeout.
export async function call(x, name, args, options = {}) {
  return withTimeout(x.adapter.callTool(name, args, options), CALL_TIMEOUT_MS, `tools/call ${name}`);
}

// step runs one SDK call bounded by the step timeout.
export async function step(promise, what) {
  return withTimeout(promise, CALL_TIMEOUT_MS, what);
}

export function firstText(res) {
  return res?.content?.find((b) => b.type === 'text')?.text ?? '(no text block)';
}

// missing lists the entries of want that have lacks.
export function missing(have, want) {
  return want.filter((w) => !have.includes(w));
}
