// The mail that an account needs reconnecting, to the workspace's owners and administrators (who may reconnect it),
// sent when the token upkeep's renewal is refused: days before a post to the account would fail.
import type { StoredToken } from '../db/accountTokens.ts';
import { listMembers } from '../db/members.ts';
import { networkOf } from '../networks/index.ts';
import { sendEach } from '../runtime/mailer.ts';
import type { Services } from '../runtime/services.ts';

export async function mailReconnect(services: Services, token: StoredToken, refusal: string): Promise<void> {
  const { db, config } = services;
  const workspace = await db('workspaces').where({ id: token.workspaceId }).first('name');
  const admins = (await listMembers(db, token.workspaceId)).filter((m) => m.role !== 'member' && m.email);
  const label = networkOf(token.platform).label;
  const subject = `Reconnect the ${label} account ${token.displayName} in ${workspace.name}`;
  const text =
    `${label} refused to renew Herald's access to ${token.displayName} in ${workspace.name} ("${refusal}").\n\n` +
    `Posts to it wait until it is reconnected. Reconnect it: ${config.publicUrl}/app/accounts`;
  await sendEach(
    services.mailer,
    services.logger,
    admins.map((m) => ({ to: m.email!, subject, text })),
    'a reconnect mail',
  );
}
