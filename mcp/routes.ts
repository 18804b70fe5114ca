// Everything agents reach outside /v1, mounted by server/app.ts in one line: the remote MCP endpoint, its OAuth
// authorization server and metadata, and /docs. (A person lists and revokes MCP grants through /auth/mcp-grants.)
import express from 'express';
import type { Credential } from '../domain/credential.ts';
import type { Services } from '../runtime/services.ts';
import type { ApiRequest, ApiResponse } from '../server/api.ts';
import type { RateLimiter } from '../server/rateLimit.ts';
import type { PasswordSignIn } from '../signin/passwordSignIn.ts';
import { docsRoutes } from './docsRoutes.ts';
import { mcpEndpoint } from './http.ts';
import { oauthRoutes } from './oauth/authServer.ts';
import { ACCESS_TOKEN_PREFIX, credentialForAccessToken } from './oauth/store.ts';

export interface McpRoutesDeps {
  services: Services;
  handle(req: ApiRequest): Promise<ApiResponse>;
  /** The REST chain's own API key lookup (cached like REST's). */
  credentialForKey(key: string): Promise<Credential | undefined>;
  /** The dashboard's password sign-in, with its limits: the consent page signs people in through it. */
  signIn: PasswordSignIn;
  /** The per-address limit of every route; each message of an MCP batch counts against it. */
  limiter: RateLimiter;
}

export function mcpRoutes(deps: McpRoutesDeps) {
  const { services, handle, credentialForKey, signIn, limiter } = deps;
  const router = express.Router();
  const resource = `${services.config.publicUrl}/mcp`;
  // An API key (the REST lookup) or an access token issued for this endpoint.
  const resolveBearer = (token: string) =>
    token.startsWith(ACCESS_TOKEN_PREFIX)
      ? credentialForAccessToken(services.db, token, resource)
      : credentialForKey(token);
  router.use(mcpEndpoint({ services, handle, resolveBearer, limiter }));
  router.use(oauthRoutes(services, signIn));
  router.use(docsRoutes(services.config.publicUrl));
  return router;
}
