// The MCP clients the signed-in person let into this workspace (GET /auth/mcp-grants).
import { queryOptions } from '@tanstack/react-query';
import { authApi, call } from '../api.ts';

export const mcpGrantKeys = { all: ['mcp-grants'] as const };

export const mcpGrantListQuery = () =>
  queryOptions({ queryKey: mcpGrantKeys.all, queryFn: () => call(authApi.GET('/mcp-grants')) });
