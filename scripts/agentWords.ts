// REST words in text that an agent reads through MCP, said in tool names and arguments instead: an agent
// calls `service_get_media`, not `GET /media/{mediaId}` or `getMedia`, and passes `confirm: true`, not
// `confirm=true` in a query. The contract and REST answers keep their own words. The generator applies this
// to each tool's description and argument descriptions; the MCP server to the {code, message, hint} of answers.

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What the rewrite reads of an operation (scripts/operationTable.ts's entry has these and more). */
interface ToolRoute {
  operationId: string;
  method: string;
  path: string;
  tool: string | null;
}

/** The rewrite for one operation table: each tool's operation (by route or operationId) becomes its name. */
export function agentWordsFor(table: readonly ToolRoute[]): (text: string) => string {
  const rules: [RegExp, string][] = [];
  // The longest route first, so that `POST /posts/plan` is never read as `POST /posts`.
  const tools = table.filter((op) => op.tool).sort((a, b) => b.path.length - a.path.length);
  for (const op of tools) {
    const route = `${op.method.toUpperCase()} (?:/v1)?${literal(op.path)}(?![\\w/{}?])`;
    rules.push([new RegExp(`\\b${route}`, 'g'), op.tool!], [new RegExp(`\\b${op.operationId}\\b`, 'g'), op.tool!]);
  }
  // A query or path parameter is an argument like any other: `confirm=true` in the query is `confirm: true`.
  rules.push([/`(\w+)=([\w.-]+)`(?: in the query)?/g, '`$1: $2`'], [/ \((?:query|path) parameter\)/g, '']);
  return (text) => rules.reduce((out, [pattern, words]) => out.replace(pattern, words), text);
}

/** A JSON Schema with every `description` in agent words (the schema's keywords stay as they are). */
export function schemaInAgentWords<T>(schema: T, words: (text: string) => string): T {
  if (Array.isArray(schema)) return schema.map((item) => schemaInAgentWords(item, words)) as T;
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === 'description' && typeof value === 'string' ? words(value) : schemaInAgentWords(value, words),
    ]),
  ) as T;
}
