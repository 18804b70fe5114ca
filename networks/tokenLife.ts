// How long each network's tokens live, and when the token upkeep (worker/tokenUpkeep.ts) renews them: well before the
// network's own limit, so an account that posts nothing for months stays connected. The sources are in
// the Tokens section of each networks/<network>/FACTS.md (read 2026-11-29).
import type { Platform } from './rules.ts';

const DAY_MS = 86_400_000;

export interface TokenLife {
  /** Renew once the stored access token has this little left: for tokens refreshed with themselves (Meta's). */
  renewBeforeExpiryMs?: number;
  /** Renew this long after the last refresh: for refresh tokens that die unused, or whose own life runs out. */
  renewEveryMs?: number;
  /** The network refuses to refresh a token younger than this. */
  minimumAgeMs?: number;
  /**
   * How long after the last refresh the refresh token itself stays good; absent, a token refreshed with itself,
   * good until its own end.
   */
  refreshLifeMs?: number;
}

/**
 * Networks absent here keep their tokens without upkeep: Facebook Page tokens carry no expiry, and Instagram accounts
 * (connected through Facebook Login) publish with their Page's token.
 */
export const TOKEN_LIFE: Partial<Record<Platform, TokenLife>> = {
  // Long-lived tokens last 60 days, refreshable once a day old; a token not refreshed in 60 days is dead for good.
  // Renewed with a third of their life left.
  threads: { renewBeforeExpiryMs: 20 * DAY_MS, minimumAgeMs: DAY_MS },
  // Google's refresh token dies after six months unused.
  youtube: { renewEveryMs: 30 * DAY_MS, refreshLifeMs: 180 * DAY_MS },
  // TikTok's refresh token lives 180 days and rotates at each refresh.
  tiktok: { renewEveryMs: 30 * DAY_MS, refreshLifeMs: 180 * DAY_MS },
  // Bluesky's PDS gives a refresh JWT of 90 days, rotated at each refreshSession.
  bluesky: { renewEveryMs: 30 * DAY_MS, refreshLifeMs: 90 * DAY_MS },
};

/**
 * A Google Cloud project whose consent screen is in Testing gets refresh tokens that die 7 days after consent ([3RD]
 * only: the sources are in networks/youtube/FACTS.md); the upkeep's 30 days never renew them first, so their last
 * refresh is their consent. Herald knows a project's state only in the sandbox (SANDBOX_YOUTUBE_PROJECT).
 */
export const TESTING_PROJECT_LIFE: TokenLife = { ...TOKEN_LIFE.youtube, refreshLifeMs: 7 * DAY_MS };

/** When the network stops renewing the token: after it the account must be reconnected; null, it never ends. */
export function renewableUntil(
  life: TokenLife | undefined,
  token: { issuedAt: string; expiresAt: string | null },
): string | null {
  if (!life) return null;
  if (life.refreshLifeMs === undefined) return token.expiresAt;
  return new Date(Date.parse(token.issuedAt) + life.refreshLifeMs).toISOString();
}

/** Whether a token issued at `issuedAt` (with its access token expiring at `expiresAt`) is due for renewal. */
export function renewalDue(
  life: TokenLife,
  token: { issuedAt: string; expiresAt: string | null },
  now: number,
): boolean {
  const age = now - Date.parse(token.issuedAt);
  if (life.minimumAgeMs && age < life.minimumAgeMs) return false;
  if (life.renewEveryMs !== undefined && age >= life.renewEveryMs) return true;
  if (life.renewBeforeExpiryMs === undefined || !token.expiresAt) return false;
  return Date.parse(token.expiresAt) - now <= life.renewBeforeExpiryMs;
}
