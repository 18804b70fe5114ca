// Roles: every dashboard-only route (auth.yaml's operations, and routes of their own) and every /v1 operation reached
// with a session, against owner, administrator and member. A route the app serves under /auth without a row here
// fails the first test, so a new route is a decision about who may use it. Also: CSRF on every change, and API keys
// refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { operations } from '../generated/operations.ts';
import type { Role } from '../domain/credential.ts';
import { hasRole, OPERATION_ROLES, ROLES } from '../domain/roles.ts';
import { call, DATABASES, seedWorkspace, startHerald, type Seeded, type TestEnv } from './support/harness.ts';
import { addPerson, signedIn } from './support/people.ts';
import { servedRoutes } from './support/servedRoutes.ts';

/** Who may use each session route: the least role, or `open` for the ones reached before signing in. */
const SESSION_ROUTES: Record<string, Role | 'open'> = {
  'POST /auth/sign-in': 'open',
  'GET /auth/sign-up': 'open',
  'POST /auth/sign-up': 'open',
  'GET /auth/accounts/:accountId/disconnect': 'administrator',
  'POST /auth/accounts/:accountId/disconnect': 'administrator',
  'GET /auth/session': 'member',
  'GET /auth/openapi.json': 'member',
  'GET /auth/events': 'member',
  'POST /auth/sign-out': 'member',
  'GET /auth/members': 'member',
  'POST /auth/invites': 'administrator',
  'DELETE /auth/invites/:inviteId': 'administrator',
  'PATCH /auth/members/:userId': 'administrator',
  'DELETE /auth/members/:userId': 'administrator',
  'GET /auth/invite': 'open',
  'POST /auth/invites/accept': 'open',
  'GET /auth/workspaces': 'member',
  'POST /auth/workspaces/switch': 'member',
  'GET /auth/keys': 'administrator',
  'POST /auth/keys': 'administrator',
  'DELETE /auth/keys/:keyId': 'administrator',
  'GET /auth/billing': 'administrator',
  'POST /auth/billing/plan': 'owner',
  'PATCH /auth/workspace': 'administrator',
  'GET /auth/audit': 'administrator',
  'GET /auth/approvals': 'administrator',
  'POST /auth/approvals/:postId/approve': 'administrator',
  'POST /auth/approvals/:postId/reject': 'administrator',
  'POST /auth/password-reset': 'open',
  'GET /auth/password-reset': 'open',
  'POST /auth/password-reset/confirm': 'open',
  'POST /auth/password': 'member',
  'GET /auth/mcp-grants': 'member',
  'DELETE /auth/mcp-grants/:grantId': 'member',
  'GET /auth/connect/:platform': 'administrator',
  'GET /auth/connect/:platform/callback': 'administrator',
  'POST /auth/connect/:platform': 'administrator',
};

/** Routes outside the contract chain that check the session themselves and ignore a bearer beside the cookie. */
const OWN_SESSION_CHECK = new Set(['GET /auth/connect/:platform', 'GET /auth/connect/:platform/callback']);

const concrete = (path: string) =>
  path
    .replace(':platform', 'instagram')
    .replace(/:\w+/g, 'nope')
    .replace(/\{\w+\}/g, 'nope');

/** The code of a refusal, from the body or, for the connect redirects, from the dashboard address. */
function codeOf(res: request.Response): string | undefined {
  if (res.status === 302) return new URL(res.headers.location!, 'http://x').searchParams.get('error') ?? undefined;
  return res.body?.code;
}

