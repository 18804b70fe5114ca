// Webhook delivery, at least once and never lost. Two steps, both safe with several processes on one database, each
// on its own loop so that neither waits for the other:
//
// - Dispatch: one position in the events (the single `webhook_dispatch` row, db/events.ts explains the order) is
//   read under a row lock, the settled events after it become one delivery row per webhook subscribed and enabled
//   when the event happened (however late the dispatcher runs), and the position moves, all in one transaction: a
//   second process waits for the lock and starts where the first ended, and the unique (webhook_id, event_id) pair
//   refuses a duplicate whatever happens.
// - Send: a due delivery is claimed by a conditional update that sets its lease (only one process's update matches),
//   POSTed signed (standardwebhooks) through the from-url address guard, and its answer recorded as soon as it came.
//   Sends are fair: a process has SEND_BUDGET sends in flight, at most PER_WEBHOOK to one webhook and PER_WORKSPACE
//   for one workspace, and a slot frees as its send ends, so receivers that hold requests open (up to the 10 s cut)
//   slow their own webhook's deliveries only. A failure is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h
//   by the injected clock; after the last, the webhook is disabled and the workspace's owner and administrators are
//   told by mail. A process that dies mid-send leaves a lease that runs out: the delivery is sent again, with the
//   same webhook-id; a sender that only stalled past its lease then neither sends nor records (the new holder's
//   answer stands).
import { performance } from 'node:perf_hooks';
import { Webhook } from 'standardwebhooks';
import { findEvents, readEvents, START, type EventPosition } from '../db/events.ts';
import { findWorkspace } from '../db/identity.ts';
import { listMembers } from '../db/members.ts';
import {
  ATTEMPT_BODY_KEPT,
  ATTEMPTS_KEPT,
  pendingDelivery,
  retiredSecrets,
  switchWebhook,
  type DeliveryAttempt,
} from '../db/webhooksData.ts';
import { workspaceData } from '../db/workspaceData.ts';
import type { Db } from '../db/connect.ts';
import { PLAN_NAMES, PLANS } from '../domain/plans.ts';
import { withObjects } from '../handlers/events.ts';
import {
  describeFailure,
  guardedRequest,
  guardedUrl,
  noAnswerOf,
  type NoAnswerReason,
  UrlNotAllowed,
} from '../media/fromUrl.ts';
import type { Services } from '../runtime/services.ts';
import { openWebhookSecret, refusedSend, webhookPolicy } from '../runtime/webhookPolicy.ts';
import { isoAt } from '../runtime/clock.ts';
import { WEBHOOK_RETRY_DELAYS_S } from '../runtime/config.ts';

/**
 * The waits after each failed attempt: about three days in all, then the webhook is disabled (the default of
 * WEBHOOK_RETRY_DELAYS_SECONDS, which benchmarks shorten).
 */
export const WEBHOOK_RETRY_DELAYS_MS = WEBHOOK_RETRY_DELAYS_S.map((s) => s * 1000);
export const SEND_TIMEOUT_MS = 10_000;
/**
 * A claim outlives the longest send (a send starts as it is claimed and is cut at SEND_TIMEOUT_MS), so a live sender
 * never loses its delivery to another; a sender killed mid-send holds its deliveries back this long (the chaos run
 * counts the wait).
 */
