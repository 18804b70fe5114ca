// The sandbox networks' memory, shared by every process through the database and kept in their own tables
// (never Herald's): the accounts each network knows, the items the simulators created (containers, posts,
// videos, upload sessions) and failures queued for an account.
import type { Knex } from 'knex';
import { isPostgres } from '../../db/connect.ts';
import { nowIso } from '../../db/rows.ts';
import { randomBase62 } from '../../domain/ids.ts';
import { batcher } from '../../runtime/batcher.ts';
import type { Platform } from '../rules.ts';

/** What `herald sandbox fail` can make a network answer. */
export const SCENARIOS = [
  'unavailable',
  'rate_limited',
  'token_rejected',
  'permission_missing',
  'rejected',
  'quota_exceeded',
  'unverified',
] as const;
export type Scenario = (typeof SCENARIOS)[number];

export interface SandboxItem<D = Record<string, unknown>> {
  id: string;
  network: Platform;
  account: string;
  kind: string;
  status: string;
  data: D;
  createdAt: string;
  updatedAt: string;
  publishedMs: number | null;
}

function toItem<D>(row: Record<string, any>): SandboxItem<D> {
  return {
    id: row.id,
    network: row.network,
    account: row.account,
    kind: row.kind,
    status: row.status,
    data: JSON.parse(row.data),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    publishedMs: row.published_ms === null || row.published_ms === undefined ? null : Number(row.published_ms),
  };
}

/** What the network answers a call made with an account's tokens. */
export type TokenState = 'ok' | 'expired' | 'revoked';

/** An account as the network knows it. */
export interface SandboxAccount {
  id: string;
  name: string;
  tokens: TokenState;
}

/**
 * Makes an account exist on the network, or renames it and sets its tokens' state when it does: a consent
 * page's grant, or `herald account add-sandbox`.
 */
export async function registerSandboxAccount(db: Knex, network: Platform, account: SandboxAccount): Promise<void> {
  await db('sandbox_accounts')
    .insert({ network, id: account.id, name: account.name, tokens: account.tokens, created_at: nowIso() })
    .onConflict(['network', 'id'])
    .merge(['name', 'tokens']);
}

