// Password sign-in, one for the dashboard (POST /auth/sign-in) and the MCP consent page (POST /oauth/sign-in):
// the limits per client address and per email, the password check, and a new dashboard session.
import { verify } from '@node-rs/argon2';
import { createSession, findUserByEmail, firstMembership } from '../db/identity.ts';
import { ApiError, rateLimited } from '../domain/errors.ts';
import type { Services } from '../runtime/services.ts';
import { createRateLimiter, type RateLimiter } from './rateLimit.ts';
import { hashPassword } from './sessionRoutes.ts';

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
   * Both limits, then the password: a new session in the person's first workspace, or throws rate_limited
   * (past a limit, before the password is checked) or unauthenticated (wrong email or password).
   */
  signInWithPassword(
    email: string,
    password: string,
    ip: string,
  ): Promise<{ id: string; token: string; expiresAt: string }>;
}

/** Made once per app: every route that signs people in counts against the same limiters. */
export function passwordSignIn(services: Services): PasswordSignIn {
  const { db, config } = services;
  const windowMs = config.rateLimit.windowMs;
  const byAddress = createRateLimiter(db, SIGN_IN_LIMITS.perAddress, windowMs);
  const byEmail = createRateLimiter(db, SIGN_IN_LIMITS.perEmail, windowMs);
  const minutes = Math.round(windowMs / 60_000);

  async function limit(limiter: RateLimiter, bucket: string, what: string): Promise<void> {
    const decision = await limiter.hit(bucket);
    if (decision.allowed) return;
    throw rateLimited(
      decision.resetSeconds,
      `More than ${decision.limit} sign-in attempts came ${what} in ${minutes} minutes.`,
    );
  }

  const limitAddress = (ip: string) => limit(byAddress, `sign-in:ip:${ip}`, 'from this address');

  return {
    limitAddress,
    async signInWithPassword(email, password, ip) {
      await limitAddress(ip);
      await limit(byEmail, `sign-in:email:${email.trim().toLowerCase()}`, 'for this email');
      const user = await findUserByEmail(db, email);
      const ok = await verify(user?.password_hash ?? (await UNKNOWN_USER_HASH), password);
      const workspaceId = user && ok ? await firstMembership(db, user.id) : undefined;
      if (!user || !workspaceId) throw wrongPassword();
      return createSession(db, user.id, workspaceId);
    },
  };
}
