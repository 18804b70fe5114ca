// `herald doctor --live`: what going live needs at each network, checked the way a post would meet it. For each
// network with an app: its variables, PUBLIC_URL's scheme, the callback address to register and the scopes Herald
// asks for (from the network's connect module, so they cannot drift); then, for one account or every connected one,
// one harmless read through the account's connector with its credentials as a post would take them (a refresh due
// happens first). It never posts and writes nothing to the networks.
import type { Db } from '../db/connect.ts';
import { appUsage } from '../db/appUsage.ts';
import { ApiError } from '../domain/errors.ts';
import { usableAccount } from '../networks/accountCredentials.ts';
import { NetworkError, type Connector, type ConnectorAccount } from '../networks/connector.ts';
import { connectorFor } from '../networks/connectors.ts';
import { hintFor } from '../networks/failureGuidance.ts';
import { NETWORKS, PLATFORMS } from '../networks/index.ts';
import type { Platform } from '../networks/rules.ts';
import { UNAUDITED_PRIVATE, UNAUDITED_USERS } from '../networks/tiktok/api.ts';
import { TOKEN_LIFE } from '../networks/tokenLife.ts';
import type { Clock } from '../runtime/clock.ts';
import type { Config } from '../runtime/config.ts';
import type { Keyring } from '../runtime/crypto.ts';
import type { Check } from './checks.ts';

export interface LiveDeps {
  db: Db;
  keyring: Keyring;
  clock: Clock;
  config: Config;
}

const DAY_MS = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Where the network sends a person back after consent: server/connectRoutes.ts's callback route. */
export const callbackAddress = (config: Config, platform: Platform) =>
  `${config.publicUrl}/auth/connect/${platform}/callback`;

/**
 * One check per network connected through an OAuth app: its variables set, the callback address to register, the
 * scopes asked for. Plain http fails on live networks: TikTok and Meta refuse http redirect addresses
 * (https://developers.tiktok.com/doc/login-kit-web, https://developers.facebook.com/docs/facebook-login/security,
 * read 2026-11-29; docs/guides/networks/).
 */
export function appChecks(config: Config, env: NodeJS.ProcessEnv): Check[] {
  const live = config.networks === 'live';
  const https = new URL(config.publicUrl).protocol === 'https:';
  const checks: Check[] = [];
  if (live && !https)
    checks.push({
      name: 'callback addresses',
      status: 'fail',
      message: `PUBLIC_URL ${config.publicUrl} is plain http: TikTok and Meta refuse http redirect addresses.`,
      fix:
        "Set PUBLIC_URL to this server's https address (a reverse proxy terminating TLS), then register the " +
        'callback addresses again.',
    });
  for (const platform of PLATFORMS) {
    const { connect, connector, rules } = NETWORKS[platform];
    if (!connect || !connector?.clientEnv) continue;
    const names = connector.clientEnv;
    const variables = [names.id, names.secret];
    const missing = live ? variables.filter((name) => !env[name]) : [];
    const callback = callbackAddress(config, platform);
    const details = {
      platform,
      variables,
      ...(connect.configIdEnv
        ? { configIdVariable: connect.configIdEnv, configIdSet: Boolean(env[connect.configIdEnv]) }
        : {}),
      callback,
      scopes: connect.scopes,
    };
    const login =
      connect.configIdEnv && env[connect.configIdEnv] ? 'is set (Login for Business)' : 'is not set (classic login)';
    const configId = connect.configIdEnv ? ` ${connect.configIdEnv} ${login}.` : '';
    checks.push(
      missing.length
        ? {
            name: `network ${platform}`,
            status: 'fail',
            message:
              `${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not set: ${rules.label} accounts ` +
              'cannot be connected or publish.',
            fix:
              `Register Herald as an app at ${rules.label} with the callback ${callback}, and set ` +
              `${missing.join(' and ')}${names.what ? ` to ${names.what}` : ''} (docs/guides/networks/${platform}.md).`,
            ...details,
          }
        : {
            name: `network ${platform}`,
            status: 'ok',
            message: live
              ? `${variables.join(' and ')} are set.${configId}`
              : `Sandbox: the simulator stands in for the ${rules.label} app; live, set ${variables.join(' and ')}.`,
            ...details,
          },
    );
  }
  return checks;
}

/**
 * Threads' long-lived token: when it expires, and when the token upkeep renews it. An expired one never gets here: the
 * refresh a post would make first is refused.
 */
function expirySaid(platform: Platform, account: ConnectorAccount, now: number): string {
  const renewBefore = TOKEN_LIFE[platform]?.renewBeforeExpiryMs;
  if (platform !== 'threads' || !renewBefore) return '';
  if (!account.credentials.expiresAt) return ' The token carries no expiry.';
  const at = Date.parse(account.credentials.expiresAt);
  const renewFrom = at - renewBefore;
  return (
    ` The token expires on ${day(at)} (in ${Math.floor((at - now) / DAY_MS)} days); ` +
    (renewFrom <= now
      ? 'the token upkeep renews it at its next pass while a worker runs.'
      : `the token upkeep renews it from ${day(renewFrom)}, while a worker runs.`)
  );
}

