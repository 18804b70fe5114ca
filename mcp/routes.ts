// Everything agents reach outside /v1, mounted by server/app.ts in one line: the remote MCP endpoint.
import express from 'express';
import type { Credential } from '../domain/credential.ts';
import type { Services } from '../runtime/services.ts';
import type { ApiRequest, ApiResponse } from '../server/api.ts';
import { mcpEndpoint } from './http.ts';

export interface McpRoutesDeps {
  services: Services;
  handle(req: ApiRequest): Promise<ApiResponse>;
  /** The REST chain's own API key lookup (cached like REST's). */
  credentialForKey(key: string): Promise<Credential | undefined>;
}

export function mcpRoutes(deps: McpRoutesDeps) {
  const { services, handle, credentialForKey } = deps;
  const router = express.Router();
  router.use(mcpEndpoint({ services, handle, resolveBearer: credentialForKey }));
  return router;
}
