// The resource checks: resources, templates, read-text, read-binary,
// read-template, read-missing; and the listing walk the prompts check
// shares.
import { describeError, jsonEqual, missing, step } from './util.mjs';
import { mark, pagesOnWire, request, rpcError, serverCapabilities } from './look.mjs';

export const STATIC_TEXT_URI = 'test://static-text';
export const STATIC_TEXT = 'This is the content of the static text resource.';
export const STATIC_BINARY_URI = 'test://static-binary';
export const WATCHED_URI = 'test://watched-resource';
export const TEMPLATE_URI = 'test://template/{id}/data';
const TEMPLATE_READ_URI = 'test://template/123/data';
const TEMPLATE_JSON = { id: '123', templateTest: true, data: 'Data for ID: 123' };
// MISSING_URI is a URI no resource or template of the server matches.
const MISSING_URI = 'test://nonexistent-resource-interop';
const PNG_SIGNATURE = Buffer.from('89504e470d0a1a0a', 'hex');

// The lists an adapter's listAll(kind) knows: their method, and what keys an item.
export const LISTS = {
  resources: { method: 'resources/list', key: (it) => it.uri },
  resourceTemplates: { method: 'resources/templates/list', key: (it) => it.uriTemplate },
  prompts: { method: 'prompts/list', key: (it) => it.name },
};

// notFoundCode is the JSON-RPC code of a resources/read of an unknown URI:
// -32002 in the legacy era, -32602 in 2026-07-28, which has no -32002.
function notFoundCode(modern) {
  return modern ? -32602 : -32002;
}

// checkListing lists kind with the adapter (the SDK's own cursor following,
// or a walk by hand where the SDK has none) and reports check: the requests
// on the wire must follow each nextCursor, the items must include want and
// take at least minPages pages, and extra, when given, returns the problem it
// finds. It returns the items by key, or undefined when the listing failed.
export async function checkListing(x, check, kind, want, minPages, extra) {
  const { method, key } = LISTS[kind];
  const from = mark(x);
  let items;
  try {
    items = await step(x.adapter.listAll(kind), method);
  } catch (err) {
    x.r.fail(check, `${method}: ${describeError(err)}`);
    return undefined;
  }
  const keys = items.map(key);
  const byKey = new Map(items.map((it) => [key(it), it]));
  const pages = pagesOnWire(x, from, method);
  const lacks = missing(keys, want);
  let problem;
  if (typeof pages === 'string') x.r.fail(check, pages);
  else if (byKey.size !== keys.length) x.r.fail(check, `duplicates in ${keys}`);
  else if (lacks.length) x.r.skip(check, `the server does not list ${lacks} yet (it lists ${keys})`);
  else if (extra && (problem = extra(byKey))) x.r.fail(check, problem);
  else if (pages < minPages) x.r.fail(check, `${keys.length} items in ${pages} page(s), want at least ${minPages} pages: the run asks for a small page size so that cursors are followed`);
  else x.r.pass(check, `${keys.length} over ${pages} pages, each cursor followed: ${keys.join(',')}`);
  return byKey;
}

// skipUnlistedItem reports a SKIP and returns true when items lacks key.
export function skipUnlistedItem(x, check, items, key) {
  if (items?.has(key)) return false;
  x.r.skip(check, `the server does not list ${key} yet`);
  return true;
}

// skipNoCapability reports a SKIP and returns true when the server did not
// declare the capability.
export function skipNoCapability(x, check, capability) {
  if (serverCapabilities(x)?.[capability] !== undefined) return false;
  x.r.skip(check, `the server declares no ${capability} capability yet`);
  return true;
}

export async function checkResources(x) {
  if (skipNoCapability(x, 'resources', 'resources') | skipNoCapability(x, 'templates', 'resources')) return;
  x.resources = await checkListing(x, 'resources', 'resources', [STATIC_TEXT_URI, STATIC_BINARY_URI], 2);
  x.templates = await checkListing(x, 'templates', 'resourceTemplates', [TEMPLATE_URI], 1);
}

// readOne reads uri and returns its one contents entry, or reports check
// failed and returns undefined.
async function readOne(x, check, uri) {
  let res;
  try {
    res = await step(x.adapter.readResource(uri), `resources/read ${uri}`);
  } catch (err) {
    x.r.fail(check, `${uri}: ${describeError(err)}`);
    return undefined;
  }
  const c = res?.contents ?? [];
  if (c.length !== 1) x.r.fail(check, `${uri}: ${c.length} contents entries, want 1`);
  else if (c[0].uri !== uri) x.r.fail(check, `${uri}: contents uri ${JSON.stringify(c[0].uri)}`);
  else return c[0];
  return undefined;
}

function show(v) {
  return JSON.stringify(v).slice(0, 300);
}

