// tsserver.mjs is a small MCP server built on the TypeScript SDK,
// @modelcontextprotocol/sdk 1.x (McpServer), for mcpwire's own client to
// drive (go/cmd/mcpwireclient): two tools (echo, and inventory with an
// outputSchema and structured content), one resource, one resource
// template and one prompt, over stdio or Streamable HTTP.
//
//   node tsserver.mjs                          serve stdio
//   node tsserver.mjs --transport http [--port N]
//                                              serve Streamable HTTP at
//                                              http://127.0.0.1:N/mcp (N from
//                                              $PORT, else a free port), with
//                                              the SDK's session management
//
// Over HTTP it logs "ts-sdk-server: listening on URL" to stderr once it
// listens, and ends on SIGTERM or SIGINT.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';

const { values: flags } = parseArgs({
  options: {
    transport: { type: 'string', default: 'stdio' },
    port: { type: 'string', default: process.env.PORT ?? '0' },
  },
});

const ITEMS = ['anvil', 'bolt', 'crate'];

// newServer builds the server; each HTTP session gets its own.
function newServer() {
  const server = new McpServer({ name: 'ts-sdk-server', version: '0.1.0' });
  server.registerTool(
    'echo',
    { description: 'Return the given text unchanged.', inputSchema: { text: z.string().describe('the text to return') } },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  server.registerTool(
    'inventory',
    {
      description: 'Count the items in stock, optionally those whose name starts with a prefix.',
      inputSchema: { prefix: z.string().optional().describe('keep only the items starting with this') },
      outputSchema: { count: z.number().int(), items: z.array(z.string()) },
      annotations: { readOnlyHint: true },
    },
    async ({ prefix }) => {
      const items = ITEMS.filter((i) => !prefix || i.startsWith(prefix));
      const structuredContent = { count: items.length, items };
      return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };
    },
  );
  server.registerResource(
    'readme',
    'static://readme',
    { description: 'What this server is.', mimeType: 'text/plain' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'A TypeScript SDK server for mcpwire interop.' }] }),
  );
  server.registerResource(
    'item',
    new ResourceTemplate('item://{name}', { list: undefined }),
    { description: 'One item of the inventory.', mimeType: 'application/json' },
    async (uri, { name }) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify({ name }) }] }),
  );
  server.registerPrompt(
    'summarize',
    { description: 'Ask for a summary of the inventory.', argsSchema: { style: z.string().optional() } },
    ({ style }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Summarize the inventory${style ? ` in a ${style} style` : ''}.` } }],
    }),
  );
  return server;
}

if (flags.transport === 'stdio') {
  await newServer().connect(new StdioServerTransport());
} else if (flags.transport === 'http') {
  serveHTTP(Number(flags.port));
} else {
  console.error(`usage: node tsserver.mjs [--transport stdio|http] [--port N]`);
  process.exit(2);
}

// serveHTTP serves Streamable HTTP at /mcp, one transport (and server) per
// session, as the SDK's examples do.
function serveHTTP(port) {
  const sessions = new Map();
  const http = createServer(async (req, res) => {
    if (new URL(req.url, 'http://x').pathname !== '/mcp') {
      res.writeHead(404).end();
      return;
    }
    let body;
    if (req.method === 'POST') {
      const chunks = [];
      for await (const c of req) chunks.push(c);
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        reply(res, 400, -32700, 'Parse error');
        return;
      }
    }
    const id = req.headers['mcp-session-id'];
    let transport = id ? sessions.get(id) : undefined;
    if (!transport) {
      if (id || req.method !== 'POST' || !isInitializeRequest(body)) {
        reply(res, id ? 404 : 400, -32000, id ? 'Session not found' : 'Bad Request: no valid session id');
        return;
      }
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => sessions.set(sid, transport),
      });
      transport.onclose = () => sessions.delete(transport.sessionId);
      await newServer().connect(transport);
    }
    await transport.handleRequest(req, res, body);
  });
  http.listen(port, '127.0.0.1', () => {
    console.error(`ts-sdk-server: listening on http://127.0.0.1:${http.address().port}/mcp`);
  });
  const stop = () => {
    for (const t of sessions.values()) t.close();
    http.close(() => process.exit(0));
    http.closeAllConnections();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

// reply answers a request with a JSON-RPC error of no id.
function reply(res, status, code, message) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
