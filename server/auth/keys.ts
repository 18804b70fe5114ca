// API keys, made and revoked by people (the spec's Settings, API keys, New key): no endpoint or tool creates keys.
import { createKeyAudited, revokeKeyAudited } from '../../db/apiKeys.ts';
import { listApiKeys } from '../../db/identity.ts';
import { notFound } from '../../domain/errors.ts';
import { PLANS } from '../../domain/plans.ts';
import type { AuthHandler } from '../../handlers/authTypes.ts';

export const listKeys: AuthHandler<'listKeys'> = async ({ cred, services }) => {
  const plan = PLANS[cred.workspace.plan];
  return {
    status: 200,
    body: { keys: await listApiKeys(services.db, cred.workspace.id), access: { rest: plan.api, mcp: plan.mcp } },
  };
};

/** The full key is in this answer only; `write` includes `read`. */
export const createKey: AuthHandler<'createKey'> = async ({ cred, body, services }) => {
  // The contract took 1 to 100 characters, not all spaces.
  const name = body.name.trim();
  const { id, key } = await createKeyAudited(services.db, {
    workspaceId: cred.workspace.id,
    userId: cred.user.id,
    name,
    scopes: body.scopes.includes('write') ? ['read', 'write'] : ['read'],
  });
  const summary = (await listApiKeys(services.db, cred.workspace.id)).find((k) => k.id === id)!;
  return { status: 201, body: { ...summary, key } };
};

/** Every instance refuses the key within a second (server/api.ts's KEY_CACHE_MS). */
export const revokeKey: AuthHandler<'revokeKey'> = async ({ cred, params, services }) => {
  if (!(await revokeKeyAudited(services.db, cred.workspace.id, cred.user.id, params.keyId)))
    throw notFound('API key', params.keyId);
  return { status: 204 };
};
