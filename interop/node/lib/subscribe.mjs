// The subscribe check: follow test://watched-resource the SDK's way for its
// era (resources/subscribe, or a subscriptions/listen stream naming it),
// see an update the trigger tool causes arrive, unsubscribe, and see no
// update after that.
import { call, describeError, firstText, sleep, step, waitFor } from './util.mjs';
import { SUBSCRIPTION_ID, cancellation, mark, notifications, request, serverCapabilities } from './look.mjs';
import { WATCHED_URI, skipUnlistedItem } from './resources.mjs';
import { sameId } from './wire.mjs';

// TRIGGER_TOOL changes the watched resource once, so that the server sends
// notifications/resources/updated to every client that follows it. The run
// turns the server's own timer off (-watch-interval 0), so that this is the
// only change.
const TRIGGER_TOOL = 'test_trigger_resource_update';
// SUBSCRIBE_WAIT_MS bounds each wait for an acknowledgement, an update or a
// cancellation on the wire.
const SUBSCRIBE_WAIT_MS = 2000;
// QUIET_WAIT_MS is how long the check watches for an update that must not
// come after unsubscribing.
const QUIET_WAIT_MS = 300;

export async function checkSubscribe(x) {
  const check = 'subscribe';
  if (skipUnlistedItem(x, check, x.resources, WATCHED_URI)) return;
  const resourcesCap = serverCapabilities(x)?.resources;
  if (!x.modern && resourcesCap?.subscribe !== true) {
    x.r.fail(check, `the server lists ${WATCHED_URI} but its resources capability lacks subscribe: ${JSON.stringify(resourcesCap)}`);
    return;
  }
  const counter = { delivered: 0 };
  let from = mark(x);
  let unsubscribe;
  try {
    unsubscribe = await step(x.adapter.subscribe(WATCHED_URI, () => counter.delivered++), 'subscribe');
  } catch (err) {
    x.r.fail(check, `subscribing to ${WATCHED_URI}: ${describeError(err)}`);
    return;
  }
  let r = x.modern ? await listenAcknowledged(x, from) : answered(x, from, 'resources/subscribe');
  if (r.problem) return x.r.fail(check, r.problem);
  const { listen } = r;
  let how = r.how;
  const trigger = x.tools.has(TRIGGER_TOOL);
  if (trigger) {
    const problem = await updateArrives(x, listen, counter);
    if (problem) return x.r.fail(check, problem);
    how += `; ${TRIGGER_TOOL} sent notifications/resources/updated, the SDK delivered it`;
  }
  from = mark(x);
  try {
    await step(unsubscribe(), 'unsubscribe');
  } catch (err) {
    x.r.fail(check, `unsubscribing: ${describeError(err)}`);
    return;
  }
  r = x.modern ? await listenEnded(x, listen) : answered(x, from, 'resources/unsubscribe');
  if (r.problem) return x.r.fail(check, r.problem);
  let unhow = r.how;
  if (trigger) {
    const problem = await noUpdateAfter(x, counter);
    if (problem) return x.r.fail(check, problem);
    unhow += ', and no update after it';
  } else {
    unhow += `; the server lists no ${TRIGGER_TOOL}, so no update was triggered`;
  }
  x.r.pass(check, `${how}; ${unhow}`);
}

// answered checks that the client sent method for the watched URI after
// from and that the server answered it with a result.
function answered(x, from, method) {
  const req = request(x, from, method, (p) => p.uri === WATCHED_URI);
  if (!req) return { problem: `no ${method} for ${WATCHED_URI} on the wire` };
  const resp = x.wire.responseTo(x.pid, req.msg.id);
  if (!resp) return { problem: `no answer to ${method}` };
  if (resp.msg.error) return { problem: `${method} answered with error ${resp.msg.error.code} ${JSON.stringify(resp.msg.error.message)}` };
  return { how: `${method} answered ${JSON.stringify(resp.msg.result)}` };
}

function namesWatched(p) {
  return p?.notifications?.resourceSubscriptions?.includes(WATCHED_URI) === true;
}

