// One MCP server for one request's caller (the endpoint is stateless): the low-level SDK Server, so the
// contract's JSON Schemas are advertised exactly as generated, and hidden tools answer like unknown ones.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { Scope } from '../domain/credential.ts';
import { loadContract } from '../runtime/contract.ts';
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

/** The server's version is the contract's. */
export const SERVER_INFO = { name: 'herald', title: 'Herald', version: String(loadContract().info.version) };

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

/**
 * A JSON-RPC error sent as it is: the SDK puts an error's own `code` and `message` on the wire. McpError would
 * prefix "MCP error -32602: " to the message, and the client's McpError prefixes it once more.
 */
class ProtocolRefusal extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The tool name and arguments of a tools/call, or a -32602 sentence naming what is wrong with its params. */
function callParams(params: unknown): { name: string; args: Record<string, unknown> } {
  const refuse = (message: string) => new ProtocolRefusal(ErrorCode.InvalidParams, message);
  if (!isObject(params)) throw refuse('tools/call needs `params`: an object with the tool `name` and its `arguments`.');
  if (typeof params.name !== 'string') throw refuse('`params.name` must be the name of a tool, as a string.');
  const args = params.arguments ?? {};
  if (!isObject(args)) throw refuse(`\`params.arguments\` must be an object of ${params.name}'s arguments.`);
  return { name: params.name, args };
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
  async function callTool(params: unknown) {
    const { name, args } = callParams(params);
    const tool = findTool(name, caller.scopes);
    // The same protocol error for a hidden tool as for one that does not exist: nothing reveals it.
    if (!tool) throw new ProtocolRefusal(ErrorCode.InvalidParams, unknownToolMessage(name));
    const problem = argumentProblem(tool, args);
    if (problem)
      return toolError('invalid_request', problem, `Fix the named argument; see the input schema of ${name}.`);
    return toToolResult(await caller.run(tool, args));
  }
  // tools/call is answered here rather than by setRequestHandler: the SDK parses a registered method's params
  // with its own schema first, and answers a malformed call -32603 with the parser's raw dump. Any other method
  // without a handler gets the SDK's own answer.
  server.fallbackRequestHandler = async (request) => {
    if (request.method === 'tools/call') return callTool(request.params);
    throw new ProtocolRefusal(ErrorCode.MethodNotFound, 'Method not found');
  };
  return server;
}
