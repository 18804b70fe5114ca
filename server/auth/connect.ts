// Connecting accounts, shared by the consent-page navigations (server/connectRoutes.ts) and the sign-in form of a
// network whose accounts connect by signing in (Bluesky's app passwords), `connectBySignIn`.
import { recordAudit } from '../../db/audit.ts';
import { workspaceData } from '../../db/workspaceData.ts';
import type { Credential } from '../../domain/credential.ts';
import { ApiError, invalidRequest, notFound } from '../../domain/errors.ts';
import { assertCanConnectAccount } from '../../domain/quotas.ts';
import { signInFlow } from '../../networks/connect.ts';
import type { ConnectTarget } from '../../networks/oauth.ts';
import type { Platform } from '../../networks/rules.ts';
import type { Services } from '../../runtime/services.ts';
import type { AuthHandler } from '../../handlers/authTypes.ts';

type Data = ReturnType<typeof workspaceData>;

/** The account a reconnection names: one of this workspace, on this network. */
export async function accountToReconnect(data: Data, flow: { platform: Platform }, id: unknown) {
  if (typeof id !== 'string' || !id)
    throw invalidRequest('accountId must be one account id.', 'Take the id from the account list.');
  const account = await data.accounts.get(id);
  if (!account) throw notFound('account', id);
  if (account.platform !== flow.platform) {
    throw invalidRequest(
      `Account ${id} is a ${account.platform} account, not a ${flow.platform} one.`,
      `Reconnect it at /auth/connect/${account.platform}.`,
    );
  }
  return { ...account, externalId: (await data.accounts.connection(id))!.externalId };
}

/**
 * Stores the accounts a grant or sign-in covers (sealed credentials), or, reconnecting, the one being reconnected
 * (refusing a grant for another account); audited. Posts that failed on the old token are queued again.
 */
export async function connectTargets(
  services: Services,
  cred: Credential,
  data: Data,
  flow: { platform: Platform; label: string },
  found: ConnectTarget[],
  reconnecting: { externalId: string; displayName: string } | undefined,
): Promise<{ connected: number; requeued: number }> {
  let targets = found;
  if (reconnecting) {
    targets = targets.filter((t) => t.externalId === reconnecting.externalId);
    if (!targets.length) {
      throw new ApiError(
        409,
        'account_mismatch',
        `Access was granted at ${flow.label}, but not to ${reconnecting.displayName}, the account being ` +
          `reconnected; nothing was changed.`,
        `Connect again and, at ${flow.label}, sign in as ${reconnecting.displayName} (and grant it).`,
      );
    }
  }
  const { requeued } = await data.accounts.connect(
    flow.platform,
    targets.map((t) => ({
      externalId: t.externalId,
      displayName: t.displayName,
      tokenSealed: services.keyring.encrypt(JSON.stringify(t.credentials)),
      tokenExpiresAt: t.credentials.expiresAt ?? null,
    })),
  );
  await recordAudit(services.db, cred.workspace.id, cred.user.id, 'account.connected', {
    platform: flow.platform,
    accounts: targets.map((t) => t.displayName),
    reconnected: Boolean(reconnecting),
  });
  return { connected: targets.length, requeued: requeued ?? 0 };
}

export const connectBySignIn: AuthHandler<'connectBySignIn'> = async ({ cred, params, body, services }) => {
  const flow = signInFlow(params.platform, services.config, services.clock);
  const text = (name: 'identifier' | 'password' | 'server', max: number) => {
    const value = body[name];
    if (value === undefined) return undefined;
    if (!value.trim() || value.length > max)
      throw invalidRequest(`${name} must be 1 to ${max} characters.`, `Give the ${name} of the ${flow.label} account.`);
    return value;
  };
  const identifier = text('identifier', 320)!;
  const password = text('password', 200)!;
  const server = text('server', 200)?.trim();
  const data = workspaceData(services.db, cred.workspace, services.clock, services.jobs);
  const reconnecting = body.accountId !== undefined ? await accountToReconnect(data, flow, body.accountId) : undefined;
  if (!reconnecting) assertCanConnectAccount(cred.workspace.plan, await data.accounts.count());
  const targets = await flow.signIn({ server, identifier, password });
  return { status: 200, body: await connectTargets(services, cred, data, flow, targets, reconnecting) };
};
