// A workspace's webhooks and their delivery log. Secrets arrive and leave sealed: sealing is the handlers' (and the
// sender's) business, with the keyring; this module never sees a secret in clear.
import type { Knex } from 'knex';
import { newId } from '../domain/ids.ts';
import { assertCanAddWebhook } from '../domain/quotas.ts';
import { isoNow, type Clock } from '../runtime/clock.ts';
import type { Db } from './connect.ts';
import type { NoAnswerReason } from '../media/fromUrl.ts';
import type { EventType } from './events.ts';
import { lockWorkspace } from './locks.ts';

export interface Webhook {
  id: string;
  url: string;
  events: EventType[];
  enabled: boolean;
  disabledReason: string | null;
  createdAt: string;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookDelivery {
  id: string;
  webhookId: string;
  eventId: string;
  type: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: string | null;
  responseStatus: number | null;
  responseBody: string | null;
  durationMs: number | null;
  attemptLog: DeliveryAttempt[];
  createdAt: string;
}

/** One attempt as the delivery log keeps it. */
export interface DeliveryAttempt {
  attempt: number;
  at: string;
  responseStatus: number | null;
  responseBody: string;
  durationMs: number;
  /** Why no answer came, when none did. */
  noAnswer?: NoAnswerReason;
}

/** Attempts a delivery's log keeps (the latest), and the characters of each answer it keeps. */
export const ATTEMPTS_KEPT = 20;
export const ATTEMPT_BODY_KEPT = 200;

export const toWebhook = (row: Record<string, any>): Webhook => ({
  id: row.id,
  url: row.url,
  events: JSON.parse(row.events),
  enabled: Boolean(row.enabled),
  disabledReason: row.disabled_reason ?? null,
  createdAt: row.created_at,
});

export const toDelivery = (row: Record<string, any>): WebhookDelivery => ({
  id: row.id,
  webhookId: row.webhook_id,
  eventId: row.event_id,
  type: row.type,
  status: row.status,
  attempts: Number(row.attempts),
  nextAttemptAt: row.next_attempt_at ?? null,
  responseStatus: row.response_status ?? null,
  responseBody: row.response_body ?? null,
  durationMs: row.duration_ms ?? null,
  attemptLog: row.attempt_log ? JSON.parse(row.attempt_log) : [],
  createdAt: row.created_at,
});

/** A secret rotated out, still signing until `until`. */
export interface RetiredSecret {
  sealed: string;
  until: string;
}

/** The webhook's rotated-out secrets still valid at `now`. */
export const retiredSecrets = (row: Record<string, any>, now: string): RetiredSecret[] =>
  (row.retired_secrets ? (JSON.parse(row.retired_secrets) as RetiredSecret[]) : []).filter((s) => s.until > now);

/**
 * Turns a webhook off or on, if it is not already, noting when it was off: the dispatcher gives a webhook only the
 * events of times it was on, however late it runs. Answers whether this call changed it (of two at once, one does).
 */
export async function switchWebhook(
  trx: Knex,
  id: string,
  enabled: boolean,
  at: string,
  disabledReason: string | null = null,
): Promise<boolean> {
  const changed = await trx('webhooks')
    .where({ id, enabled: !enabled })
    .update({ enabled, disabled_reason: disabledReason });
  if (!changed) return false;
  if (enabled) await trx('webhook_pauses').where({ webhook_id: id }).whereNull('until').update({ until: at });
  else await trx('webhook_pauses').insert({ webhook_id: id, from: at });
  return true;
}

/** A delivery list's position: (createdAt, id) of the last row shown, newest first. */
export interface DeliveryPosition {
  createdAt: string;
  id: string;
}

/** The row of a new pending delivery, due now. */
export function pendingDelivery(
  webhook: { id: string; workspaceId: string },
  event: { id: string; type: string; payload?: unknown },
  at: string,
) {
  return {
    id: newId('whd'),
    webhook_id: webhook.id,
    workspace_id: webhook.workspaceId,
    event_id: event.id,
    type: event.type,
    payload: event.payload === undefined ? null : JSON.stringify(event.payload),
    status: 'pending',
    attempts: 0,
    next_attempt_at: at,
    created_at: at,
  };
}

export function webhooksData(db: Db, workspaceId: string, clock: Clock) {
  const hooks = (q: Knex = db) => q('webhooks').where('webhooks.workspace_id', workspaceId);
  const deliveries = (webhookId: string) =>
    db('webhook_deliveries').where({ workspace_id: workspaceId, webhook_id: webhookId });

  return {
    list: async (): Promise<Webhook[]> => (await hooks().orderBy(['created_at', 'id'])).map(toWebhook),
    get: async (id: string): Promise<Webhook | undefined> => {
      const row = await hooks().where({ id }).first();
      return row ? toWebhook(row) : undefined;
    },
    /** A new webhook, within WEBHOOKS_PER_WORKSPACE (counted under the workspace's lock). */
    create: (input: { url: string; events: EventType[]; secretSealed: string }): Promise<Webhook> =>
      db.transaction(async (trx) => {
        await lockWorkspace(trx, workspaceId);
        const [counted] = await hooks(trx).count({ n: '*' });
        assertCanAddWebhook(Number(counted?.n));
        const id = newId('whk');
        await trx('webhooks').insert({
          id,
          workspace_id: workspaceId,
          url: input.url,
          events: JSON.stringify(input.events),
          enabled: true,
          secret_sealed: input.secretSealed,
          created_at: isoNow(clock),
        });
        return toWebhook(await hooks(trx).where({ id }).first());
      }),
    /** Changes what is given; enabling clears why Herald disabled it. Undefined when there is no such webhook. */
    update: async (
      id: string,
      patch: { url?: string; events?: EventType[]; enabled?: boolean },
    ): Promise<Webhook | undefined> =>
      db.transaction(async (trx) => {
        const changes: Record<string, unknown> = {};
        if (patch.url !== undefined) changes.url = patch.url;
        if (patch.events !== undefined) changes.events = JSON.stringify(patch.events);
        if (!(await hooks(trx).where({ id }).first('id'))) return undefined;
        if (Object.keys(changes).length) await hooks(trx).where({ id }).update(changes);
        if (patch.enabled !== undefined) await switchWebhook(trx, id, patch.enabled, isoNow(clock));
        return toWebhook(await hooks(trx).where({ id }).first());
      }),
    remove: async (id: string): Promise<boolean> => (await hooks().where({ id }).delete()) > 0,
    /**
     * A new secret; the current one keeps signing beside it until `previousUntil`, as do the secrets rotated out
     * before it until their own ends (so two rotations in a day cut off no receiver).
     */
    rotate: (id: string, secretSealed: string, previousUntil: string): Promise<Webhook | undefined> =>
      db.transaction(async (trx) => {
        const row = await hooks(trx).where({ id }).forUpdate().first();
        if (!row) return undefined;
        const retired = [{ sealed: row.secret_sealed, until: previousUntil }, ...retiredSecrets(row, isoNow(clock))];
        await hooks(trx)
          .where({ id })
          .update({ secret_sealed: secretSealed, retired_secrets: JSON.stringify(retired) });
        return toWebhook(row);
      }),
    deliveries: {
      list: async (webhookId: string, after: DeliveryPosition | undefined, limit: number) => {
        const q = deliveries(webhookId);
        if (after)
          q.where((w) =>
            w
              .where('created_at', '<', after.createdAt)
              .orWhere((same) => same.where('created_at', after.createdAt).andWhere('id', '<', after.id)),
          );
        const rows = await q
          .orderBy([
            { column: 'created_at', order: 'desc' },
            { column: 'id', order: 'desc' },
          ])
          .limit(limit + 1);
        return { page: rows.slice(0, limit).map(toDelivery), more: rows.length > limit };
      },
      /** A `webhook.test` event for the webhook, due now: shaped as an event (the contract's WebhookTestEvent). */
      addTest: async (webhookId: string): Promise<WebhookDelivery> => {
        const at = isoNow(clock);
        const eventId = newId('wev');
        const payload = {
          id: eventId,
          type: 'webhook.test',
          objectId: webhookId,
          createdAt: at,
          message: 'A test event from Herald: this webhook receives and verifies deliveries.',
        };
        const row = pendingDelivery({ id: webhookId, workspaceId }, { id: eventId, type: 'webhook.test', payload }, at);
        await db('webhook_deliveries').insert(row);
        return toDelivery(row);
      },
      /**
       * Due again now, with a new round of retries; its attempts go on counting and its log stays. Undefined when
       * the webhook has no such delivery.
       */
      redeliver: async (webhookId: string, deliveryId: string): Promise<WebhookDelivery | undefined> => {
        const changed = await deliveries(webhookId)
          .where({ id: deliveryId })
          .update({
            status: 'pending',
            retry_base: db.ref('attempts'),
            next_attempt_at: isoNow(clock),
            lease_until: null,
          });
        if (!changed) return undefined;
        return toDelivery(await deliveries(webhookId).where({ id: deliveryId }).first());
      },
    },
  };
}

export type WebhooksData = ReturnType<typeof webhooksData>;

/** Days the delivery log keeps a delivery; the retention sweep deletes older ones. */
export const DELIVERY_DAYS = 30;

/**
 * Deletes deliveries older than DELIVERY_DAYS, a batch at a time, and the ends of pauses as old (no event so old is
 * dispatched); answers how many deliveries.
 */
export async function forgetOldDeliveries(db: Db, nowMs: number, batch = 5000): Promise<number> {
  const cutoff = new Date(nowMs - DELIVERY_DAYS * 86400_000).toISOString();
  await db('webhook_pauses').where('until', '<', cutoff).delete();
  let total = 0;
  for (;;) {
    const old = db('webhook_deliveries').where('created_at', '<', cutoff).select('id').limit(batch);
    const n = await db('webhook_deliveries').whereIn('id', old).delete();
    total += n;
    if (n < batch) return total;
  }
}
