// Builds the operation table from the contract: one entry per operationId with its route, scope,
// MCP tool name and a flat JSON Schema of its input (path and query parameters beside body fields),
// which the router, the scope check and the MCP server all read.

import { agentWordsFor, schemaInAgentWords } from './agentWords.ts';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface OperationEntry {
  operationId: string;
  method: HttpMethod;
  path: string;
  scope: 'read' | 'write' | 'none';
  tool: string | null;
  /** MCP tool hints: derived from scope and method, overridden by the operation's `x-mcp-annotations`. */
  annotations: ToolAnnotations | null;
  summary: string;
  /** The contract's description; a tool's in agent words (scripts/agentWords.ts), like its input schema's. */
  description: string;
  /**
   * Where each input field goes when a flat argument object (an MCP call) becomes a request; `header` maps an
   * argument (`idempotencyKey`) to its header (`Idempotency-Key`).
   */
  fields: { path: string[]; query: string[]; body: string[]; header: Record<string, string> };
  inputSchema: JsonSchema;
}

type JsonSchema = { [key: string]: unknown };

export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/**
 * Every hint is set, since the protocol's defaults assume the worst: a read-scoped operation is read-only
 * and idempotent; a write is destructive only when it deletes, idempotent unless it is a POST; a call is
 * open-world (reaches a social network or the internet) only where the contract says so.
 */
function toolAnnotations(op: any, method: HttpMethod): ToolAnnotations {
  const readOnly = op['x-scope'] !== 'write';
  return {
    title: op.summary ?? op.operationId,
    readOnlyHint: readOnly,
    destructiveHint: !readOnly && method === 'delete',
    idempotentHint: readOnly || method !== 'post',
    openWorldHint: false,
    ...op['x-mcp-annotations'],
  };
}
type Contract = { paths: Record<string, Record<string, any>>; components?: Record<string, Record<string, unknown>> };

const METHODS: HttpMethod[] = ['get', 'post', 'put', 'patch', 'delete'];
// Keys that document a schema but change nothing in validation; dropped from tool schemas to keep them small.
const DOC_ONLY = new Set(['example', 'examples', 'externalDocs', 'xml', 'discriminator']);

function resolveRef(contract: Contract, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`only local $ref is supported, got ${ref}`);
  return ref
    .slice(2)
    .split('/')
    .reduce<any>((node, key) => {
      const next = node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')];
      if (next === undefined) throw new Error(`unresolved $ref ${ref}`);
      return next;
    }, contract);
}

/** Inlines every local $ref (the contract has no recursive schemas) and drops documentation-only keys. */
export function dereference(contract: Contract, node: unknown, seen: string[] = []): any {
  if (Array.isArray(node)) return node.map((item) => dereference(contract, item, seen));
  if (!node || typeof node !== 'object') return node;
  const obj = node as Record<string, unknown>;
  if (typeof obj.$ref === 'string') {
    if (seen.includes(obj.$ref)) throw new Error(`recursive $ref ${obj.$ref}`);
    const { $ref, ...siblings } = obj;
    return {
      ...dereference(contract, resolveRef(contract, $ref as string), [...seen, $ref as string]),
      ...dereference(contract, siblings, seen),
    };
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(obj)) {
    if (DOC_ONLY.has(key) || key.startsWith('x-')) continue;
    out[key] = dereference(contract, value, seen);
  }
  return out;
}

export function buildOperationTable(contract: Contract): OperationEntry[] {
  const table: OperationEntry[] = [];
  for (const [route, item] of Object.entries(contract.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) => dereference(contract, p));
      const properties: Record<string, unknown> = {};
      const required: string[] = [];
      const fields = {
        path: [] as string[],
        query: [] as string[],
        body: [] as string[],
        header: {} as Record<string, string>,
      };
      for (const p of params) {
        if (p.in === 'header') {
          // A header is an argument named in camel case: Idempotency-Key is idempotencyKey.
          const arg = p.name.toLowerCase().replace(/-(\w)/g, (_m: string, c: string) => c.toUpperCase());
          properties[arg] = { ...p.schema, ...(p.description ? { description: p.description } : {}) };
          fields.header[arg] = p.name;
          continue;
        }
        if (p.in !== 'path' && p.in !== 'query') continue;
        properties[p.name] = { ...p.schema, ...(p.description ? { description: p.description } : {}) };
        if (p.required) required.push(p.name);
        fields[p.in as 'path' | 'query'].push(p.name);
      }
      const body = op.requestBody ? dereference(contract, op.requestBody) : undefined;
      const bodySchema = body?.content?.['application/json']?.schema;
      if (bodySchema) {
        if (bodySchema.type !== 'object') throw new Error(`${op.operationId}: request body must be an object schema`);
        for (const [name, schema] of Object.entries(bodySchema.properties ?? {})) {
          if (name in properties) throw new Error(`${op.operationId}: body field ${name} clashes with a parameter`);
          properties[name] = schema;
          fields.body.push(name);
        }
        if (body.required) required.push(...(bodySchema.required ?? []));
      }
      table.push({
        operationId: op.operationId,
        method,
        path: route,
        scope: op['x-scope'],
        tool: op['x-mcp-tool'] ?? null,
        annotations: op['x-mcp-tool'] ? toolAnnotations(op, method) : null,
        summary: op.summary ?? '',
        description: op.description ?? '',
        fields,
        inputSchema: {
          type: 'object',
          properties,
          ...(required.length ? { required } : {}),
          additionalProperties: false,
        },
      });
    }
  }
  // A tool's description and input schema are what an agent reads: in tool names and arguments.
  const words = agentWordsFor(table);
  return table.map((op) =>
    op.tool
      ? { ...op, description: words(op.description), inputSchema: schemaInAgentWords(op.inputSchema, words) }
      : op,
  );
}
