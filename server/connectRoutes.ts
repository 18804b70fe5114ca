// Connecting and reconnecting accounts: dashboard sessions only (no /v1 route, no MCP tool, per the spec).
// GET /auth/connect/:platform[?accountId=acc_…] sends the signed-in person to the network's consent page
// with a signed state; the network sends them back to /auth/connect/:platform/callback, which checks the
// state, exchanges the code and connects (or reconnects) the accounts the grant covers. Every outcome is
// a redirect to the dashboard's accounts page: `?connected=<n>` (with `&requeued=<m>` when m posts that
// failed on the old token were queued again), or `?error=<code>&message=…&hint=…`
// (quota errors add limit, used and upgradeUrl), so the dashboard shows it and nothing else answers HTML.
// A network whose accounts connect by signing in (Bluesky's app passwords) has no consent page: GET sends the
// person to the dashboard's form (`?connect=<platform>&server=…`), which calls `connectBySignIn` (auth.yaml).
// These two navigations are auth.yaml's startConnect and finishConnect, routed here because every outcome,
// a refusal too, is a redirect.
import { randomBytes } from 'node:crypto';
import express, { type Request, type Response } from 'express';
import { workspaceData } from '../db/workspaceData.ts';
import { ApiError, errorBody, invalidRequest } from '../domain/errors.ts';
import { connectFlow, notConnectedSentence, signInFlow, signsIn } from '../networks/connect.ts';
import { assertCanConnectAccount } from '../domain/quotas.ts';
import { NETWORKS } from '../networks/index.ts';
import { assertRole } from '../domain/roles.ts';
import type { Keyring } from '../runtime/crypto.ts';
import type { Platform } from '../networks/rules.ts';
import type { Services } from '../runtime/services.ts';
import { sessionFrom } from '../signin/session.ts';
import { accountToReconnect, connectTargets } from './auth/connect.ts';

/** How long a person may take at the network's consent page. */
export const STATE_LIFETIME_MS = 10 * 60_000;

/** What the state binds a connection to; it travels through the network, so it holds no secret. */
export interface ConnectState {
  sessionId: string;
  workspaceId: string;
  platform: string;
  /** The account being reconnected, if any. */
  accountId?: string;
  /** Epoch ms. */
  expiresAt: number;
  /** Makes each state unique; the PKCE verifier is derived from it. */
  nonce: string;
}

/** `<payload>.<HMAC>`, both base64url. */
export function signState(keyring: Keyring, state: ConnectState): string {
  const payload = Buffer.from(JSON.stringify(state)).toString('base64url');
  return `${payload}.${keyring.sign(payload, 'connect-state')}`;
}

function readState(keyring: Keyring, text: unknown): ConnectState | undefined {
  if (typeof text !== 'string') return undefined;
  const [payload, signature, ...rest] = text.split('.');
  if (!payload || !signature || rest.length || !keyring.verify(payload, signature, 'connect-state')) return undefined;
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as ConnectState;
}

/** Derived from the state's nonce: never stored, and never sent through the browser or to the consent page. */
const codeVerifier = (keyring: Keyring, state: ConnectState) => keyring.sign(state.nonce, 'pkce');

const startAgain = 'Start again from the accounts page of the dashboard.';

