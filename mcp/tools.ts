// The MCP tools, derived from the operation table (generated/operations.ts): one tool per operation with
// an `x-mcp-tool` name. A call becomes the REST request of its operation and runs through the same chain.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { operations } from '../generated/operations.ts';
import type { OperationEntry, ToolAnnotations } from '../scripts/operationTable.ts';
import type { Scope } from '../domain/credential.ts';
import type { ApiResponse } from '../server/api.ts';
import { validationMessage } from '../server/validationMessage.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

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
  validate: ValidateFunction;
}

// The contract is OpenAPI 3.1, whose schemas are JSON Schema 2020-12.
export const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);

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
    validate: ajv.compile(op.inputSchema),
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

/** The arguments' problems as one sentence naming the field, or undefined when they are valid. */
export function argumentProblem(tool: ToolEntry, args: unknown): string | undefined {
  if (tool.validate(args)) return undefined;
  // validationMessage reads REST locations; tool arguments read like a body.
  return validationMessage(
    (tool.validate.errors ?? []).map((e) => ({ ...e, instancePath: `/requestBody${e.instancePath}` })),
  );
}

/** The REST request a tool call stands for: arguments go to the path, the query or the body by name. */
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

/** A REST answer as a tool result: the same JSON as structured content and as text; 4xx and 5xx are errors. */
export function toToolResult(out: ApiResponse): ToolResult {
  const body = (out.body ?? {}) as Record<string, unknown>;
  const result: ToolResult = { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
  if (out.status >= 400) result.isError = true;
  return result;
}

/** A tool error that never reached the REST chain (bad arguments), in the same {code, message, hint} shape. */
export function toolError(code: string, message: string, hint: string): ToolResult {
  return toToolResult({ status: 400, body: { code, message, hint } });
}
