// A workspace's account as its connector takes it (decrypted, refreshed when due), for handlers that ask
// a network something: analytics counters, and the plan findings that depend on the account as the
// network reports it now (NetworkError propagates; callers decide what a refusal means to them).
import { appUsage } from '../db/appUsage.ts';
import type { WorkspaceData } from '../db/workspaceData.ts';
import { ApiError } from '../domain/errors.ts';
import { hintFor } from '../networks/failureGuidance.ts';
import { networkOf } from '../networks/index.ts';
import type { MediaFacts } from '../networks/rules.ts';
import type { PlannedRow, TargetAccount } from '../domain/planPosts.ts';
import { usableAccount } from '../networks/accountCredentials.ts';
import { NetworkError, type Connector, type ConnectorAccount } from '../networks/connector.ts';
import { connectorFor } from '../networks/connectors.ts';
import type { Platform } from '../networks/rules.ts';
import type { Services } from '../runtime/services.ts';

/** The account's connector and credentials; undefined when the network has no connector or the account no token. */
export async function connectedAccount(
  services: Services,
  data: WorkspaceData,
  platform: Platform,
  account: { id: string; displayName: string },
): Promise<{ connector: Connector; account: ConnectorAccount } | undefined> {
  const connector = connectorFor(platform, services.config, services.clock);
  const connection = await data.accounts.connection(account.id);
  if (!connector || !connection?.tokenSealed) return undefined;
  const stored = { ...account, externalId: connection.externalId, tokenSealed: connection.tokenSealed };
  const usable = await usableAccount(services, connector, stored);
  return { connector, account: usable };
}

/**
 * One read through the account's connector for a request (analytics counters, posting options); the
 * network's refusals answer 502 in its words, and an account without a usable connection says so.
 */
export async function askNetwork<T>(
  services: Services,
  data: WorkspaceData,
  platform: Platform,
  account: { id: string; displayName: string },
  what: string,
  read: (connector: Connector, account: ConnectorAccount) => Promise<T>,
): Promise<T> {
  const label = networkOf(platform).label;
  try {
    const connected = await connectedAccount(services, data, platform, account);
    if (!connected) {
      throw new ApiError(
        502,
        `${platform}_unavailable`,
        `Reading ${label} ${what} is not available for this account.`,
        `Check the ${label} account in the dashboard.`,
      );
    }
    return await read(connected.connector, connected.account);
  } catch (err) {
    if (!(err instanceof NetworkError)) throw err;
    const hint = err.hint ?? hintFor(err.kind, label);
    throw new ApiError(502, err.code, `${label} answered: "${err.message}"`, hint, { networkMessage: err.message });
  }
}

/**
 * Each row with the findings its network makes from the account as it stands now (Connector.accountIssues).
 * A network that cannot be asked adds none: the worker asks it again before publishing.
 */
export async function withAccountIssues(
  services: Services,
  data: WorkspaceData,
  accounts: TargetAccount[],
  media: MediaFacts[],
  rows: PlannedRow[],
): Promise<PlannedRow[]> {
  return Promise.all(
    rows.map(async (row, i) => {
      const target = accounts[i]!;
      if (target.status !== 'ok' || !connectorFor(row.platform, services.config, services.clock)?.accountIssues)
        return row;
      try {
        const connected = await connectedAccount(services, data, row.platform, target);
        const { text, title, tags, perPlatform: settings } = row.content;
        const found =
          (await connected?.connector.accountIssues?.(
            connected.account,
            { text, title, tags, media, settings, settingFiles: {} },
            services.config,
            appUsage(services.db, services.clock),
          )) ?? [];
        return found.length ? { ...row, ok: false, issues: [...row.issues, ...found] } : row;
      } catch (err) {
        if (!(err instanceof NetworkError)) throw err;
        services.logger.warn(
          { err, accountId: target.id },
          'the network could not be asked for the account at plan time',
        );
        return row;
      }
    }),
  );
}
