// What an operation answers, whatever the interface: REST sends it as HTTP, MCP makes it a tool result, and an
// idempotency key stores it to replay.
export interface ApiResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}
