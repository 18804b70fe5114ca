// The MCP clients the signed-in person let into this workspace (GET /auth/mcp-grants).
import { queryOptions } from '@tanstack/react-query';
import { auth } from '../api.ts';
import type { McpGrant } from '../settings/settingsApi.ts';

export const mcpGrantKeys = { all: ['mcp-grants'] as const };

export const mcpGrantListQuery = () =>
  queryOptions({ queryKey: mcpGrantKeys.all, queryFn: () => auth<{ grants: McpGrant[] }>('GET', '/mcp-grants') });
