// The params of the protocol's own methods, checked before the SDK sees a request: the SDK parses a registered
// method's params with its schema and answers a mismatch -32603 with the parser's raw dump, and a request whose
// params are not an object never reaches it (the transport's parse error). Each is answered here -32602 with one
// sentence saying what the method takes. tools/call's own params are checked in mcp/server.ts.
import {
  ErrorCode,
  InitializeRequestSchema,
  LoggingLevelSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  RequestIdSchema,
  SetLevelRequestSchema,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';

type Schema = { safeParse(value: unknown): { success: boolean; error?: { issues: { path: PropertyKey[] }[] } } };

/** What each protocol method takes, in words, and the SDK's schema of its request. */
const METHODS: Record<string, { takes: string; schema: Schema }> = {
  initialize: {
    takes:
      'initialize takes `params` with protocolVersion (a version such as "2025-06-18"), capabilities (an object) ' +
      'and clientInfo (an object with name and version)',
    schema: InitializeRequestSchema,
  },
  ping: { takes: 'ping takes no params, or an empty object', schema: PingRequestSchema },
  'tools/list': {
    takes: 'tools/list takes no params, or `params.cursor`: the nextCursor string of the page before',
    schema: ListToolsRequestSchema,
  },
  'logging/setLevel': {
    takes: `logging/setLevel takes \`params.level\`: one of ${LoggingLevelSchema.options.join(', ')}`,
    schema: SetLevelRequestSchema,
  },
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `params.a.b`, as a sentence names the first place a schema found wrong. */
const placeOf = (path: PropertyKey[]) => `\`${path.map(String).join('.') || 'params'}\``;

function problemOf(method: string, params: unknown): string | undefined {
  const known = METHODS[method];
  const takes = known?.takes ?? `${method} takes its params as an object`;
  if (params !== undefined && !isObject(params)) return `\`params\` must be an object: ${takes}.`;
  // Herald declares no tasks capability, so no request runs as a task (the SDK would answer -32603).
  if (params?.task !== undefined)
    return `\`params.task\` asks for a task, and Herald runs none: send ${method} without it.`;
  const parsed = known?.schema.safeParse(params === undefined ? { method } : { method, params });
  if (parsed && !parsed.success)
    return params === undefined
      ? `\`params\` is missing: ${takes}.`
      : `${placeOf(parsed.error?.issues[0]?.path ?? [])} is not valid: ${takes}.`;
  return undefined;
}

/**
 * The -32602 answer to a request (an id, a method) whose params are malformed; undefined for anything else, which
 * the transport reads by its own rules.
 */
export function paramsRefusal(item: unknown): JSONRPCMessage | undefined {
  if (!isObject(item) || item.jsonrpc !== '2.0' || typeof item.method !== 'string') return undefined;
  const id = RequestIdSchema.safeParse(item.id);
  if (!id.success) return undefined;
  const problem = problemOf(item.method, item.params);
  return problem
    ? { jsonrpc: '2.0', id: id.data, error: { code: ErrorCode.InvalidParams, message: problem } }
    : undefined;
}
