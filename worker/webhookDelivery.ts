// Webhook delivery, at least once and never lost. Two steps, both safe with several processes on one database:
//
// - Dispatch: one position in the events (the single `webhook_dispatch` row, db/events.ts explains the order) is
//   read under a row lock, the settled events after it become one delivery row per subscribed webhook, and the
//   position moves, all in one transaction: a second process waits for the lock and starts where the first ended,
//   and the unique (webhook_id, event_id) pair refuses a duplicate whatever happens.
// - Send: a due delivery is claimed by a conditional update that sets its lease (only one process's update matches),
//   POSTed signed (standardwebhooks) through the from-url address guard, and its answer recorded. A failure is
//   retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h by the injected clock; after the last, the webhook is
//   disabled and the workspace's owner and administrators are told by mail. A process that dies mid-send leaves a
//   lease that runs out: the delivery is sent again, with the same webhook-id; a sender that only stalled past its
//   lease then neither sends nor records (the new holder's answer stands).
import { performance } from 'node:perf_hooks';
import { Webhook } from 'standardwebhooks';
import { findEvents, readEvents, START, type EventPosition } from '../db/events.ts';
import { findWorkspace } from '../db/identity.ts';
import { listMembers } from '../db/members.ts';
import { pendingDelivery } from '../db/webhooksData.ts';
import { workspaceData } from '../db/workspaceData.ts';
import type { Db } from '../db/connect.ts';
import { PLAN_NAMES, PLANS } from '../domain/plans.ts';
import { withObjects } from '../handlers/events.ts';
import { describeFailure, guardedRequest, guardedUrl } from '../media/fromUrl.ts';
import type { Services } from '../runtime/services.ts';
import { openWebhookSecret, webhookPolicy } from '../runtime/webhookPolicy.ts';
import { isoAt } from '../runtime/clock.ts';
import { WEBHOOK_RETRY_DELAYS_S } from '../runtime/config.ts';

/**
 * The waits after each failed attempt: about three days in all, then the webhook is disabled (the default of
 * WEBHOOK_RETRY_DELAYS_SECONDS, which benchmarks shorten).
 */
export const WEBHOOK_RETRY_DELAYS_MS = WEBHOOK_RETRY_DELAYS_S.map((s) => s * 1000);
export const SEND_TIMEOUT_MS = 10_000;
/**
 * A claim outlives the longest send (a batch's sends run together, each cut at SEND_TIMEOUT_MS), so a live sender
 * never loses its delivery to another; a sender killed mid-send holds its deliveries back this long (the chaos run
 * counts the wait).
 */
export const WEBHOOK_LEASE_MS = 30_000;
const KEPT_BYTES = 1024;
const DISPATCH_BATCH = 500;
const SEND_BATCH = 20;

const WEBHOOK_PLANS = PLAN_NAMES.filter((name) => PLANS[name].webhooks);

async function dispatchPosition(db: Db, lock = false): Promise<EventPosition> {
  const q = db('webhook_dispatch').where({ id: 1 });
  const row = await (lock ? q.forUpdate() : q).first();
  return row ? { tx: String(row.tx), seq: Number(row.seq) } : START;
}

/** Turns settled events into deliveries, a batch per transaction; answers how many events it passed. */
export async function dispatchWebhookEvents(db: Db, batch = DISPATCH_BATCH): Promise<number> {
  // A look without a lock first: an idle instance takes no write lock every pass (SQLite has one for everything).
  if (!(await readEvents(db, { after: await dispatchPosition(db), limit: 1 })).length) return 0;
  return db.transaction(async (trx) => {
    const after = await dispatchPosition(trx, true);
    const events = await readEvents(trx, { after, limit: batch });
    if (!events.length) return 0;
    // A workspace whose plan no longer has webhooks (a downgrade) keeps them, but nothing is sent.
    const hooks = await trx('webhooks')
      .join('workspaces', 'workspaces.id', 'webhooks.workspace_id')
      .whereIn('webhooks.workspace_id', [...new Set(events.map((e) => e.workspaceId))])
      .whereIn('workspaces.plan', WEBHOOK_PLANS)
      .where('webhooks.enabled', true)
      .select('webhooks.id', 'webhooks.workspace_id', 'webhooks.events', 'webhooks.created_at');
    const rows = events.flatMap((event) =>
      hooks
        .filter(
          (h) =>
            h.workspace_id === event.workspaceId &&
            h.created_at <= event.createdAt &&
            (JSON.parse(h.events) as string[]).includes(event.type),
        )
        // The event's object is read when sent (as the feed reads it), so the row names the event only.
        .map((h) =>
          pendingDelivery(
            { id: h.id, workspaceId: h.workspace_id },
            { id: event.id, type: event.type },
            event.createdAt,
          ),
        ),
    );
    for (let i = 0; i < rows.length; i += 200)
      await trx('webhook_deliveries')
        .insert(rows.slice(i, i + 200))
        .onConflict(['webhook_id', 'event_id'])
        .ignore();
    const last = events.at(-1)!.position;
    await trx('webhook_dispatch').where({ id: 1 }).update({ tx: last.tx, seq: last.seq });
    return events.length;
  });
}