describe.each(DATABASES)('roles on %s', (kind) => {
  let env: TestEnv;
  let ws: Seeded;
  const people = {} as Record<Role, () => ReturnType<typeof signedIn>>;

  beforeAll(async () => {
    env = await startHerald(kind);
    ws = await seedWorkspace(env, { plan: 'agency' });
    const admin = await addPerson(env, ws.workspaceId, 'administrator');
    const member = await addPerson(env, ws.workspaceId, 'member');
    // A fresh session per request, so a sign-out or a password change never spoils the next call.
    people.owner = () => signedIn(env, ws.userId, ws.workspaceId);
    people.administrator = () => signedIn(env, admin.userId, ws.workspaceId);
    people.member = () => signedIn(env, member.userId, ws.workspaceId);
  });
  afterAll(() => env.close());

  async function send(row: string, headers: Record<string, string>) {
    const [method, path] = row.split(' ') as [string, string];
    const req = request(env.app)[method.toLowerCase() as 'get'](concrete(path)).set(headers);
    return method === 'GET' ? req : req.send({});
  }

  it('has a row for every session route the app serves, and no row for a route it does not', () => {
    const served = servedRoutes(env.app).filter((r) => r.includes(' /auth/'));
    expect(served.filter((r) => !(r in SESSION_ROUTES))).toEqual([]);
    expect(Object.keys(SESSION_ROUTES).filter((r) => !served.includes(r))).toEqual([]);
  });

  it('refuses each session route to the roles below its row, and lets the others through', async () => {
    for (const [row, least] of Object.entries(SESSION_ROUTES)) {
      // An open stream never ends: test/eventStream.test.ts opens it with a session of the least role.
      if (least === 'open' || row === 'GET /auth/events') continue;
      for (const role of ROLES) {
        const person = await people[role]();
        const res = await send(row, { Cookie: person.cookie, 'X-CSRF-Token': person.csrf });
        const code = codeOf(res);
        if (hasRole(role, least)) expect([row, role, code]).not.toEqual([row, role, 'insufficient_role']);
        else
          expect([row, role, res.status === 302 ? 302 : res.status, code]).toEqual([
            row,
            role,
            res.status === 302 ? 302 : 403,
            'insufficient_role',
          ]);
        expect([row, role, code]).not.toEqual([row, role, 'unauthenticated']);
      }
    }
  });

  it('refuses every change without the CSRF token', async () => {
    for (const row of Object.keys(SESSION_ROUTES).filter(
      (r) => SESSION_ROUTES[r] !== 'open' && !r.startsWith('GET '),
    )) {
      const res = await send(row, { Cookie: (await people.owner()).cookie });
      expect([row, res.status, res.body.code]).toEqual([row, 403, 'csrf_failed']);
    }
  });

  it('refuses API keys on every session route, alone or beside a session cookie', async () => {
    for (const row of Object.keys(SESSION_ROUTES).filter((r) => SESSION_ROUTES[r] !== 'open')) {
      const alone = await send(row, { Authorization: `Bearer ${ws.writeKey}` });
      expect([row, alone.status === 302 ? 401 : alone.status, codeOf(alone)]).toEqual([row, 401, 'unauthenticated']);
      if (OWN_SESSION_CHECK.has(row)) continue;
      const owner = await people.owner();
      const beside = await send(row, {
        Authorization: `Bearer ${ws.writeKey}`,
        Cookie: owner.cookie,
        'X-CSRF-Token': owner.csrf,
      });
      expect([row, beside.status, beside.body.code]).toEqual([row, 401, 'unauthenticated']);
    }
  });

  it('has a least role for every /v1 operation, and a session below it is refused', async () => {
    for (const op of operations) {
      const least = OPERATION_ROLES[op.operationId as keyof typeof OPERATION_ROLES];
      expect([op.operationId, least && ROLES.includes(least)]).toEqual([op.operationId, true]);
      for (const role of ROLES) {
        const person = await people[role]();
        const res = await call(env, op.method, `/v1${concrete(op.path)}`, {
          headers: { Cookie: person.cookie, 'X-CSRF-Token': person.csrf },
          body: op.method === 'get' ? undefined : {},
        });
        // A refusal names the role needed and the caller's as facts, beside its sentence.
        if (hasRole(role, least))
          expect([op.operationId, role, res.body?.code]).not.toEqual([op.operationId, role, 'insufficient_role']);
        else
          expect([op.operationId, role, res.status, res.body.code, res.body.limit, res.body.actual]).toEqual([
            op.operationId,
            role,
            403,
            'insufficient_role',
            least,
            role,
          ]);
      }
    }
  });
});
