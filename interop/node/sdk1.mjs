// sdk1.mjs drives the server under test with the v1 TypeScript SDK client
// (@modelcontextprotocol/sdk 1.x), which knows only the initialize handshake
// (it asks for 2025-11-25): its one mode is legacy.
//
// Usage: node sdk1.mjs --server PATH [--mode legacy] [--strict]
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { packageVersion, parseArgs, run } from './lib/scenario.mjs';

const version = packageVersion('@modelcontextprotocol/sdk');
const opts = parseArgs(process.argv.slice(2), ['legacy']);

function makeAdapter(cmd, onStderr) {
  const client = new Client({ name: 'mcpwire-interop-sdk1', version: '0.1.0' });
  const transport = new StdioClientTransport({ ...cmd, stderr: 'pipe' });
  transport.stderr?.on('data', onStderr);
  return {
    connect: () => client.connect(transport),
    // v1 does not expose the negotiated version; the scenario reads it off the wire.
    protocolVersion: () => undefined,
    async listAllTools() {
      // v1 has no aggregating call: follow the cursors by hand.
      const tools = [];
      let cursor;
      do {
        const page = await client.listTools(cursor === undefined ? undefined : { cursor });
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      return tools;
    },
    callTool: (name, args, options) => client.callTool({ name, arguments: args }, CallToolResultSchema, options),
    errorCode: (err) => (err instanceof McpError ? err.code : undefined),
    close: () => client.close(),
  };
}

await run({
  label: `client @modelcontextprotocol/sdk ${version}, mode ${opts.mode}`,
  server: opts.server,
  strict: opts.strict,
  wantModern: false,
  makeAdapter,
});