export function connectRoutes(services: Services): express.Router {
  const { db, keyring, config, logger } = services;
  const router = express.Router();
  const accountsPage = (query: Record<string, string>) =>
    `${config.publicUrl}/app/accounts?${new URLSearchParams(query)}`;

  /**
   * Runs a step that answers where to go next; a refusal (or a fault) goes to the dashboard as {code, message, hint}.
   */
  const step = (run: (req: Request) => Promise<string>) => async (req: Request, res: Response) => {
    let to: string;
    try {
      to = await run(req);
    } catch (err) {
      if (!(err instanceof ApiError)) logger.error({ err, reqId: req.id }, 'connecting an account failed');
      const refusal =
        err instanceof ApiError
          ? err
          : new ApiError(
              500,
              'internal',
              `An unexpected fault stopped the connection (request ${req.id}); nothing was connected.`,
              'Try again; if it keeps failing, give the request id to the operator.',
            );
      const { code, ...rest } = errorBody(refusal, config.publicUrl);
      to = accountsPage({
        error: code,
        ...Object.fromEntries(Object.entries(rest).map(([name, value]) => [name, String(value)])),
      });
    }
    res.redirect(302, to);
  };

  async function signedIn(req: Request) {
    const cred = await sessionFrom(db, req);
    if (!cred) {
      throw new ApiError(
        401,
        'unauthenticated',
        'Connecting an account needs a signed-in dashboard session, and none came with this request.',
        'Sign in to the dashboard, then connect the account from its accounts page.',
      );
    }
    assertRole(cred.role!, 'administrator', 'Connecting an account');
    return cred;
  }

  router.get(
    '/connect/:platform',
    step(async (req) => {
      const cred = await signedIn(req);
      const platform = String(req.params.platform);
      const accountId = req.query.accountId;
      const data = workspaceData(db, cred.workspace, services.clock);
      if (Object.hasOwn(NETWORKS, platform) && signsIn(platform as Platform)) {
        // No consent page: the dashboard's form signs in, offering the server this configuration connects to.
        const flow = signInFlow(platform, config, services.clock);
        // No server to offer (the sandbox without SANDBOX_PDS): what the operator must start, at once, instead of
        // a form that cannot connect.
        if (!flow.defaultServer) throw flow.notConfigured();
        if (accountId !== undefined) await accountToReconnect(data, flow, accountId);
        return accountsPage({
          connect: flow.platform,
          ...(flow.defaultServer ? { server: flow.defaultServer } : {}),
          ...(accountId !== undefined ? { accountId: String(accountId) } : {}),
        });
      }
      const flow = connectFlow(platform, config, process.env, services.clock);
      if (accountId !== undefined) await accountToReconnect(data, flow, accountId);
      // A plan with no room left says so now, not after the whole consent page (the callback checks again).
      else assertCanConnectAccount(cred.workspace.plan, await data.accounts.count());
      const state: ConnectState = {
        sessionId: cred.sessionId,
        workspaceId: cred.workspace.id,
        platform: flow.platform,
        ...(accountId !== undefined ? { accountId: String(accountId) } : {}),
        expiresAt: Date.now() + STATE_LIFETIME_MS,
        nonce: randomBytes(16).toString('base64url'),
      };
      return flow.authorizeUrl(signState(keyring, state), codeVerifier(keyring, state));
    }),
  );

  router.get(
    '/connect/:platform/callback',
    step(async (req) => {
      const cred = await signedIn(req);
      const flow = connectFlow(String(req.params.platform), config, process.env, services.clock);
      const state = readState(keyring, req.query.state);
      if (!state)
        throw new ApiError(
          400,
          'state_invalid',
          `The state that came back from ${flow.label} is missing or was altered; nothing was connected.`,
          startAgain,
        );
      if (
        state.sessionId !== cred.sessionId ||
        state.workspaceId !== cred.workspace.id ||
        state.platform !== flow.platform
      ) {
        throw new ApiError(
          403,
          'state_mismatch',
          `This answer from ${flow.label} belongs to a connection started in another session or workspace; ` +
            `nothing was connected.`,
          `${startAgain} Use the same browser session from start to end.`,
        );
      }
      if (Date.now() > state.expiresAt) {
        throw new ApiError(
          400,
          'state_expired',
          `This connection was started more than ${STATE_LIFETIME_MS / 60_000} minutes ago; nothing was connected.`,
          startAgain,
        );
      }
      if (req.query.error === 'access_denied') {
        throw new ApiError(
          400,
          'access_denied',
          `Access was not granted at ${flow.label}; nothing was connected.`,
          `Connect again and choose Allow at ${flow.label}.`,
        );
      }
      if (req.query.error !== undefined) {
        throw new ApiError(
          502,
          'connect_failed',
          `${flow.label} answered: "${String(req.query.error_description ?? req.query.error)}". Nothing was connected.`,
          startAgain,
        );
      }
      if (typeof req.query.code !== 'string' || !req.query.code)
        throw invalidRequest(`${flow.label} sent no authorization code; nothing was connected.`, startAgain);

      const data = workspaceData(db, cred.workspace, services.clock, services.jobs);
      const reconnecting = state.accountId ? await accountToReconnect(data, flow, state.accountId) : undefined;
      const { targets, notConnected } = await flow.exchange(req.query.code, codeVerifier(keyring, state));
      const { connected, requeued } = await connectTargets(services, cred, data, flow, targets, reconnecting);
      // Reconnecting names one account: the others the grant reached are none of this connection's business.
      const skipped = reconnecting ? '' : notConnectedSentence(notConnected);
      return accountsPage({
        connected: String(connected),
        ...(requeued ? { requeued: String(requeued) } : {}),
        ...(skipped ? { notConnected: skipped } : {}),
      });
    }),
  );

  return router;
}
