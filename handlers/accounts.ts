// GET /accounts: the connected accounts, the only source of account ids, each with its health
// (networks/accountHealth.ts). Connecting happens in the dashboard; tokens never leave the server. An account's
// posting options, read from its network.
import { appUsage } from '../db/appUsage.ts';
import { ApiError, notFound } from '../domain/errors.ts';
import { connectorFor } from '../networks/connectors.ts';
import { withHealth } from '../networks/accountHealth.ts';
import { networkOf } from '../networks/index.ts';
import { askNetwork } from './networkAccount.ts';
import type { Handler } from './types.ts';

export const listAccounts: Handler<'listAccounts'> = async ({ data, services }) => ({
  status: 200,
  body: {
    accounts: await withHealth(
      await data.accounts.listWithTokenTimes(),
      services.config,
      appUsage(services.db, services.clock),
    ),
  },
});

/** GET /accounts/{id}/posting-options: what the account's network lets it post now (TikTok's creator_info). */
export const getAccountPostingOptions: Handler<'getAccountPostingOptions'> = async ({ data, params, services }) => {
  const account = await data.accounts.get(params.accountId);
  if (!account) throw notFound('account', params.accountId);
  const label = networkOf(account.platform).label;
  if (!connectorFor(account.platform, services.config, services.clock)?.postingOptions)
    throw new ApiError(
      409,
      'invalid_state',
      `${label} has no posting options of its own per account.`,
      `Use the ${label} settings the contract describes under perPlatform.${account.platform}.`,
    );
  const options = await askNetwork(services, data, account.platform, account, 'posting options', (connector, acc) =>
    connector.postingOptions!(acc, services.config, appUsage(services.db, services.clock)),
  );
  return { status: 200, body: { accountId: account.id, platform: account.platform, ...options } };
};
