// Every query a handler can make, already scoped to one workspace. Handlers receive only this object,
// so no handler can read or change another workspace's rows by forgetting a where clause.
import type { Knex } from 'knex';
import type { Platform } from '../networks/rules.ts';
import type { Workspace } from '../domain/credential.ts';
import { newId } from '../domain/ids.ts';
import { assertCanConnectAccount } from '../domain/quotas.ts';
import type { Db } from './connect.ts';
import { lockWorkspace } from './locks.ts';
import { deletedPosts, readEvents, type EventQuery } from './events.ts';
import { webhooksData } from './webhooksData.ts';
import { schedulesData } from './schedulesData.ts';
import { mediaData } from './mediaData.ts';
import type { JobScheduler } from './jobs.ts';
import { requeueAfterReconnect } from './postRequeue.ts';
import { postsData } from './postsData.ts';
import { batchedRead } from './batchedReads.ts';
import { toCount } from './rows.ts';
import { readUsage, usageCounter, type Usage } from './usage.ts';
import { isoNow, type Clock } from '../runtime/clock.ts';

export type AccountStatus = 'ok' | 'expired' | 'revoked';

export interface Account {
  id: string;
  platform: Platform;
  displayName: string;
  status: AccountStatus;
}

export interface Group {
  id: string;
  name: string;
  accountIds: string[];
  createdAt: string;
}

function toAccount(row: { id: string; platform: string; display_name: string; status: string }): Account {
  return {
    id: row.id,
    platform: row.platform as Platform,
    displayName: row.display_name,
    status: row.status as AccountStatus,
  };
}

/** A listed account with its token's times (never the token): when Herald last got it, and its end. */
export interface ListedAccount extends Account {
  tokenTimes: { issuedAt: string; expiresAt: string | null };
}

type ListedRow = Parameters<typeof toAccount>[0] & {
  workspace_id: string;
  token_expires_at: string | null;
  token_refreshed_at: string | null;
  created_at: string;
};

const toListed = (row: ListedRow): ListedAccount => ({
  ...toAccount(row),
  tokenTimes: { issuedAt: row.token_refreshed_at ?? row.created_at, expiresAt: row.token_expires_at ?? null },
});

/** The connected accounts of each workspace asked for, oldest first, read together with other requests'. */
const accountLists = batchedRead(
  (db, workspaceIds: string[]): Promise<ListedRow[]> =>
    db('accounts')
      .whereIn('workspace_id', workspaceIds)
      .whereNull('disconnected_at')
      .orderBy(['workspace_id', 'created_at', 'id'])
      .select(
        'id',
        'workspace_id',
        'platform',
        'display_name',
        'status',
        'token_expires_at',
        'token_refreshed_at',
        'created_at',
      ),
  (row) => row.workspace_id,
  (workspaceId) => workspaceId,
);

/**
 * `clock` stamps what this object writes (posts, their events, accounts, groups, analytics); `jobs`
 * keeps queued posts' publish jobs in step (left out only where no post changes).
 */
