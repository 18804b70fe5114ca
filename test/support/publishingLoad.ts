// Shared by bench/publish and the crash run (bench/crash, test/crash.test.ts): a Herald with many sandbox
// Facebook Pages (a text post is one network call, so lag is Herald's own), posts created through the API,
// and what the simulator received.
import knexFactory, { type Knex } from 'knex';
import { DateTime } from 'luxon';
import { openDatabase } from '../../db/connect.ts';
import { createApiKey, createWorkspace } from '../../db/identity.ts';
import { migrate } from '../../db/migrate.ts';
import { workspaceData } from '../../db/workspaceData.ts';
import type { Workspace } from '../../domain/credential.ts';
import { systemClock } from '../../runtime/clock.ts';
import { createLogger } from '../../runtime/logger.ts';
import { graphileQueue, sqliteQueue } from '../../worker/queues.ts';
import { randomBase62 } from '../../domain/ids.ts';
import { Keyring } from '../../runtime/crypto.ts';
import { loadSecret } from '../../runtime/secret.ts';
import type { Platform } from '../../networks/rules.ts';
import { registerSandboxAccount, sandboxToken } from '../../networks/sandbox/state.ts';

export interface SeededAccount {
  id: string;
  platform: Platform;
  externalId: string;
}

export interface Seeded {
  workspaces: { id: string; key: string; accountIds: string[]; accounts: SeededAccount[] }[];
  externalIds: string[];
}

export function openDb(env: NodeJS.ProcessEnv): Knex {
  return env.DATABASE_URL
    ? knexFactory({ client: 'pg', connection: env.DATABASE_URL, pool: { min: 0, max: 4 } })
    : openDatabase({ dataDir: env.DATA_DIR! });
}

/**
 * `accounts` sandbox accounts, 50 to a workspace (the most one create request targets): Facebook Pages, or the
 * `platforms` in turn.
 */
export async function seedAccounts(
  env: NodeJS.ProcessEnv,
  accounts: number,
  platforms: Platform[] = ['facebook'],
): Promise<Seeded> {
  const db = openDb(env);
  await migrate(db);
  const keyring = new Keyring(loadSecret(env.DATA_DIR!, env));
  const seeded: Seeded = { workspaces: [], externalIds: [] };
  for (let w = 0; w * 50 < accounts; w++) {
    const { workspaceId, userId } = await createWorkspace(db, {
      name: `Bench ${w}`,
      plan: 'owner',
      tz: 'Europe/Berlin',
    });
    const { key } = await createApiKey(db, { workspaceId, userId, name: 'bench', scopes: ['read', 'write'] });
    const workspace: Workspace = {
      id: workspaceId,
      slug: '',
      name: '',
      plan: 'owner',
      currency: 'USD',
      tz: 'Europe/Berlin',
      approvalRequiredFor: [],
    };
    const data = workspaceData(db, workspace, systemClock);
    const made: SeededAccount[] = [];
    for (let i = 0; i < Math.min(50, accounts - w * 50); i++) {
      const platform = platforms[(w * 50 + i) % platforms.length]!;
      const externalId = `sandbox-${platform}-${randomBase62(10)}`;
      const displayName = `Bench ${platform} ${w}-${i}`;
      // YouTube knows the channel only from the token, which names it (sandboxToken); the rest take any sandbox token.
      if (platform !== 'facebook')
        await registerSandboxAccount(db, platform, { id: externalId, name: displayName, tokens: 'ok' });
      const account = await data.accounts.add({
        platform,
        displayName,
        status: 'ok',
        externalId,
        tokenSealed: keyring.encrypt(
          platform === 'facebook' ? `sandbox-page-token-${randomBase62(16)}` : sandboxToken('access', externalId),
        ),
      });
      made.push({ id: account.id, platform, externalId });
      seeded.externalIds.push(externalId);
    }
    seeded.workspaces.push({ id: workspaceId, key, accountIds: made.map((a) => a.id), accounts: made });
  }
  await db.destroy();
  return seeded;
}

/** The next whole minute at least `leadSeconds` ahead, as `when` takes it. */
export function dueMinute(leadSeconds: number): { when: { publishAt: string; timezone: string }; dueMs: number } {
  const at = DateTime.now()
    .setZone('Europe/Berlin')
    .plus({ seconds: leadSeconds })
    .startOf('minute')
    .plus({ minutes: 1 });
  return { when: { publishAt: at.toFormat("yyyy-MM-dd'T'HH:mm"), timezone: 'Europe/Berlin' }, dueMs: at.toMillis() };
}

/**
 * Creates `total` posts due at `when`, spread over the workspaces' accounts, through POST /v1/posts
 * (50 targets a request). Each request's text is unique, so (account, text) names one post.
 */
export async function createPosts(base: string, seeded: Seeded, total: number, when: unknown): Promise<void> {
  let made = 0;
  let request = 0;
  const requests: Promise<void>[] = [];
  while (made < total) {
    for (const ws of seeded.workspaces) {
      if (made >= total) break;
      const targets = ws.accountIds.slice(0, Math.min(ws.accountIds.length, total - made));
      made += targets.length;
      const text = `Bench post ${++request}: autumn sale, 30% off until Sunday.`;
      requests.push(
        fetch(`${base}/v1/posts`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${ws.key}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ targets: { accountIds: targets }, mediaIds: [], text, when, confirm: true }),
        }).then(async (res) => {
          if (res.status !== 201) throw new Error(`create answered ${res.status}: ${await res.text()}`);
        }),
      );
      if (requests.length >= 8) await Promise.all(requests.splice(0));
    }
  }
  await Promise.all(requests);
}

/** Moves each request's posts to their own second of the minute, and their jobs with them. */
export async function spreadOverMinute(db: Knex, env: NodeJS.ProcessEnv, dueMs: number): Promise<Map<string, number>> {
  const logger = createLogger('warn', 'json');
  const jobs = env.DATABASE_URL ? graphileQueue(db, env.DATABASE_URL, logger) : sqliteQueue(db, systemClock, logger);
  const dueByText = new Map<string, number>();
  const rows: { id: string; text: string }[] = await db('posts').where({ status: 'queued' }).select('id', 'text');
  await db.transaction(async (trx) => {
    for (const row of rows) {
      const request = Number(/^Bench post (\d+):/.exec(row.text)![1]);
      const at = new Date(dueMs + (request % 60) * 1000).toISOString();
      dueByText.set(row.text, Date.parse(at));
      await trx('posts').where({ id: row.id }).update({ publish_at: at, due_at: at });
      await jobs.schedule(trx, row.id, at);
    }
  });
  return dueByText;
}

export async function postCounts(db: Knex): Promise<Record<string, number>> {
  const rows: { status: string; n: unknown }[] = await db('posts').groupBy('status').select('status').count({ n: '*' });
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

/** What the Facebook simulator published: one row per network post, with when the call arrived. */
export async function publishedItems(db: Knex): Promise<{ account: string; message: string; publishedMs: number }[]> {
  const rows = await db('sandbox_items')
    .where({ network: 'facebook' })
    .whereNotNull('published_ms')
    .select('account', 'data', 'published_ms');
  return rows.map((r) => ({
    account: r.account,
    message: String(JSON.parse(r.data).message ?? ''),
    publishedMs: Number(r.published_ms),
  }));
}

export function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN;
}
