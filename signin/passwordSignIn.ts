// Every password check (dashboard sign-in POST /auth/sign-in, the MCP consent page's POST /oauth/sign-in, and a
// password change's current password) goes through `checkPassword`: the limits per client address and per
// email first, then the password. Invitation links take no password from an existing person (they sign in).
import { verify } from '@node-rs/argon2';
import { findUserByEmail, firstMembership, freshSession } from '../db/identity.ts';
import { ApiError, rateLimited } from '../domain/errors.ts';
import type { Services } from '../runtime/services.ts';
import { hashPassword } from './passwords.ts';
import { createRateLimiter, type RateLimiter } from '../server/rateLimit.ts';

/**
 * Sign-in (and sign-up) attempts per client address, and sign-in attempts per email, per window of the
 * request limit (RATE_LIMIT_WINDOW_SECONDS), so one setting sets every window an operator tunes.
 */
export const SIGN_IN_LIMITS = { perAddress: 30, perEmail: 10 };

// Verifying against a fixed hash when the email is unknown keeps both answers equally slow.
const UNKNOWN_USER_HASH = hashPassword('herald-unknown-user');

export const wrongPassword = () =>
  new ApiError(401, 'unauthenticated', 'The email or password is wrong.', 'Check both and try again.');

export interface PasswordSignIn {
  /** Counts an attempt from `ip` (a sign-in or a sign-up); throws rate_limited past the address's limit. */
  limitAddress(ip: string): Promise<void>;
  /**
   * Both limits, then the password: the person when it is theirs, undefined when the email or password is wrong.
   * Throws rate_limited past a limit, before the password is checked.
   */
  checkPassword(email: string, password: string, ip: string): Promise<{ id: string } | undefined>;
  /**
   * `checkPassword`, then a new session in the person's first workspace, or throws unauthenticated (wrong email or
   * password). The session whose token the browser carried (`carried`) ends.
   */
  signInWithPassword(
    email: string,
    password: string,
    ip: string,
    carried: string | undefined,
  ): Promise<{ id: string; token: string; expiresAt: string }>;
}

/** Made once per app: every route that checks a password counts against the same limiters. */
export function passwordSignIn(services: Services): PasswordSignIn {
  const { db, config } = services;
  const windowMs = config.rateLimit.windowMs;
  const byAddress = createRateLimiter(db, SIGN_IN_LIMITS.perAddress, windowMs);
  const byEmail = createRateLimiter(db, SIGN_IN_LIMITS.perEmail, windowMs);
  const minutes = Math.round(windowMs / 60_000);

  async function limit(limiter: RateLimiter, bucket: string, what: string): Promise<void> {
    const decision = await limiter.hit(bucket);
    if (decision.allowed) return;
    const now = Date.now();
    throw rateLimited(
      now + decision.resetSeconds * 1000,
      now,
      `More than ${decision.limit} sign-in attempts came ${what} in ${minutes} minutes.`,
    );
  }

  const limitAddress = (ip: string) => limit(byAddress, `sign-in:ip:${ip}`, 'from this address');

  async function checkPassword(email: string, password: string, ip: string) {
    await limitAddress(ip);
    await limit(byEmail, `sign-in:email:${email.trim().toLowerCase()}`, 'for this email');
    const user = await findUserByEmail(db, email);
    const ok = await verify(user?.password_hash ?? (await UNKNOWN_USER_HASH), password);
    return user?.password_hash && ok ? { id: user.id as string } : undefined;
  }

  return {
    limitAddress,
    checkPassword,
    async signInWithPassword(email, password, ip, carried) {
      const user = await checkPassword(email, password, ip);
      const workspaceId = user && (await firstMembership(db, user.id));
      if (!user || !workspaceId) throw wrongPassword();
      return freshSession(db, user.id, workspaceId, carried);
    },
  };
}