// listenAcknowledged finds the subscriptions/listen the SDK opened after
// from for the watched resource and waits for the server's acknowledgement,
// tagged with its id and honouring the resource.
async function listenAcknowledged(x, from) {
  let listen;
  await waitFor(SUBSCRIBE_WAIT_MS, () => (listen = request(x, from, 'subscriptions/listen', namesWatched)) !== undefined);
  if (!listen) return { problem: `no subscriptions/listen naming ${WATCHED_URI} in resourceSubscriptions on the wire` };
  const id = listen.msg.id;
  let acks = [];
  await waitFor(SUBSCRIBE_WAIT_MS, () => (acks = notifications(x, from, 'notifications/subscriptions/acknowledged', (p) => sameId(p._meta?.[SUBSCRIPTION_ID], id))).length > 0);
  if (!acks.length) return { problem: `no notifications/subscriptions/acknowledged tagged with subscriptionId ${JSON.stringify(id)} within ${SUBSCRIBE_WAIT_MS}ms` };
  if (!namesWatched(acks[0].msg.params)) return { problem: `the acknowledgement does not honour ${WATCHED_URI}: ${JSON.stringify(acks[0].msg).slice(0, 300)}` };
  const resp = x.wire.responseTo(x.pid, id);
  if (resp) return { problem: `the server answered the open listen request: ${JSON.stringify(resp.msg).slice(0, 300)}` };
  return { listen, how: `subscriptions/listen (id ${JSON.stringify(id)}) acknowledged with resourceSubscriptions [${WATCHED_URI}]` };
}

// listenEnded checks that the SDK cancelled the listen request and that the
// server, as for any cancelled request, sent no answer.
async function listenEnded(x, listen) {
  const id = listen.msg.id;
  let c;
  if (!(await waitFor(SUBSCRIBE_WAIT_MS, () => (c = cancellation(x, listen)) !== undefined))) {
    return { problem: `the SDK sent no notifications/cancelled for the listen request ${JSON.stringify(id)} within ${SUBSCRIBE_WAIT_MS}ms of unsubscribing` };
  }
  await sleep(QUIET_WAIT_MS);
  const resp = x.wire.responseTo(x.pid, id);
  if (resp) return { problem: `the server answered the cancelled listen request: ${JSON.stringify(resp.msg).slice(0, 300)}` };
  if (c.how === 'notifications/cancelled') return { how: 'unsubscribing sent notifications/cancelled for the listen request, which the server left unanswered' };
  return { how: `unsubscribing ended the listen request by ${c.how}, and the server sent no answer before` };
}

async function triggerUpdate(x) {
  let res;
  try {
    res = await call(x, TRIGGER_TOOL, {});
  } catch (err) {
    return `${TRIGGER_TOOL}: ${describeError(err)}`;
  }
  return res.isError ? `${TRIGGER_TOOL}: isError: ${firstText(res)}` : '';
}

const isWatchedUpdate = (p) => p.uri === WATCHED_URI;

function heads(lines) {
  return lines.map((l) => JSON.stringify(l.msg).slice(0, 300)).join(' | ');
}

// updateArrives triggers an update and checks that the server sent it (on
// the listen stream, in the modern era) and the SDK delivered it.
async function updateArrives(x, listen, counter) {
  const from = mark(x);
  const problem = await triggerUpdate(x);
  if (problem) return problem;
  let updates = [];
  await waitFor(SUBSCRIBE_WAIT_MS, () => (updates = notifications(x, from, 'notifications/resources/updated', isWatchedUpdate)).length > 0 && counter.delivered > 0);
  if (!updates.length) return `no notifications/resources/updated for ${WATCHED_URI} within ${SUBSCRIBE_WAIT_MS}ms of ${TRIGGER_TOOL}`;
  if (!counter.delivered) return `the server sent ${heads(updates)}, the SDK did not deliver it within ${SUBSCRIBE_WAIT_MS}ms`;
  if (updates.length > 1) return `${updates.length} notifications/resources/updated for one change: ${heads(updates)}`;
  if (x.modern && !sameId(updates[0].msg.params._meta?.[SUBSCRIPTION_ID], listen.msg.id)) {
    return `the update is tagged with subscriptionId ${JSON.stringify(updates[0].msg.params._meta?.[SUBSCRIPTION_ID])}, want the listen request's id ${JSON.stringify(listen.msg.id)}: ${heads(updates)}`;
  }
  return '';
}

// noUpdateAfter triggers an update after unsubscribing and checks that none
// arrives.
async function noUpdateAfter(x, counter) {
  const from = mark(x);
  const before = counter.delivered;
  const problem = await triggerUpdate(x);
  if (problem) return problem;
  await sleep(QUIET_WAIT_MS);
  const updates = notifications(x, from, 'notifications/resources/updated', isWatchedUpdate);
  if (updates.length) return `after unsubscribing the server still sent ${heads(updates)}`;
  if (counter.delivered > before) return `after unsubscribing the SDK delivered ${counter.delivered - before} more updates`;
  return '';
}
