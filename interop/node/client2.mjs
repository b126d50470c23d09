// client2.mjs drives the server under test with the v2 TypeScript client
// (@modelcontextprotocol/client 2.x) in one of its version negotiation modes:
//   legacy  versionNegotiation { mode: 'legacy' } (the SDK's default): the
//           plain initialize handshake, no probe;
//   auto    { mode: 'auto' }: server/discover first, on a short-lived sibling
//           process for the SDK's own stdio transport, falling back to
//           initialize unless the answer is definitely modern;
//   modern  { mode: { pin: '2026-07-28' } }: server/discover must offer
//           2026-07-28; no fallback.
//
// With --transport http the run starts the server with -http and the SDK's
// StreamableHTTPClientTransport connects to it, with the same modes (auto
// and modern probe with server/discover on the same endpoint).
//
// Usage: node client2.mjs --server PATH [--mode legacy|auto|modern] [--transport stdio|http] [--strict]
import { Client, ProtocolError, ResourceNotFoundError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { MODERN_VERSION, packageVersion, parseArgs, run } from './lib/scenario.mjs';

const version = packageVersion('@modelcontextprotocol/client');
const opts = parseArgs(process.argv.slice(2), ['legacy', 'auto', 'modern']);
const negotiation = { legacy: { mode: 'legacy' }, auto: { mode: 'auto' }, modern: { mode: { pin: MODERN_VERSION } } }[opts.mode];

// The handlers answer a server request in the legacy era, and the questions
// of an input_required result in 2026-07-28 (the SDK's multi-round-trip
// driver, inputRequired.autoFulfill, on by default), the same way.
function makeAdapter(link, onStderr, answers) {
  const client = new Client({ name: 'mcpwire-interop-client2', version: '0.1.0' }, {
    versionNegotiation: negotiation,
    capabilities: { sampling: {}, elicitation: { form: {} }, roots: {} },
  });
  client.setRequestHandler('sampling/createMessage', async (req) => {
    const { text, model } = answers.sample(req.params.messages);
    return { role: 'assistant', content: { type: 'text', text }, model, stopReason: 'endTurn' };
  });
  client.setRequestHandler('elicitation/create', async (req) => {
    const { action, content } = answers.elicit(req.params.message, req.params.requestedSchema);
    return content === undefined ? { action } : { action, content };
  });
  client.setRequestHandler('roots/list', async () => ({ roots: answers.roots() }));
  let transport;
  if (link.url) {
    transport = new StreamableHTTPClientTransport(new URL(link.url), { fetch: link.fetch });
  } else {
    transport = new StdioClientTransport({ ...link, stderr: 'pipe' });
    transport.stderr?.on('data', onStderr);
  }
  const updates = new Map(); // uri → onUpdated
  client.setNotificationHandler('notifications/resources/updated', (n) => updates.get(n.params?.uri)?.());
  const modern = () => (client.getNegotiatedProtocolVersion() ?? '') >= MODERN_VERSION;
  return {
    connect: () => client.connect(transport),
    protocolVersion: () => client.getNegotiatedProtocolVersion(),
    // Without a cursor, each list call walks every page itself.
    listAllTools: async () => (await client.listTools()).tools,
    callTool: (name, args, options) => client.callTool({ name, arguments: args }, options),
    async listAll(kind) {
      if (kind === 'resources') return (await client.listResources()).resources;
      if (kind === 'resourceTemplates') return (await client.listResourceTemplates()).resourceTemplates;
      if (kind === 'prompts') return (await client.listPrompts()).prompts;
      throw new Error(`no list ${kind}`);
    },
    readResource: (uri) => client.readResource({ uri }),
    getPrompt: (name, args) => client.getPrompt(args === undefined ? { name } : { name, arguments: args }),
    complete: (prompt, argument, value) => client.complete({ ref: { type: 'ref/prompt', name: prompt }, argument: { name: argument, value } }),
    // resources/subscribe in the legacy era; in the modern one, which has
    // none, a subscriptions/listen stream whose filter names the resource.
    async subscribe(uri, onUpdated) {
      updates.set(uri, onUpdated);
      if (modern()) {
        const sub = await client.listen({ resourceSubscriptions: [uri] });
        return () => sub.close();
      }
      await client.subscribeResource({ uri });
      return () => client.unsubscribeResource({ uri });
    },
    errorCode: (err) => (err instanceof ProtocolError ? err.code : undefined),
    isResourceNotFound: (err) => err instanceof ResourceNotFoundError,
    close: () => client.close(),
  };
}

await run({
  label: `client @modelcontextprotocol/client ${version}, mode ${opts.mode} (versionNegotiation ${JSON.stringify(negotiation)})`,
  server: opts.server,
  strict: opts.strict,
  wantModern: opts.mode !== 'legacy',
  makeAdapter,
  transport: opts.transport,
});