/** What each network's read is: TikTok's creator_info (what the account may post), elsewhere its own counters. */
const READS: Record<Platform, string> = {
  youtube: 'channels.list (mine=true)',
  instagram: "the account's insights",
  facebook: "the Page's insights",
  threads: 'threads_insights',
  tiktok: 'creator_info',
  bluesky: "the account's profile",
};

interface Read {
  said: string;
  details: object;
  /** What will make a post fail although the token works (TikTok's rules for an unaudited app). */
  problem?: { said: string; fix: string };
}

async function accountRead(connector: Connector, account: ConnectorAccount, deps: LiveDeps): Promise<Read> {
  const { config, db, clock } = deps;
  const read = READS[connector.platform];
  if (connector.postingOptions) {
    const options = await connector.postingOptions(account, config, appUsage(db, clock));
    const unaudited = options.unauditedApp;
    const said =
      `${read} answers: privacy options ${options.privacyLevels.join(', ') || 'none'}; ` +
      (unaudited ? 'posts will be private (SELF_ONLY) until TikTok audits the app.' : 'posts may use any of them.');
    const problem = !unaudited
      ? undefined
      : !unaudited.accountPrivate
        ? { said: ' The account is public, so TikTok refuses its posts.', fix: UNAUDITED_PRIVATE }
        : !unaudited.postedToday && !unaudited.usersLeft
          ? { said: ' 5 other accounts posted today, the most TikTok allows.', fix: UNAUDITED_USERS }
          : undefined;
    return { said, details: { postingOptions: options, postsPrivate: Boolean(unaudited) }, problem };
  }
  const counters = await connector.accountInsights(account);
  const figures = Object.entries(counters).map(([name, value]) => `${value} ${name}`);
  return {
    said: `the token works: ${read} answers${figures.length ? ` (${figures.join(', ')})` : ''}.`,
    details: { counters },
  };
}

/** One account's check: its token, refreshed if due, proves itself with one read. */
async function accountCheck(deps: LiveDeps, connector: Connector, row: AccountRow): Promise<Check> {
  const platform = row.platform;
  const name = `account ${row.id}`;
  const base = { platform, accountId: row.id, displayName: row.display_name };
  const label = NETWORKS[platform].rules.label;
  try {
    const stored = {
      id: row.id,
      externalId: row.external_id,
      displayName: row.display_name,
      tokenSealed: row.token_sealed,
    };
    const account = await usableAccount(deps, connector, stored);
    const { said, details, problem } = await accountRead(connector, account, deps);
    const expiry = expirySaid(platform, account, deps.clock.now());
    const message = `${label} ${row.display_name}: ${said}${expiry}${problem?.said ?? ''}`;
    return problem
      ? { name, status: 'fail', message, fix: problem.fix, ...base, ...details }
      : { name, status: 'ok', message, ...base, ...details };
  } catch (err) {
    if (!(err instanceof NetworkError)) throw err;
    return {
      name,
      status: err.kind === 'unavailable' || err.kind === 'rate_limited' ? 'warn' : 'fail',
      message: `${label} ${row.display_name} refused the read: ${err.message} (${err.code}).`,
      fix: err.hint ?? hintFor(err.kind, label),
      ...base,
      code: err.code,
    };
  }
}

interface AccountRow {
  id: string;
  platform: Platform;
  external_id: string;
  display_name: string;
  token_sealed: string;
}

/** `accountId`'s check, or every connected account's. */
export async function accountChecks(deps: LiveDeps, env: NodeJS.ProcessEnv, accountId?: string): Promise<Check[]> {
  const query = deps.db('accounts').whereNotNull('token_sealed').whereNull('disconnected_at').orderBy('id');
  const rows: AccountRow[] = await (accountId ? query.where({ id: accountId }) : query).select(
    'id',
    'platform',
    'external_id',
    'display_name',
    'token_sealed',
  );
  if (accountId && !rows.length)
    throw new ApiError(
      404,
      'not_found',
      `No connected account with id "${accountId}".`,
      'Leave out --account to check every connected account, or take an id from the dashboard.',
    );
  const checks: Check[] = [];
  for (const row of rows) {
    const connector = connectorFor(row.platform, deps.config, deps.clock, env);
    if (connector) checks.push(await accountCheck(deps, connector, row));
  }
  return checks;
}

/** Everything `--live` adds to the doctor's report. */
export async function liveChecks(deps: LiveDeps, env: NodeJS.ProcessEnv, accountId?: string): Promise<Check[]> {
  return [...appChecks(deps.config, env), ...(await accountChecks(deps, env, accountId))];
}
