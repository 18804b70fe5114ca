// Webhooks (Studio plan and above): where the workspace's events are POSTed, signed with a secret Herald makes and
// shows only when it is made. Sending is the worker's (worker/webhookSender.ts); here they are managed and logged.
import { notFound } from '../domain/errors.ts';
import { readCursor, writeCursor } from '../domain/cursor.ts';
import { assertWebhooksAllowed } from '../domain/quotas.ts';
import type { DeliveryPosition } from '../db/webhooksData.ts';
import type { WorkspaceData } from '../db/workspaceData.ts';
import { checkWebhookUrl, newWebhookSecret, sealWebhookSecret } from '../runtime/webhookPolicy.ts';
import type { Handler } from './types.ts';

/** How long a rotated-out secret keeps signing beside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 3600_000;

/** The webhook, on a plan that has webhooks; else quota_exceeded or not_found. */
async function existing(data: WorkspaceData, webhookId: string) {
  assertWebhooksAllowed(data.workspace.plan);
  const webhook = await data.webhooks.get(webhookId);
  if (!webhook) throw notFound('webhook', webhookId);
  return webhook;
}

const deliveryPosition = (position: unknown): DeliveryPosition | undefined => {
  const { c, i } = (position ?? {}) as { c?: unknown; i?: unknown };
  return typeof c === 'string' && typeof i === 'string' && c.length < 40 && i.length < 40
    ? { createdAt: c, id: i }
    : undefined;
};

export const listWebhooks: Handler<'listWebhooks'> = async ({ data }) => {
  assertWebhooksAllowed(data.workspace.plan);
  return { status: 200, body: { webhooks: await data.webhooks.list() } };
};

export const createWebhook: Handler<'createWebhook'> = async ({ data, body, services }) => {
  assertWebhooksAllowed(data.workspace.plan);
  const url = await checkWebhookUrl(body.url, services.config);
  const secret = newWebhookSecret();
  const webhook = await data.webhooks.create({
    url,
    events: body.events,
    secretSealed: sealWebhookSecret(services.keyring, secret),
  });
  return { status: 201, body: { ...webhook, secret } };
};

export const getWebhook: Handler<'getWebhook'> = async ({ data, params }) => ({
  status: 200,
  body: await existing(data, params.webhookId),
});

export const updateWebhook: Handler<'updateWebhook'> = async ({ data, params, body, services }) => {
  await existing(data, params.webhookId);
  const url = body.url === undefined ? undefined : await checkWebhookUrl(body.url, services.config);
  const webhook = await data.webhooks.update(params.webhookId, { ...body, url });
  if (!webhook) throw notFound('webhook', params.webhookId);
  return { status: 200, body: webhook };
};

export const deleteWebhook: Handler<'deleteWebhook'> = async ({ data, params }) => {
  await existing(data, params.webhookId);
  if (!(await data.webhooks.remove(params.webhookId))) throw notFound('webhook', params.webhookId);
  return { status: 200, body: { id: params.webhookId, deleted: true } };
};

export const rotateWebhookSecret: Handler<'rotateWebhookSecret'> = async ({ data, params, services }) => {
  await existing(data, params.webhookId);
  const secret = newWebhookSecret();
  const until = new Date(services.clock.now() + ROTATION_OVERLAP_MS).toISOString();
  const webhook = await data.webhooks.rotate(params.webhookId, sealWebhookSecret(services.keyring, secret), until);
  if (!webhook) throw notFound('webhook', params.webhookId);
  return { status: 200, body: { ...webhook, secret } };
};

export const testWebhook: Handler<'testWebhook'> = async ({ data, params }) => {
  await existing(data, params.webhookId);
  return { status: 202, body: await data.webhooks.deliveries.addTest(params.webhookId) };
};

export const listWebhookDeliveries: Handler<'listWebhookDeliveries'> = async ({ data, params, query }) => {
  await existing(data, params.webhookId);
  const after = query.cursor ? readCursor(query.cursor, deliveryPosition) : undefined;
  const { page, more } = await data.webhooks.deliveries.list(params.webhookId, after, query.limit ?? 50);
  const last = page.at(-1);
  return {
    status: 200,
    body: {
      deliveries: page,
      nextCursor: more && last ? writeCursor({ c: last.createdAt, i: last.id }) : null,
    },
  };
};

export const redeliverWebhookDelivery: Handler<'redeliverWebhookDelivery'> = async ({ data, params }) => {
  await existing(data, params.webhookId);
  const delivery = await data.webhooks.deliveries.redeliver(params.webhookId, params.deliveryId);
  if (!delivery) throw notFound('delivery', params.deliveryId);
  return { status: 202, body: delivery };
};
