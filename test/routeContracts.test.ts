// No route outside the contracts: every route the app serves is an operation of openapi.yaml (under /v1) or of the
// session-only auth.yaml (under /auth), or one of the exceptions named below with the reason it has no operation.
import { describe, expect, it } from 'vitest';
import { loadAuthContract, loadContract } from '../runtime/contract.ts';
import request from 'supertest';
import { seedWorkspace, startHerald } from './support/harness.ts';
import { signedIn } from './support/people.ts';
import { expressRoutes } from './support/servedRoutes.ts';

/** Routes that are no contract's operation, each with why. */
const EXCEPTIONS: [RegExp, string][] = [
  [/^GET \/(healthz|readyz)$/, 'operator probes for load balancers and orchestrators'],
  [/^GET \/$/, 'the front door: a redirect to the dashboard'],
  [/^GET \/app(\/.*)?$/, 'the dashboard: static files'],
  [/^GET \/docs(\/.*)?$/, 'the guides and the API reference: static pages'],
  [/^PUT \/uploads\/:token$/, 'a signed upload address that createUpload answers'],
  [/^GET \/media-files\/:token$/, 'a signed file address that networks fetch media from'],
  [/^_ALL \/mcp$/, 'the MCP endpoint (JSON-RPC), whose tools are operations of openapi.yaml'],
  [/^(GET|POST|_ALL) \/(oauth\/|\.well-known\/oauth-)/, 'the MCP OAuth server, as RFC 6749, 7591, 8414 and 9728 set'],
  [/^(GET|POST|PUT) \/sandbox\//, 'the simulated networks (NETWORKS=sandbox), which answer the worker, not clients'],
];

/** A contract's operations as `METHOD /base/path`, `{name}` written `:name` as express writes it. */
function operationsOf(paths: Record<string, unknown>, base: string): Set<string> {
  return new Set(
    Object.entries(paths).flatMap(([path, item]) =>
      Object.keys(item as object)
        .filter((key) => ['get', 'put', 'post', 'patch', 'delete'].includes(key))
        .map((method) => `${method.toUpperCase()} ${base}${path.replace(/\{(\w+)\}/g, ':$1')}`),
    ),
  );
}

describe('routes', () => {
  it('are each an operation of openapi.yaml or auth.yaml, or a named exception', async () => {
    const env = await startHerald('sqlite');
    try {
      const inContracts = new Set([
        ...operationsOf(loadContract().paths, '/v1'),
        ...operationsOf(loadAuthContract().paths, '/auth'),
      ]);
      const routes = expressRoutes(env.app);
      // The /auth operations with routes of their own are among them, so the listing reads the router.
      expect(routes).toContain('GET /auth/events');
      const outside = routes.filter((r) => !inContracts.has(r) && !EXCEPTIONS.some(([pattern]) => pattern.test(r)));
      expect(outside).toEqual([]);
      // auth.yaml is served to the dashboard's developers, signed in, and to nobody else.
      expect((await request(env.app).get('/auth/openapi.json')).body.code).toBe('unauthenticated');
      const ws = await seedWorkspace(env);
      const person = await signedIn(env, ws.userId, ws.workspaceId);
      const served = await request(env.app).get('/auth/openapi.json').set('Cookie', person.cookie);
      expect(served.status).toBe(200);
      expect(served.body.paths['/approvals/{postId}/approve'].post.operationId).toBe('approvePost');
      expect(served.body.servers[0].url).toBe(`${env.services.config.publicUrl}/auth`);
      expect(Object.keys((await request(env.app).get('/v1/openapi.json')).body.paths)).not.toContain('/approvals');
    } finally {
      await env.close();
    }
  });

  it('keep auth.yaml out of the public contract: no /auth path and no operationId of one in the other', () => {
    const publicIds = new Set(
      Object.values(loadContract().paths).flatMap((item) =>
        Object.values(item as Record<string, { operationId?: string }>).map((op) => op.operationId),
      ),
    );
    const authIds = Object.values(loadAuthContract().paths).flatMap((item) =>
      Object.values(item as Record<string, { operationId?: string }>).map((op) => op.operationId),
    );
    expect(authIds.filter((id) => id && publicIds.has(id))).toEqual([]);
    expect(Object.keys(loadContract().paths).filter((p) => p.startsWith('/auth'))).toEqual([]);
  });
});