export function workspaceData(db: Db, workspace: Workspace, clock: Clock, jobs?: JobScheduler) {
  const wsId = workspace.id;
  // Disconnected accounts keep their rows for their posts' sake; everything else sees the connected ones.
  const everyAccount = (q: Knex = db) => q('accounts').where('accounts.workspace_id', wsId);
  const accounts = (q: Knex = db) => everyAccount(q).whereNull('accounts.disconnected_at');
  const groups = (q: Knex = db) => q('groups').where('groups.workspace_id', wsId);

  async function groupsWithMembers(
    q: Knex,
    groupRows: { id: string; name: string; created_at: string }[],
  ): Promise<Group[]> {
    if (groupRows.length === 0) return [];
    const links = await q('group_accounts')
      .whereIn(
        'group_id',
        groupRows.map((g) => g.id),
      )
      .orderBy(['group_id', 'position']);
    return groupRows.map((g) => ({
      id: g.id,
      name: g.name,
      createdAt: g.created_at,
      accountIds: links.filter((l) => l.group_id === g.id).map((l) => l.account_id as string),
    }));
  }

  /** The ids among `ids` that are not accounts of this workspace. */
  async function missingAccounts(q: Knex, ids: string[]): Promise<string[]> {
    const found = new Set((await accounts(q).whereIn('id', ids).select('id')).map((r) => r.id as string));
    return ids.filter((id) => !found.has(id));
  }

  const countAccounts = (q: Knex) => usageCounter(q, wsId, 'accounts');

  async function insertAccount(
    q: Knex,
    input: {
      platform: Platform;
      displayName: string;
      status: AccountStatus;
      externalId: string;
      tokenSealed: string | null;
      tokenExpiresAt?: string | null;
    },
  ): Promise<Account> {
    const id = newId('acc');
    await q('accounts').insert({
      id,
      workspace_id: wsId,
      platform: input.platform,
      display_name: input.displayName,
      status: input.status,
      external_id: input.externalId,
      token_sealed: input.tokenSealed,
      token_expires_at: input.tokenExpiresAt ?? null,
      token_refreshed_at: isoNow(clock),
      created_at: isoNow(clock),
    });
    return { id, platform: input.platform, displayName: input.displayName, status: input.status };
  }

  async function writeGroupAccounts(q: Knex, groupId: string, accountIds: string[]): Promise<void> {
    await q('group_accounts').where({ group_id: groupId }).delete();
    if (accountIds.length) {
      await q('group_accounts').insert(
        accountIds.map((accountId, position) => ({ group_id: groupId, account_id: accountId, position })),
      );
    }
  }

  return {
    workspace,
    media: mediaData(db, workspace),
    posts: postsData(db, workspace, clock, jobs),
    /** The workspace's settled events after a position, oldest first (db/events.ts). */
    events: {
      list: (query: Omit<EventQuery, 'workspaceId'>) => readEvents(db, { ...query, workspaceId: wsId }),
      deletedPosts: (postIds: string[]) => deletedPosts(db, wsId, postIds),
    },
    webhooks: webhooksData(db, wsId, clock),
    schedules: schedulesData(db, wsId, clock),

    accounts: {
      list: async (): Promise<Account[]> => (await accountLists(db, wsId)).map(toAccount),
      /** The same list with each token's times, from which the Accounts list says its health. */
      listWithTokenTimes: async (): Promise<ListedAccount[]> => (await accountLists(db, wsId)).map(toListed),
      get: async (id: string): Promise<Account | undefined> => {
        const row = await accounts().where({ id }).first();
        return row ? toAccount(row) : undefined;
      },
      count: (): Promise<number> => countAccounts(db),
      /** What a connector needs to act for the account: its id on the network and its sealed token. */
      connection: async (id: string): Promise<{ externalId: string; tokenSealed: string | null } | undefined> => {
        const row = await accounts().where({ id }).first('external_id', 'token_sealed');
        return row ? { externalId: row.external_id, tokenSealed: row.token_sealed ?? null } : undefined;
      },
      missing: (ids: string[]) => missingAccounts(db, ids),
      /** Adds a connected account, refusing one over the plan's limit (atomically). */
      add: (input: {
        platform: Platform;
        displayName: string;
        status: AccountStatus;
        externalId: string;
        tokenSealed: string | null;
      }) =>
        db.transaction(async (trx) => {
          await lockWorkspace(trx, wsId);
          assertCanConnectAccount(workspace.plan, await countAccounts(trx));
          return insertAccount(trx, input);
        }),
      /**
       * The accounts a network consent granted: one already connected here (same platform and external
       * id) gets the new token, name and status ok, and its posts that failed on the token or a
       * permission are queued again; the others are added, all of them within the plan's limit or none.
       */
      connect: (
        platform: Platform,
        granted: { externalId: string; displayName: string; tokenSealed: string; tokenExpiresAt: string | null }[],
      ) =>
        db.transaction(async (trx) => {
          await lockWorkspace(trx, wsId);
          const rows = await everyAccount(trx)
            .where({ platform })
            .whereIn(
              'external_id',
              granted.map((g) => g.externalId),
            )
            .select('id', 'external_id', 'disconnected_at');
          const known = new Set(rows.map((r) => r.external_id as string));
          // A disconnected account that comes back counts against the plan again, and gets its posts back.
          const connected = new Set(rows.filter((r) => !r.disconnected_at).map((r) => r.external_id as string));
          const fresh = granted.filter((g) => !connected.has(g.externalId));
          if (fresh.length) assertCanConnectAccount(workspace.plan, await countAccounts(trx), fresh.length);
          for (const g of granted) {
            if (!known.has(g.externalId)) await insertAccount(trx, { platform, status: 'ok', ...g });
            else {
              await everyAccount(trx)
                .where({ platform, external_id: g.externalId })
                .update({
                  display_name: g.displayName,
                  status: 'ok',
                  token_sealed: g.tokenSealed,
                  token_expires_at: g.tokenExpiresAt,
                  token_refreshed_at: isoNow(clock),
                  token_refresh_claim: null,
                  disconnected_at: null,
                });
            }
          }
          const reconnected = rows.map((r) => r.id as string);
          return { requeued: await requeueAfterReconnect(trx, wsId, platform, reconnected, jobs, isoNow(clock)) };
        }),
      /**
       * Disconnects an account: it leaves lists, groups and plan counts and forgets its token; its posts
       * stay. The caller cancels its queued posts (see server/auth/accounts.ts).
       */
      disconnect: async (id: string): Promise<boolean> =>
        db.transaction(async (trx) => {
          const changed = await accounts(trx)
            .where({ id })
            .update({ disconnected_at: isoNow(clock), token_sealed: null, token_expires_at: null });
          await trx('group_accounts').where({ account_id: id }).delete();
          return changed > 0;
        }),
    },

    groups: {
      list: async (): Promise<Group[]> => groupsWithMembers(db, await groups().orderBy(['created_at', 'id'])),
      get: async (id: string): Promise<Group | undefined> =>
        (await groupsWithMembers(db, await groups().where({ id })))[0],
      count: async (): Promise<number> => toCount((await groups().count({ n: '*' }).first())?.n),
      create: (name: string, accountIds: string[]) =>
        db.transaction(async (trx) => {
          const id = newId('grp');
          const createdAt = isoNow(clock);
          await trx('groups').insert({ id, workspace_id: wsId, name, created_at: createdAt });
          await writeGroupAccounts(trx, id, accountIds);
          return { id, name, accountIds, createdAt } satisfies Group;
        }),
      update: (id: string, changes: { name?: string; accountIds?: string[] }) =>
        db.transaction(async (trx) => {
          const row = await groups(trx).where({ id }).first();
          if (!row) return undefined;
          if (changes.name !== undefined) await groups(trx).where({ id }).update({ name: changes.name });
          if (changes.accountIds) await writeGroupAccounts(trx, id, changes.accountIds);
          return (await groupsWithMembers(trx, await groups(trx).where({ id })))[0];
        }),
      // In a transaction, as every write here is: an idempotent request's answer commits with it.
      remove: (id: string): Promise<boolean> =>
        db.transaction(async (trx) => (await groups(trx).where({ id }).delete()) > 0),
    },

    /** Cached insight counters of this workspace's posts and accounts. */
    analytics: {
      get: async (
        kind: 'post' | 'account',
        id: string,
      ): Promise<{ metrics: Record<string, number>; fetchedAt: string } | undefined> => {
        const row = await db('analytics').where({ workspace_id: wsId, target_kind: kind, target_id: id }).first();
        return row ? { metrics: JSON.parse(row.metrics), fetchedAt: row.fetched_at } : undefined;
      },
      put: async (
        kind: 'post' | 'account',
        id: string,
        metrics: Record<string, number>,
      ): Promise<{ metrics: Record<string, number>; fetchedAt: string }> => {
        const fetchedAt = isoNow(clock);
        await db('analytics')
          .insert({
            workspace_id: wsId,
            target_kind: kind,
            target_id: id,
            metrics: JSON.stringify(metrics),
            fetched_at: fetchedAt,
          })
          .onConflict(['target_kind', 'target_id'])
          .merge(['metrics', 'fetched_at']);
        return { metrics, fetchedAt };
      },
    },

    /** What counts against the plan, with posts in `month` (YYYY-MM, workspace zone). */
    usage: (month: string): Promise<Usage> => readUsage(db, wsId, month),
  };
}

export type WorkspaceData = ReturnType<typeof workspaceData>;