export async function checkReadText(x) {
  const check = 'read-text';
  if (skipUnlistedItem(x, check, x.resources, STATIC_TEXT_URI)) return;
  const c = await readOne(x, check, STATIC_TEXT_URI);
  if (!c) return;
  if (c.mimeType !== 'text/plain') x.r.fail(check, `mimeType ${JSON.stringify(c.mimeType)}, want text/plain: ${show(c)}`);
  else if (typeof c.text !== 'string' || c.blob !== undefined) x.r.fail(check, `want text and no blob: ${show(c)}`);
  else if (c.text !== STATIC_TEXT) x.r.fail(check, `text ${JSON.stringify(c.text)}, want ${JSON.stringify(STATIC_TEXT)}`);
  else x.r.pass(check, `${STATIC_TEXT_URI}: text/plain, ${JSON.stringify(c.text)}`);
}

export async function checkReadBinary(x) {
  const check = 'read-binary';
  if (skipUnlistedItem(x, check, x.resources, STATIC_BINARY_URI)) return;
  const c = await readOne(x, check, STATIC_BINARY_URI);
  if (!c) return;
  if (typeof c.blob !== 'string' || c.text !== undefined) {
    x.r.fail(check, `want a blob and no text: ${show(c)}`);
    return;
  }
  // Buffer.from skips what is not base64, so the form is checked first.
  const data = Buffer.from(c.blob, 'base64');
  if (c.blob.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(c.blob)) x.r.fail(check, `the blob is no base64: ${c.blob.slice(0, 100)}`);
  else if (c.mimeType !== 'image/png') x.r.fail(check, `mimeType ${JSON.stringify(c.mimeType)}, want image/png`);
  else if (!data.subarray(0, 8).equals(PNG_SIGNATURE)) x.r.fail(check, `the blob (${data.length} bytes) does not start with the PNG signature: ${data.subarray(0, 8).toString('hex')}`);
  else x.r.pass(check, `${STATIC_BINARY_URI}: image/png, a ${data.length}-byte blob that decodes to a PNG`);
}

export async function checkReadTemplate(x) {
  const check = 'read-template';
  if (skipUnlistedItem(x, check, x.templates, TEMPLATE_URI)) return;
  const c = await readOne(x, check, TEMPLATE_READ_URI);
  if (!c) return;
  let doc;
  try {
    doc = JSON.parse(c.text);
  } catch {
    doc = undefined;
  }
  if (typeof c.text !== 'string') x.r.fail(check, `no text: ${show(c)}`);
  else if (!c.text.includes('123')) x.r.fail(check, `the text does not contain 123: ${JSON.stringify(c.text)}`);
  else if (c.mimeType !== 'application/json') x.r.fail(check, `mimeType ${JSON.stringify(c.mimeType)}, want application/json`);
  else if (!jsonEqual(doc, TEMPLATE_JSON)) x.r.fail(check, `text ${c.text}, want ${JSON.stringify(TEMPLATE_JSON)}`);
  else x.r.pass(check, `${TEMPLATE_READ_URI} through ${TEMPLATE_URI}: application/json ${c.text}`);
}

export async function checkReadMissing(x) {
  const check = 'read-missing';
  if (skipNoCapability(x, check, 'resources')) return;
  const from = mark(x);
  let res;
  try {
    res = await step(x.adapter.readResource(MISSING_URI), `resources/read ${MISSING_URI}`);
  } catch (err) {
    const want = notFoundCode(x.modern);
    const req = request(x, from, 'resources/read', (p) => p.uri === MISSING_URI);
    if (!req) {
      x.r.fail(check, `no resources/read for ${MISSING_URI} on the wire; the SDK said ${describeError(err)}`);
      return;
    }
    // An SDK may surface the legacy -32002 as its own resource-not-found
    // error, with the code 2026-07-28 uses.
    const accepted = (code) => (want === -32002 && code === -32602 && x.adapter.isResourceNotFound?.(err) ? 'the SDK rewrites -32002 to -32602 for its ResourceNotFoundError' : undefined);
    const { detail, problem, resp } = rpcError(x, req, err, want, accepted);
    if (problem) x.r.fail(check, problem);
    else if (resp.msg.error.data?.uri !== MISSING_URI) x.r.fail(check, `error.data.uri ${JSON.stringify(resp.msg.error.data?.uri)}, want ${JSON.stringify(MISSING_URI)} (data ${JSON.stringify(resp.msg.error.data)})`);
    else x.r.pass(check, `${detail}, data.uri set; ${x.modern ? '2026-07-28 has no -32002' : 'the legacy resource-not-found code'}`);
    return;
  }
  x.r.fail(check, `the SDK returned ${res?.contents?.length} contents entries for ${MISSING_URI}; want a JSON-RPC error`);
}
