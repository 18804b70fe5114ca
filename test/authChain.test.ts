// What the session routes answer for any operation of auth.yaml before its handler runs: the per-address rate
// limit of every /auth request (429), a query string the operation does not take (400), and a role too low for
// `x-role` (403). Every answer goes through call(), which fails when auth.yaml does not declare its status and body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWN_ROUTES } from '../handlers/authTypes.ts';
import { loadAuthContract } from '../runtime/contract.ts';
import { call, DATABASES, seedWorkspace, startHerald, type Seeded, type TestEnv } from './support/harness.ts';
import { addPerson, asPerson, signedIn, type Person } from './support/people.ts';

type Method = 'get' | 'post' | 'patch' | 'delete';
interface Operation {
  operationId: string;
  method: Method;
  /** The path under /auth, each {parameter} filled with an id nothing has. */
  url: string;
}

const operations: Operation[] = Object.entries(loadAuthContract().paths).flatMap(([path, item]) =>
  Object.entries(item as Record<string, { operationId?: string }>)
    .filter(([method]) => ['get', 'post', 'patch', 'delete'].includes(method))
    .map(([method, op]) => ({
      operationId: op.operationId!,
      method: method as Method,
      url: `/auth${path.replace(/\{\w+\}/g, 'nothing_here')}`,
    })),
);
const ownRoutes = new Set<string>(OWN_ROUTES);

describe.each(DATABASES)('the session routes chain on %s', (kind) => {
  let env: TestEnv;
  let ws: Seeded;
  let owner: Person;

  beforeAll(async () => {
    env = await startHerald(kind);
    ws = await seedWorkspace(env, { plan: 'agency' });
    owner = await signedIn(env, ws.userId, ws.workspaceId);
  });
  afterAll(() => env.close());

  it.each(operations.filter((op) => !ownRoutes.has(op.operationId)))(
    '$operationId refuses a query parameter it does not take with a declared 400',
    async ({ method, url }) => {
      const res = await asPerson(env, owner, method, `${url}?unknownParameter=1`);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_request');
    },
  );

  it("answers a role below x-role with the code auth.yaml's 403 names", async () => {
    const member = await addPerson(env, ws.workspaceId, 'member');
    const res = await asPerson(env, member, 'get', '/auth/keys');
    expect(res.status).toBe(403);
    const { components } = loadAuthContract() as unknown as {
      components: { responses: Record<string, { description: string }> };
    };
    const forbidden = components.responses.Forbidden!;
    expect(forbidden.description).toContain(`\`${res.body.code}\``);
  });
});

describe.each(DATABASES)('the per-address rate limit of /auth on %s', (kind) => {
  let env: TestEnv;
  let owner: Person;

  beforeAll(async () => {
    env = await startHerald(kind, { rateLimit: { max: 1, windowMs: 600_000 } });
    const ws = await seedWorkspace(env);
    owner = await signedIn(env, ws.userId, ws.workspaceId);
    // The address's one request of the window.
    await call(env, 'get', '/auth/sign-up');
  });
  afterAll(() => env.close());

  it.each(operations)('$operationId answers a declared 429 past it', async ({ method, url }) => {
    const res = await asPerson(env, owner, method, url);
    expect(res.status).toBe(429);
    expect(res.body.code).toBe('rate_limited');
  });
});
