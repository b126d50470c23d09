// sdk1.mjs drives the server under test with the v1 TypeScript SDK client
// (@modelcontextprotocol/sdk 1.x), which knows only the initialize handshake
// (it asks for 2025-11-25): its one mode is legacy.
//
// With --transport http the run starts the server with -http and the SDK's
// StreamableHTTPClientTransport connects to it.
//
// Usage: node sdk1.mjs --server PATH [--mode legacy] [--transport stdio|http] [--strict]
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  McpError,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { packageVersion, parseArgs, run } from './lib/scenario.mjs';

const version = packageVersion('@modelcontextprotocol/sdk');
const opts = parseArgs(process.argv.slice(2), ['legacy']);

function makeAdapter(link, onStderr, answers) {
  const client = new Client({ name: 'mcpwire-interop-sdk1', version: '0.1.0' }, {
    capabilities: { sampling: {}, elicitation: { form: {} }, roots: {} },
  });
  client.setRequestHandler(CreateMessageRequestSchema, async (req) => {
    const { text, model } = answers.sample(req.params.messages);
    return { role: 'assistant', content: { type: 'text', text }, model, stopReason: 'endTurn' };
  });
  client.setRequestHandler(ElicitRequestSchema, async (req) => {
    const { action, content } = answers.elicit(req.params.message, req.params.requestedSchema);
    return content === undefined ? { action } : { action, content };
  });
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: answers.roots() }));
  let transport;
  if (link.url) {
    transport = new StreamableHTTPClientTransport(new URL(link.url), { fetch: link.fetch });
  } else {
    transport = new StdioClientTransport({ ...link, stderr: 'pipe' });
    transport.stderr?.on('data', onStderr);
  }
  const updates = new Map(); // uri → onUpdated
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => updates.get(n.params?.uri)?.());
  return {
    connect: () => client.connect(transport),
    // v1 does not expose the negotiated version; the scenario reads it off the wire.
    protocolVersion: () => undefined,
    // v1 has no aggregating calls: follow the cursors by hand.
    listAllTools: () => walk((p) => client.listTools(p), 'tools'),
    callTool: (name, args, options) => client.callTool({ name, arguments: args }, CallToolResultSchema, options),
    listAll(kind) {
      if (kind === 'resources') return walk((p) => client.listResources(p), 'resources');
      if (kind === 'resourceTemplates') return walk((p) => client.listResourceTemplates(p), 'resourceTemplates');
      if (kind === 'prompts') return walk((p) => client.listPrompts(p), 'prompts');
      throw new Error(`no list ${kind}`);
    },
    readResource: (uri) => client.readResource({ uri }),
    getPrompt: (name, args) => client.getPrompt(args === undefined ? { name } : { name, arguments: args }),
    complete: (prompt, argument, value) => client.complete({ ref: { type: 'ref/prompt', name: prompt }, argument: { name: argument, value } }),
    async subscribe(uri, onUpdated) {
      updates.set(uri, onUpdated);
      await client.subscribeResource({ uri });
      return () => client.unsubscribeResource({ uri });
    },
    errorCode: (err) => (err instanceof McpError ? err.code : undefined),
    close: () => client.close(),
  };
}

// walk fetches every page of a list, following each nextCursor.
async function walk(list, field) {
  const items = [];
  let cursor;
  do {
    const page = await list(cursor === undefined ? undefined : { cursor });
    items.push(...page[field]);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return items;
}

await run({
  label: `client @modelcontextprotocol/sdk ${version}, mode ${opts.mode}`,
  server: opts.server,
  strict: opts.strict,
  wantModern: false,
  makeAdapter,
  transport: opts.transport,
});
