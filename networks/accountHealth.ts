// An account's health as GET /accounts gives it: its token's life (never the token) and what its network holds back
// until the operator's app is reviewed, as far as Herald knows it without asking the network: TikTok's
// HERALD_TIKTOK_AUDITED with its 5 accounts a day counted from Herald's own posts; YouTube's project from the
// sandbox's SANDBOX_YOUTUBE_PROJECT or, live, from whether YouTube made the latest upload private.
import type { components } from '../generated/api.d.ts';
import type { ListedAccount } from '../db/workspaceData.ts';
import type { Config } from '../runtime/config.ts';
import type { AppUsage } from './connector.ts';
import type { Platform } from './rules.ts';
import { usersLeft } from './tiktok/creatorChecks.ts';
import { renewableUntil, TESTING_PROJECT_LIFE, TOKEN_LIFE } from './tokenLife.ts';

type Account = components['schemas']['Account'];
type Restriction = components['schemas']['AccountRestriction'];

const lifeOf = (platform: Platform, config: Config) =>
  platform === 'youtube' && config.networks === 'sandbox' && config.sandboxYoutubeProject === 'testing'
    ? TESTING_PROJECT_LIFE
    : TOKEN_LIFE[platform];

async function youtubeUnaudited(config: Config, usage: AppUsage): Promise<boolean> {
  if (config.networks === 'sandbox') return config.sandboxYoutubeProject !== 'audited';
  return usage.latestShownPrivately('youtube');
}

/** Each network's restrictions in force, asked only for the networks among `platforms`. */
async function restrictionsOf(platforms: Set<Platform>, config: Config, usage: AppUsage) {
  const found: Partial<Record<Platform, Restriction[]>> = {};
  if (platforms.has('tiktok') && !config.tiktokAudited)
    found.tiktok = [{ code: 'tiktok_unaudited_app', usersLeft: usersLeft(await usage.recentPosters('tiktok')) }];
  if (platforms.has('youtube') && (await youtubeUnaudited(config, usage)))
    found.youtube = [{ code: 'youtube_unaudited_project' }];
  return found;
}

export async function withHealth(accounts: ListedAccount[], config: Config, usage: AppUsage): Promise<Account[]> {
  const restrictions = await restrictionsOf(new Set(accounts.map((a) => a.platform)), config, usage);
  return accounts.map(({ tokenTimes, ...account }) => ({
    ...account,
    token: {
      refreshedAt: tokenTimes.issuedAt,
      expiresAt: tokenTimes.expiresAt,
      renewableUntil: renewableUntil(lifeOf(account.platform, config), tokenTimes),
    },
    restrictions: restrictions[account.platform] ?? [],
  }));
}
