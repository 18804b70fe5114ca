// The MCP tools, derived from the operation table (generated/operations.ts): one tool per operation with
// an `x-mcp-tool` name. A call becomes the REST request of its operation and runs through the same chain.
import type { ErrorObject } from 'ajv';
import { operations } from '../generated/operations.ts';
import * as validators from '../generated/toolValidators.ts';
import { agentWordsFor } from '../scripts/agentWords.ts';
import type { OperationEntry, ToolAnnotations } from '../scripts/operationTable.ts';
import type { Scope } from '../domain/credential.ts';
import type { ApiResponse } from '../server/api.ts';
import { REPLAYED_HEADER } from '../server/idempotency.ts';
import { validationMessage } from '../server/validationMessage.ts';
import { toolAjv } from './toolAjv.ts';

export interface ToolEntry {
  name: string;
  operation: OperationEntry;
  definition: {
    name: string;
    title: string;
    description: string;
    inputSchema: OperationEntry['inputSchema'];
    annotations: ToolAnnotations;
  };
  validate: ArgumentCheck;
}

/** A tool's compiled argument schema (generated/toolValidators.ts): the arguments' verdict, then its errors. */
type ArgumentCheck = ((args: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** The SDK's validator; the tools' own arguments are checked by code compiled at `make generate`. */
export const ajv = toolAjv();

const RETRY_ADVICE =
  'Pass `idempotencyKey`: make a new one (a UUID) for each change you intend, such as each post, and send the ' +
  'same key when you retry this call after a timeout or an error, so that the retry never does it twice.';

/** The description an agent reads: the contract's summary, then its guidance (and how to retry a change safely). */
function describeTool(op: OperationEntry): string {
  const retry = 'idempotencyKey' in op.fields.header ? `\n\n${RETRY_ADVICE}` : '';
  return `${op.summary}.\n\n${op.description}`.trim() + retry;
}

export const TOOLS: readonly ToolEntry[] = operations
  .filter((op) => op.tool)
  .map((op) => ({
    name: op.tool!,
    operation: op,
    definition: {
      name: op.tool!,
      title: op.summary,
      description: describeTool(op),
      inputSchema: op.inputSchema,
      annotations: op.annotations!,
    },
    validate: (validators as Record<string, ArgumentCheck>)[op.tool!]!,
  }));

const BY_NAME = new Map(TOOLS.map((t) => [t.name, t]));

/** The tools a caller may see and call: read tools for a read-only scope set, all for write. */
export function visibleTools(scopes: readonly Scope[]): ToolEntry[] {
  return TOOLS.filter((t) => t.operation.scope !== 'write' || scopes.includes('write'));
}

/** A tool the caller may call, or undefined whether it does not exist or is hidden (the same answer). */
export function findTool(name: string, scopes: readonly Scope[]): ToolEntry | undefined {
  const tool = BY_NAME.get(name);
  return tool && (tool.operation.scope !== 'write' || scopes.includes('write')) ? tool : undefined;
}

/** A write tool that exists (a read-only caller cannot see it). */
export function isWriteTool(name: string): boolean {
  return BY_NAME.get(name)?.operation.scope === 'write';
}

/** The protocol error for a tool the caller cannot call: the same words whether it exists or not. */
export const unknownToolMessage = (name: string) => `Unknown tool: ${name}`;

// Half of a UTF-16 pair without its other half: no id holds one, and a path cannot encode it.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * What makes an id argument unfit for its path segment, though its schema (a string) holds: empty, it would
 * make the path of another operation (`/posts/` is the list); a lone surrogate cannot be percent-encoded.
 */
function idProblem(name: string, value: string): string | undefined {
  if (value === '') return `\`${name}\` must not be empty: give the id itself.`;
  if (LONE_SURROGATE.test(value))
    return `\`${name}\` holds half of a UTF-16 surrogate pair, which no id contains: give the id as it was returned.`;
  return undefined;
}

/** The arguments' problems as one sentence naming the field, or undefined when they are valid. */
export function argumentProblem(tool: ToolEntry, args: unknown): string | undefined {
  if (!tool.validate(args)) {
    // validationMessage reads REST locations; tool arguments read like a body.
    return validationMessage(
      (tool.validate.errors ?? []).map((e) => ({ ...e, instancePath: `/requestBody${e.instancePath}` })),
    );
  }
  for (const name of tool.operation.fields.path) {
    const problem = idProblem(name, String((args as Record<string, unknown>)[name]));
    if (problem) return problem;
  }
  return undefined;
}

/**
 * The REST request a tool call stands for: arguments go to the path, the query or the body by name. Path
 * arguments must have passed argumentProblem (non-empty, well-formed), so each is one encoded segment.
 */
export function toRestRequest(op: OperationEntry, args: Record<string, unknown>) {
  const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(String(args[name])));
  const query: Record<string, string> = {};
  for (const name of op.fields.query) if (args[name] !== undefined) query[name] = String(args[name]);
  const hasBody = op.fields.body.length > 0;
  const body = hasBody
    ? Object.fromEntries(op.fields.body.filter((n) => args[n] !== undefined).map((n) => [n, args[n]]))
    : undefined;
  // Header names in lower case, as Node hands them to the REST chain.
  const headers = Object.fromEntries(
    Object.entries(op.fields.header)
      .filter(([arg]) => args[arg] !== undefined)
      .map(([arg, name]) => [name.toLowerCase(), String(args[arg])]),
  );
  return { method: op.method.toUpperCase(), path, query, body, headers };
}

export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent: Record<string, unknown>;
  isError?: boolean;
}

const agentWords = agentWordsFor(operations);

/**
 * An answer with each of Herald's {code, message, hint} (the error itself, a plan row's issues, a post's error)
 * in agent words: the REST catalogue names routes and query parameters, a tool's caller knows tools and
 * arguments. Every other value stays as it is.
 */
function inAgentWords(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(inAgentWords);
  if (!value || typeof value !== 'object') return value;
  const out = Object.fromEntries(Object.entries(value).map(([key, item]) => [key, inAgentWords(item)]));
  if (typeof out.code === 'string' && typeof out.hint === 'string') {
    out.hint = agentWords(out.hint);
    if (typeof out.message === 'string') out.message = agentWords(out.message);
  }
  return out;
}

/**
 * A REST answer as a tool result: the same JSON as structured content and as text; 4xx and 5xx are errors. An agent
 * sees no headers: an answer replayed for its `idempotencyKey` says so in `idempotentReplayed: true`.
 */
export function toToolResult(out: ApiResponse): ToolResult {
  const body = inAgentWords(out.body ?? {}) as Record<string, unknown>;
  if (out.headers?.[REPLAYED_HEADER] === 'true') body.idempotentReplayed = true;
  const result: ToolResult = { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
  if (out.status >= 400) result.isError = true;
  return result;
}

/** A tool error that never reached the REST chain (bad arguments), in the same {code, message, hint} shape. */
export function toolError(code: string, message: string, hint: string): ToolResult {
  return toToolResult({ status: 400, body: { code, message, hint } });
}