export const WEBHOOK_LEASE_MS = 30_000;
/** Sends a process has in flight at once, to all receivers. */
export const SEND_BUDGET = 100;
/** Of those, at most this many to one webhook, and for one workspace's webhooks together. */
export const PER_WEBHOOK = 10;
export const PER_WORKSPACE = 20;
const KEPT_BYTES = 1024;
const DISPATCH_BATCH = 500;
const CLAIM_BATCH = 20;

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
    // A workspace whose plan no longer has webhooks (a downgrade) keeps them, but nothing is sent. A webhook off now
    // still gets what happened while it was on (sent once it is on again), never what happened while it was off.
    const hooks = await trx('webhooks')
      .join('workspaces', 'workspaces.id', 'webhooks.workspace_id')
      .whereIn('webhooks.workspace_id', [...new Set(events.map((e) => e.workspaceId))])
      .whereIn('workspaces.plan', WEBHOOK_PLANS)
      .select('webhooks.id', 'webhooks.workspace_id', 'webhooks.events', 'webhooks.created_at');
    const pauses = await trx('webhook_pauses').whereIn(
      'webhook_id',
      hooks.map((h) => h.id),
    );
    const off = (hookId: string, at: string) =>
      pauses.some((p) => p.webhook_id === hookId && p.from <= at && (p.until === null || at < p.until));
    const rows = events.flatMap((event) =>
      hooks
        .filter(
          (h) =>
            h.workspace_id === event.workspaceId &&
            h.created_at <= event.createdAt &&
            !off(h.id, event.createdAt) &&
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
  webhookId: string;
  workspaceId: string;
  leaseUntil: string;
}

/** This process's sends in flight, by webhook and by workspace. */
export interface InFlight {
  webhooks: Map<string, number>;
  workspaces: Map<string, number>;
}

const nothingInFlight = (): InFlight => ({ webhooks: new Map(), workspaces: new Map() });

/**
 * Due deliveries of enabled webhooks this process now holds the lease of (another process's update loses), oldest
 * due first, skipping webhooks and workspaces that already have their share of sends in flight.
 */
export async function claimDueDeliveries(
  db: Db,
  nowMs: number,
  limit = CLAIM_BATCH,
  inFlight: InFlight = nothingInFlight(),
): Promise<Claim[]> {
  const now = isoAt(nowMs);
  const leaseUntil = isoAt(nowMs + WEBHOOK_LEASE_MS);
  const free = (q: any) => q.where((w: any) => w.whereNull('lease_until').orWhere('lease_until', '<', now));
  const full = (counts: Map<string, number>, cap: number) => [...counts].filter(([, n]) => n >= cap).map(([id]) => id);
  const candidates: { id: string; webhook_id: string; workspace_id: string }[] = await free(
    db('webhook_deliveries')
      .join('webhooks', 'webhooks.id', 'webhook_deliveries.webhook_id')
      .where('webhooks.enabled', true)
      .where('webhook_deliveries.status', 'pending')
      .where('webhook_deliveries.next_attempt_at', '<=', now)
      .whereNotIn('webhook_deliveries.webhook_id', full(inFlight.webhooks, PER_WEBHOOK))
      .whereNotIn('webhook_deliveries.workspace_id', full(inFlight.workspaces, PER_WORKSPACE)),
  )
    .orderBy('webhook_deliveries.next_attempt_at')
    .limit(limit)
    .select('webhook_deliveries.id', 'webhook_deliveries.webhook_id', 'webhook_deliveries.workspace_id');
  // Within the shares, counting what this claim adds.
  const hooks = new Map(inFlight.webhooks);
  const workspaces = new Map(inFlight.workspaces);
  const taken = candidates.filter((c) => {
    const [h, w] = [hooks.get(c.webhook_id) ?? 0, workspaces.get(c.workspace_id) ?? 0];
    if (h >= PER_WEBHOOK || w >= PER_WORKSPACE) return false;
    hooks.set(c.webhook_id, h + 1);
    workspaces.set(c.workspace_id, w + 1);
    return true;
  });
  if (!taken.length) return [];
  // One statement: of several processes updating the same rows, only the first finds each still free.
  const claimed: { id: string }[] = await free(
    db('webhook_deliveries')
      .whereIn(
        'id',
        taken.map((c) => c.id),
      )
      .where({ status: 'pending' }),
  ).update({ lease_until: leaseUntil }, ['id']);
  const byId = new Map(taken.map((c) => [c.id, c]));
  return claimed.map(({ id }) => ({
    id,
    webhookId: byId.get(id)!.webhook_id,
    workspaceId: byId.get(id)!.workspace_id,
    leaseUntil,
  }));
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

/**
 * The signatures of the webhook's secrets, space-separated as Standard Webhooks allows: the current one, and every
 * secret rotated out in the last 24 hours.
 */
function signatures(services: Services, hook: Record<string, any>, msgId: string, at: Date, body: string): string {
  const retired = retiredSecrets(hook, isoAt(services.clock.now())).map((s) => s.sealed);
  return [hook.secret_sealed, ...retired]
    .map((s) => new Webhook(openWebhookSecret(services.keyring, s)).sign(msgId, at, body))
    .join(' ');
}

interface Answer {
  status: number | null;
  body: string;
  ms: number;
  /** Why no answer came, when none did. */
  noAnswer?: NoAnswerReason;
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
    // A refused address is told as a host that is not public: the address it resolved to stays unsaid.
    const why = signal.aborted
      ? `no answer within ${SEND_TIMEOUT_MS / 1000} seconds`
      : err instanceof UrlNotAllowed
        ? refusedSend(url)
        : describeFailure(err);
    const noAnswer = signal.aborted ? 'timeout' : noAnswerOf(err);
    return { status: null, body: why.slice(0, KEPT_BYTES), ms: took(), noAnswer };
  }
}

/** Disables the webhook once (the first process to do it mails) and tells its owner and administrators. */
async function giveUp(services: Services, hook: Record<string, any>): Promise<void> {
  const reason =
    `Every attempt of a delivery failed over about three days (${services.config.webhooks.retryDelaysMs.length + 1} ` +
    'attempts); ' +
    'fix the receiver, then enable the webhook again.';
  const at = isoAt(services.clock.now());
  if (!(await services.db.transaction((trx) => switchWebhook(trx, hook.id, false, at, reason)))) return;
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

type Outcome = Awaited<ReturnType<typeof sendOne>>;
/** Records an attempt's outcome if the lease it was sent under still holds; answers whether it did. */
export type Recorder = (outcome: Outcome, leaseUntil: string) => Promise<boolean>;

/**
 * Records outcomes as they come, each batch in one transaction (a commit each would cost SQLite's single writer more
 * than the sends): what arrives while one batch is written goes in the next, so no outcome waits for another's send.
 */
export function outcomeRecorder(db: Db): Recorder {
  type Waiting = { outcome: Outcome; leaseUntil: string; done: (kept: boolean) => void; failed: (e: unknown) => void };
  let queue: Waiting[] = [];
  let writing = false;
  async function write(): Promise<void> {
    writing = true;
    while (queue.length) {
      const batch = queue;
      queue = [];
      try {
        const kept = await db.transaction(async (trx) => {
          const out: boolean[] = [];
          for (const { outcome, leaseUntil } of batch)
            out.push(
              (await trx('webhook_deliveries')
                .where({ id: outcome.delivery.id, lease_until: leaseUntil })
                .update(outcome.changes)) > 0,
            );
          return out;
        });
        for (const [i, w] of batch.entries()) w.done(kept[i]!);
      } catch (err) {
        for (const w of batch) w.failed(err);
      }
    }
    writing = false;
  }
  return (outcome, leaseUntil) =>
    new Promise((done, failed) => {
      queue.push({ outcome, leaseUntil, done, failed });
      if (!writing) void write();
    });
}

/**
 * Sends claimed deliveries, each on its own: its answer is recorded (and `settled` called) as soon as it came, not
 * after the slowest of the others. Sending and recording happen only while the claim holds: a sender whose lease ran
 * out (a stalled process) must not send what another process now holds, nor overwrite the answer that one recorded.
 */
export async function sendDeliveries(
  services: Services,
  claims: Claim[],
  record: Recorder = outcomeRecorder(services.db),
  settled: (claim: Claim) => void = () => undefined,
  /** Called once the deliveries, their webhooks and their bodies are read, before any is sent. */
  read: () => void = () => undefined,
): Promise<void> {
  const { db } = services;
  let deliveries: Map<string, Record<string, any>>;
  let hooks: Map<string, Record<string, any>>;
  let bodies: Map<string, string>;
  try {
    const leases = new Map(claims.map((c) => [c.id, c.leaseUntil]));
    const rows = (await db('webhook_deliveries').whereIn('id', [...leases.keys()])).filter(
      (d) => d.lease_until === leases.get(d.id),
    );
    deliveries = new Map(rows.map((d) => [d.id, d]));
    const hookRows = await db('webhooks').whereIn('id', [...new Set(rows.map((d) => d.webhook_id))]);
    hooks = new Map(hookRows.map((h) => [h.id, h]));
    bodies = await deliveryBodies(services, rows);
  } catch (err) {
    for (const claim of claims) settled(claim);
    throw err;
  } finally {
    read();
  }
  await Promise.all(
    claims.map(async (claim) => {
      try {
        const delivery = deliveries.get(claim.id);
        const hook = delivery && hooks.get(delivery.webhook_id);
        if (!delivery || !hook) return;
        const outcome = await sendOne(services, delivery, hook, bodies.get(delivery.id)!);
        if ((await record(outcome, claim.leaseUntil)) && outcome.last) await giveUp(services, hook);
      } catch (err) {
        // The lease runs out and the delivery is sent again.
        services.logger.error({ err, deliveryId: claim.id }, 'webhook delivery not recorded');
      } finally {
        settled(claim);
      }
    }),
  );
}

/** One POST; answers the delivery row's changes, and whether that was the last attempt of its round. */
async function sendOne(services: Services, delivery: Record<string, any>, hook: Record<string, any>, body: string) {
  // The timestamp is the wall clock's: the receiver judges it against its own (runtime/clock.ts).
  const at = new Date();
  const startedAt = isoAt(services.clock.now());
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'Herald webhooks',
    'webhook-id': delivery.event_id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatures(services, hook, delivery.event_id, at, body),
  };
  const answer = await post(services, hook.url, headers, body);
  const attempts = Number(delivery.attempts) + 1;
  // A redelivery starts a new round of retries; the attempts before it stay counted and logged.
  const ofRound = attempts - Number(delivery.retry_base ?? 0);
  const ok = answer.status !== null && answer.status >= 200 && answer.status < 300;
  const delays = services.config.webhooks.retryDelaysMs;
  const last = !ok && ofRound > delays.length;
  const logged: DeliveryAttempt = {
    attempt: attempts,
    at: startedAt,
    responseStatus: answer.status,
    responseBody: answer.body.slice(0, ATTEMPT_BODY_KEPT),
    durationMs: answer.ms,
    ...(answer.noAnswer ? { noAnswer: answer.noAnswer } : {}),
  };
  const log: DeliveryAttempt[] = delivery.attempt_log ? JSON.parse(delivery.attempt_log) : [];
  const changes = {
    status: ok ? 'delivered' : last ? 'failed' : 'pending',
    attempts,
    next_attempt_at: ok || last ? null : isoAt(services.clock.now() + delays[ofRound - 1]!),
    lease_until: null,
    response_status: answer.status,
    response_body: answer.body,
    duration_ms: answer.ms,
    attempt_log: JSON.stringify([...log, logged].slice(-ATTEMPTS_KEPT)),
  };
  return { delivery, hook, last, changes };
}

export interface WebhookDelivery {
  /**
   * Dispatches every settled event, then sends every due delivery, and answers once those sends are recorded (tests
   * drive delivery with it). Runs beside the timer's work and other passes.
   */
  pass(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Delivery on a timer (real time: it only looks for work; what is due is the injected clock's to say): dispatch on a
 * loop of its own, and sends that start whenever a slot is free, within this process's shares (claimDueDeliveries).
 */
export function startWebhookDelivery(services: Services, everyMs = 250): WebhookDelivery {
  const { db, logger } = services;
  const inFlight = nothingInFlight();
  const sends = new Set<Promise<void>>();
  const record = outcomeRecorder(db);
  let sending = 0;
  let stopped = false;

  // Dispatches run one after another; the timer adds one only when none is waiting.
  let dispatching = Promise.resolve();
  let dispatchesQueued = 0;
  const dispatch = () => {
    dispatchesQueued += 1;
    dispatching = dispatching.then(async () => {
      try {
        while ((await dispatchWebhookEvents(db)) > 0);
      } catch (err) {
        logger.error({ err }, 'webhook dispatch failed');
      } finally {
        dispatchesQueued -= 1;
      }
    });
    return dispatching;
  };

  const count = (counts: Map<string, number>, id: string, by: number) => {
    const n = (counts.get(id) ?? 0) + by;
    if (n) counts.set(id, n);
    else counts.delete(id);
  };
  const hold = (claim: Claim, by: 1 | -1) => {
    sending += by;
    count(inFlight.webhooks, claim.webhookId, by);
    count(inFlight.workspaces, claim.workspaceId, by);
  };
  /** Claims and starts sends while slots are free and deliveries due. */
  async function fillOnce(): Promise<void> {
    while (!stopped && sending < SEND_BUDGET) {
      const room = Math.min(SEND_BUDGET - sending, CLAIM_BATCH);
      const claims = await claimDueDeliveries(db, services.clock.now(), room, inFlight);
      if (!claims.length) return;
      for (const claim of claims) hold(claim, 1);
      let read: () => void = () => undefined;
      const reading = new Promise<void>((resolve) => {
        read = resolve;
      });
      const settled = (claim: Claim) => {
        hold(claim, -1);
        void fill();
      };
      const sent = sendDeliveries(services, claims, record, settled, read).catch((err) =>
        logger.error({ err }, 'webhook deliveries not sent'),
      );
      sends.add(sent);
      void sent.finally(() => sends.delete(sent));
      // One batch read at a time: the sender holds few of the pool's connections, whatever is in flight.
      await reading;
    }
  }
  // One filler at a time; a call meanwhile (a slot freed) has it look once more when it ends.
  let filling: Promise<void> | undefined;
  let again = false;
  const fill = (): Promise<void> => {
    if (filling) {
      again = true;
      return filling;
    }
    filling = (async () => {
      do {
        again = false;
        await fillOnce().catch((err) => logger.error({ err }, 'webhook deliveries not claimed'));
      } while (again && !stopped);
      filling = undefined;
    })();
    return filling;
  };

  // Sends start at once, and again once a dispatch made new deliveries.
  const timer = setInterval(() => {
    void fill();
    if (!dispatchesQueued) void dispatch().then(fill);
  }, everyMs);
  return {
    async pass() {
      await dispatch();
      for (;;) {
        await fill();
        if (!sends.size) return;
        await Promise.all(sends);
      }
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await dispatching;
      await filling;
      await Promise.all(sends);
    },
  };
}