/** A delivery this process holds, until `leaseUntil`. */
export interface Claim {
  id: string;
  leaseUntil: string;
}

/** Due deliveries of enabled webhooks this process now holds the lease of (another process's update loses). */
export async function claimDueDeliveries(db: Db, nowMs: number, limit = SEND_BATCH): Promise<Claim[]> {
  const now = isoAt(nowMs);
  const leaseUntil = isoAt(nowMs + WEBHOOK_LEASE_MS);
  const free = (q: any) => q.where((w: any) => w.whereNull('lease_until').orWhere('lease_until', '<', now));
  const candidates = await free(
    db('webhook_deliveries')
      .join('webhooks', 'webhooks.id', 'webhook_deliveries.webhook_id')
      .where('webhooks.enabled', true)
      .where('webhook_deliveries.status', 'pending')
      .where('webhook_deliveries.next_attempt_at', '<=', now),
  )
    .orderBy('webhook_deliveries.next_attempt_at')
    .limit(limit)
    .select('webhook_deliveries.id');
  if (!candidates.length) return [];
  // One statement: of several processes updating the same rows, only the first finds each still free.
  const claimed: { id: string }[] = await free(
    db('webhook_deliveries')
      .whereIn(
        'id',
        candidates.map((c: { id: string }) => c.id),
      )
      .where({ status: 'pending' }),
  ).update({ lease_until: leaseUntil }, ['id']);
  return claimed.map(({ id }) => ({ id, leaseUntil }));
}

/**
 * What each receiver gets: `{type, timestamp, data}`, data the event's object as GET /events shows it, read for a
 * batch of deliveries at once (one read of each workspace's accounts, its posts together).
 */
async function deliveryBodies(services: Services, deliveries: Record<string, any>[]): Promise<Map<string, string>> {
  const bodies = new Map<string, string>();
  const body = (d: Record<string, any>, data: unknown) =>
    JSON.stringify({ type: d.type, timestamp: d.created_at, data });
  const named = deliveries.filter((d) => d.payload === null || d.payload === undefined);
  for (const d of deliveries) if (!named.includes(d)) bodies.set(d.id, body(d, JSON.parse(d.payload)));
  const events = new Map(
    (
      await findEvents(
        services.db,
        named.map((d) => d.event_id),
      )
    ).map((e) => [e.id, e]),
  );
  for (const workspaceId of new Set(named.map((d) => d.workspace_id as string))) {
    const workspace = await findWorkspace(services.db, workspaceId);
    const theirs = named.filter((d) => d.workspace_id === workspaceId);
    const found = theirs.flatMap((d) => events.get(d.event_id) ?? []);
    const objects = workspace
      ? await withObjects(workspaceData(services.db, workspace, services.clock), services.storage, workspace.tz, found)
      : [];
    const byId = new Map(objects.map((o) => [o.id, o]));
    // An event past its 30 days (a delivery redelivered late) is sent with what is left of it.
    for (const d of theirs)
      bodies.set(
        d.id,
        body(d, byId.get(d.event_id) ?? { id: d.event_id, type: d.type, objectId: '', createdAt: d.created_at }),
      );
  }
  return bodies;
}

/** The signatures of the webhook's secrets: the current one, and during a rotation the previous one too. */
function signatures(services: Services, hook: Record<string, any>, msgId: string, at: Date, body: string): string {
  const secrets = [hook.secret_sealed];
  if (hook.previous_secret_sealed && Date.parse(hook.previous_secret_until) > services.clock.now())
    secrets.push(hook.previous_secret_sealed);
  return secrets.map((s) => new Webhook(openWebhookSecret(services.keyring, s)).sign(msgId, at, body)).join(' ');
}

interface Answer {
  status: number | null;
  body: string;
  ms: number;
}

/** One POST, no redirect followed; keeps the answer's status and first KB, or why none came. */
async function post(services: Services, url: string, headers: Record<string, string>, body: string): Promise<Answer> {
  const started = performance.now();
  const policy = webhookPolicy(services.config);
  const signal = AbortSignal.timeout(SEND_TIMEOUT_MS);
  const took = () => Math.round(performance.now() - started);
  try {
    const res = await guardedRequest(
      guardedUrl(url, policy),
      policy,
      { method: 'POST', headers, body },
      signal,
      Date.now() + SEND_TIMEOUT_MS,
    );
    const kept: Buffer[] = [];
    let size = 0;
    for await (const chunk of res) {
      kept.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      if (size >= KEPT_BYTES) break;
    }
    res.destroy();
    return {
      status: res.statusCode ?? null,
      body: Buffer.concat(kept).subarray(0, KEPT_BYTES).toString('utf8'),
      ms: took(),
    };
  } catch (err) {
    const why = signal.aborted ? `no answer within ${SEND_TIMEOUT_MS / 1000} seconds` : describeFailure(err);
    return { status: null, body: why.slice(0, KEPT_BYTES), ms: took() };
  }
}