export function sandboxState(db: Knex, network: Platform) {
  // A burst of publishing calls is written and checked in a few statements, as a network would.
  const insertItems = batcher(async (rows: Record<string, unknown>[]) => {
    await db('sandbox_items').insert(rows);
    return rows.map(() => undefined);
  }, 200);
  const admissions = batcher(async (accounts: string[]) => {
    const unique = [...new Set(accounts)];
    const [statuses, failing] = await Promise.all([
      db('sandbox_accounts').where({ network }).whereIn('id', unique).select('id', 'tokens'),
      db('sandbox_failures')
        .where({ network })
        .whereIn('account', unique)
        .where('remaining', '>', 0)
        .distinct('account'),
    ]);
    return accounts.map((account) => ({
      tokens: statuses.find((r) => r.id === account)?.tokens as TokenState | undefined,
      failing: failing.some((r) => r.account === account),
    }));
  });

  return {
    /** Ids look like the network's own: digits for Meta and Threads, letters for YouTube. */
    newId: (style: 'digits' | 'letters' = 'digits') =>
      style === 'digits'
        ? String(17_000_000_000_000_000n + BigInt(Math.floor(Math.random() * 1e15)))
        : randomBase62(11),

    /**
     * Creates an item; inside `trx` when given (with the other writes of one call that must all happen or none), else
     * in the next batch of inserts.
     */
    async create<D extends Record<string, unknown>>(
      input: {
        id: string;
        account: string;
        kind: string;
        status: string;
        data: D;
        publishedMs?: number;
      },
      trx?: Knex,
    ): Promise<SandboxItem<D>> {
      const now = nowIso();
      const row = {
        id: input.id,
        network,
        account: input.account,
        kind: input.kind,
        status: input.status,
        data: JSON.stringify(input.data),
        created_at: now,
        updated_at: now,
        published_ms: input.publishedMs ?? null,
      };
      if (trx) await trx('sandbox_items').insert(row);
      else await insertItems(row);
      return toItem<D>(row);
    },

    /**
     * What a call for the account must pass: its tokens' state on the network (unknown accounts pass, as
     * any `sandbox-` token names an account of its own) and whether failures are queued for it.
     */
    admission: (account: string) => admissions(account),

    /** The account as the network knows it; undefined for one no consent or CLI command made. */
    async account(id: string): Promise<SandboxAccount | undefined> {
      const row = await db('sandbox_accounts').where({ network, id }).first('id', 'name', 'tokens');
      return row ? { id: row.id, name: row.name, tokens: row.tokens } : undefined;
    },

    register: (account: SandboxAccount) => registerSandboxAccount(db, network, account),

    async get<D = Record<string, unknown>>(id: string): Promise<SandboxItem<D> | undefined> {
      const row = await db('sandbox_items').where({ id, network }).first();
      return row ? toItem<D>(row) : undefined;
    },

    async update<D extends Record<string, unknown>>(
      id: string,
      changes: { status?: string; data?: D; publishedMs?: number },
    ): Promise<void> {
      await db('sandbox_items')
        .where({ id, network })
        .update({
          ...(changes.status ? { status: changes.status } : {}),
          ...(changes.data ? { data: JSON.stringify(changes.data) } : {}),
          ...(changes.publishedMs !== undefined ? { published_ms: changes.publishedMs } : {}),
          updated_at: nowIso(),
        });
    },

    /**
     * Adds `data` to the item's data as it is when written (read and written in one transaction, the row locked), and
     * moves its status from `status.from` only: a slow call (a file's download) never undoes what a faster call on the
     * same item wrote meanwhile (a reel's publish).
     */
    async merge<D extends Record<string, unknown>>(
      id: string,
      data: Partial<D>,
      status?: { from: string; to: string },
    ): Promise<void> {
      await db.transaction(async (trx) => {
        const query = trx('sandbox_items').where({ id, network }).first('data', 'status');
        const row = await (isPostgres(trx) ? query.forUpdate() : query);
        if (!row) return;
        await trx('sandbox_items')
          .where({ id, network })
          .update({
            data: JSON.stringify({ ...JSON.parse(row.data), ...data }),
            ...(status && row.status === status.from ? { status: status.to } : {}),
            updated_at: nowIso(),
          });
      });
    },

    /** The account's items of one kind, newest first (what "recent posts" endpoints list). */
    async list<D = Record<string, unknown>>(account: string, kind: string, limit = 25): Promise<SandboxItem<D>[]> {
      return (
        await db('sandbox_items')
          .where({ network, account, kind })
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(limit)
      ).map((r) => toItem<D>(r));
    },

    /** Takes one queued failure for the account, if any: the next call answers with it. */
    async takeFailure(account: string): Promise<Scenario | undefined> {
      return db.transaction(async (trx) => {
        const row = await trx('sandbox_failures')
          .where({ network, account })
          .where('remaining', '>', 0)
          .orderBy('id')
          .first();
        if (!row) return undefined;
        await trx('sandbox_failures')
          .where({ id: row.id })
          .update({ remaining: row.remaining - 1 });
        return row.scenario as Scenario;
      });
    },
  };
}

export type SandboxState = ReturnType<typeof sandboxState>;

export async function queueFailure(
  db: Knex,
  input: { network: Platform; account: string; scenario: Scenario; times: number },
): Promise<void> {
  await db('sandbox_failures').insert({
    network: input.network,
    account: input.account,
    scenario: input.scenario,
    remaining: input.times,
    created_at: nowIso(),
  });
}

/**
 * A sandbox token names its account (`sandbox-access.<account>.<secret>`): YouTube knows the channel
 * only from the token, so its simulator must read the channel from the token too.
 */
export function sandboxToken(kind: 'access' | 'refresh', account: string): string {
  return `sandbox-${kind}.${account}.${randomBase62(24)}`;
}

/** The account a sandbox token of that kind names; undefined for any other token. */
export function sandboxTokenAccount(token: string, kind: 'access' | 'refresh'): string | undefined {
  const match = /^sandbox-(access|refresh)\.([^.]+)\.[A-Za-z0-9]+$/.exec(token);
  return match && match[1] === kind ? match[2] : undefined;
}
