/** Runs the stdio bridge until the client closes stdin; resolves to the process exit code. */
export function runStdioBridge(env: Record<string, string | undefined>): Promise<number>;
/** `{base_url}` (…/v1) to the instance's remote MCP endpoint (…/mcp). */
export function mcpUrlFor(apiUrl: string): string;
