// One MCP server for one request's caller (the endpoint is stateless): the low-level SDK Server, so the
// contract's JSON Schemas are advertised exactly as generated, and hidden tools answer like unknown ones.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { Scope } from '../domain/credential.ts';
import type { ApiResponse } from '../server/api.ts';
import {
  ajv,
  argumentProblem,
  findTool,
  toToolResult,
  toolError,
  unknownToolMessage,
  visibleTools,
  type ToolEntry,
} from './tools.ts';

export const SERVER_INFO = { name: 'herald', title: 'Herald', version: '1.0.0' };

const INSTRUCTIONS = `Herald schedules and publishes social posts. Start with service_whoami and service_list_accounts.
Plan with service_plan_post and show its table to a human as is; create with confirm: true only after they agreed.
Report a post only after the call succeeded, quoting its statusLine. Poll a post at most about once a minute.`;

// One validator for every per-request server: the SDK would otherwise build a new Ajv for each.
const jsonSchemaValidator = new AjvJsonSchemaValidator(ajv);

export interface CallerTools {
  /** The scopes that decide which tools exist for this caller (read-only on Free, whatever was granted). */
  scopes: readonly Scope[];
  /** Runs a tool's operation through the REST chain for this caller. */
  run(tool: ToolEntry, args: Record<string, unknown>): Promise<ApiResponse>;
}

export function createMcpServer(caller: CallerTools): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {}, logging: {} },
    instructions: INSTRUCTIONS,
    jsonSchemaValidator,
  });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: visibleTools(caller.scopes).map((t) => t.definition),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args = {} } = request.params;
    const tool = findTool(name, caller.scopes);
    // The same protocol error for a hidden tool as for one that does not exist: nothing reveals it.
    if (!tool) throw new McpError(ErrorCode.InvalidParams, unknownToolMessage(name));
    const problem = argumentProblem(tool, args);
    if (problem)
      return toolError('invalid_request', problem, `Fix the named argument; see the input schema of ${name}.`);
    return toToolResult(await caller.run(tool, args));
  });
  return server;
}
