// API keys, made and revoked by people (session-only, see sessionGuard.ts). The spec's Settings, API keys,
// New key: no endpoint or tool creates keys.
//   GET    /auth/keys          the working keys: name, prefix, scopes, creator, created and last used
//   POST   /auth/keys          {name, scopes}: the full key, shown this once
//   DELETE /auth/keys/:keyId   revokes it; every instance refuses it within a second
import express from 'express';
import { createKeyAudited, revokeKeyAudited } from '../db/apiKeys.ts';
import { listApiKeys } from '../db/identity.ts';
import type { Scope } from '../domain/credential.ts';
import { invalidRequest, notFound } from '../domain/errors.ts';
import { PLANS } from '../domain/plans.ts';
import type { Services } from '../runtime/services.ts';
import { bodyOf, sessionRoute } from './sessionGuard.ts';

function checkedScopes(value: unknown): Scope[] {
  if (!Array.isArray(value) || !value.length || value.some((s) => s !== 'read' && s !== 'write')) {
    throw invalidRequest(
      'scopes must be ["read"] or ["read", "write"].',
      'write lets the key upload, create, retry, cancel and delete.',
    );
  }
  return value.includes('write') ? ['read', 'write'] : ['read'];
}

export function keyRoutes(services: Services): express.Router {
  const { db } = services;
  const router = express.Router();
  const manage = { role: 'administrator', action: 'Managing API keys' } as const;

  router.get(
    '/keys',
    sessionRoute(services, manage, async (cred) => {
      const plan = PLANS[cred.workspace.plan];
      return {
        status: 200,
        body: { keys: await listApiKeys(db, cred.workspace.id), access: { rest: plan.api, mcp: plan.mcp } },
      };
    }),
  );

  router.post(
    '/keys',
    sessionRoute(services, manage, async (cred, req) => {
      const body = bodyOf(req);
      const name = typeof body.name === 'string' ? body.name.trim() : '';
      if (!name || name.length > 100)
        throw invalidRequest(
          'name must be 1 to 100 characters.',
          'Name the key after where it will live ("CI", "my agent").',
        );
      const scopes = checkedScopes(body.scopes);
      const { id, key } = await createKeyAudited(db, {
        workspaceId: cred.workspace.id,
        userId: cred.user.id,
        name,
        scopes,
      });
      const summary = (await listApiKeys(db, cred.workspace.id)).find((k) => k.id === id)!;
      return { status: 201, body: { ...summary, key } };
    }),
  );

  router.delete(
    '/keys/:keyId',
    sessionRoute(services, manage, async (cred, req) => {
      const keyId = String(req.params.keyId);
      if (!(await revokeKeyAudited(db, cred.workspace.id, cred.user.id, keyId))) throw notFound('API key', keyId);
      return { status: 204 };
    }),
  );

  return router;
}