/** Disables the webhook once (the first process to do it mails) and tells its owner and administrators. */
async function giveUp(services: Services, hook: Record<string, any>): Promise<void> {
  const reason =
    `Every attempt of a delivery failed over about three days (${services.config.webhooks.retryDelaysMs.length + 1} ` +
    'attempts); ' +
    'fix the receiver, then enable the webhook again.';
  const changed = await services
    .db('webhooks')
    .where({ id: hook.id, enabled: true })
    .update({ enabled: false, disabled_reason: reason });
  if (!changed) return;
  const people = (await listMembers(services.db, hook.workspace_id)).filter(
    (m) => m.email && (m.role === 'owner' || m.role === 'administrator'),
  );
  for (const person of people) {
    await services.mailer.send({
      to: person.email!,
      subject: 'Herald disabled a webhook',
      text:
        `Herald disabled the webhook ${hook.id} (${hook.url}): ${reason}\n\n` +
        `Its delivery log and the switch to enable it again are in Settings, Webhooks: ${services.config.publicUrl}` +
        '/app/settings/webhooks',
    });
  }
}

/**
 * Sends claimed deliveries and records what came of each, both only while its claim holds: a sender whose lease ran
 * out (a stalled process) must not send what another process now holds, nor overwrite the answer that one recorded.
 */
export async function sendDeliveries(services: Services, claims: Claim[]): Promise<void> {
  const { db } = services;
  const leases = new Map(claims.map((c) => [c.id, c.leaseUntil]));
  const deliveries = (await db('webhook_deliveries').whereIn('id', [...leases.keys()])).filter(
    (d) => d.lease_until === leases.get(d.id),
  );
  const hooks = new Map(
    (await db('webhooks').whereIn('id', [...new Set(deliveries.map((d) => d.webhook_id))])).map((h) => [h.id, h]),
  );
  const bodies = await deliveryBodies(services, deliveries);
  const outcomes = await Promise.all(
    deliveries.map((d) => sendOne(services, d, hooks.get(d.webhook_id)!, bodies.get(d.id)!)),
  );
  // The batch's answers in one transaction: a commit each would cost SQLite's single writer more than the sends.
  const recorded = await db.transaction(async (trx) => {
    const kept: boolean[] = [];
    for (const { delivery, changes } of outcomes)
      kept.push(
        (await trx('webhook_deliveries')
          .where({ id: delivery.id, lease_until: leases.get(delivery.id)! })
          .update(changes)) > 0,
      );
    return kept;
  });
  for (const [i, { hook, last }] of outcomes.entries()) if (recorded[i] && last) await giveUp(services, hook);
}

/** One POST; answers the delivery row's changes, and whether that was the last attempt. */
async function sendOne(services: Services, delivery: Record<string, any>, hook: Record<string, any>, body: string) {
  // The timestamp is the wall clock's: the receiver judges it against its own (runtime/clock.ts).
  const at = new Date();
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'Herald webhooks',
    'webhook-id': delivery.event_id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatures(services, hook, delivery.event_id, at, body),
  };
  const answer = await post(services, hook.url, headers, body);
  const attempts = Number(delivery.attempts) + 1;
  const ok = answer.status !== null && answer.status >= 200 && answer.status < 300;
  const delays = services.config.webhooks.retryDelaysMs;
  const last = !ok && attempts > delays.length;
  const changes = {
    status: ok ? 'delivered' : last ? 'failed' : 'pending',
    attempts,
    next_attempt_at: ok || last ? null : isoAt(services.clock.now() + delays[attempts - 1]!),
    lease_until: null,
    response_status: answer.status,
    response_body: answer.body,
    duration_ms: answer.ms,
  };
  return { delivery, hook, last, changes };
}

export interface WebhookDelivery {
  /** One pass: dispatch every settled event, then send every due delivery. Passes of a process never overlap. */
  pass(): Promise<void>;
  stop(): Promise<void>;
}

/** Delivery on a timer (real time: it only looks for work; what is due is the injected clock's to say). */
export function startWebhookDelivery(services: Services, everyMs = 250): WebhookDelivery {
  let running: Promise<void> = Promise.resolve();
  async function passOnce(): Promise<void> {
    while ((await dispatchWebhookEvents(services.db)) > 0);
    for (;;) {
      const claimed = await claimDueDeliveries(services.db, services.clock.now());
      if (!claimed.length) return;
      await sendDeliveries(services, claimed);
    }
  }
  const pass = () =>
    (running = running.then(passOnce).catch((err) => services.logger.error({ err }, 'webhook delivery pass failed')));
  const timer = setInterval(() => void pass(), everyMs);
  return {
    pass,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
