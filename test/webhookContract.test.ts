// Deliveries as the contract describes them: a real receiver gets one delivery of every event type (and a test
// delivery), each verified with standardwebhooks, and each body and its Standard Webhooks headers validate against
// the contract's `webhooks` entry for its type (openapi.yaml, read with ajv as a generated client would type it).
// Both databases.
import fs from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { EVENT_TYPES, recordEvents } from '../db/events.ts';
import { startWorker, type RunningWorker } from '../worker/worker.ts';
import { call, DATABASES, seedWorkspace, type Seeded } from './support/harness.ts';
import { listeningHerald, sandboxAccount } from './support/network.ts';
import { until } from './support/waiting.ts';
import { seedMedia } from './support/posts.ts';
import { webhookReceiver, type Received, type WebhookReceiver } from './support/webhookReceiver.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

interface Parameter {
  $ref: string;
}

/** The contract's validators of one delivery type: its body, and each of its headers. */
function deliveryValidators(contract: Record<string, any>) {
  const ajv = addFormats(new Ajv({ allErrors: true, strict: false }));
  ajv.addSchema(contract, 'contract');
  const at = (pointer: string) => ajv.compile({ $ref: `contract#${pointer}` });
  const validators = new Map<string, { body: ValidateFunction; headers: [string, ValidateFunction][] }>();
  for (const [type, item] of Object.entries(contract.webhooks as Record<string, any>)) {
    const headers = (item.post.parameters as Parameter[]).map((p): [string, ValidateFunction] => {
      const name = p.$ref.split('/').at(-1)!;
      return [contract.components.parameters[name].name, at(`/components/parameters/${name}/schema`)];
    });
    validators.set(type, {
      body: at(`/webhooks/${type}/post/requestBody/content/application~1json/schema`),
      headers,
    });
  }
  return validators;
}

describe.each(DATABASES)('webhook deliveries against the contract on %s', (kind) => {
  const contract = parse(fs.readFileSync(new URL('../openapi.yaml', import.meta.url), 'utf8'));
  const validators = deliveryValidators(contract);
  let env: Awaited<ReturnType<typeof listeningHerald>>;
  let ws: Seeded;
  let worker: RunningWorker;
  let rx: WebhookReceiver;

  beforeAll(async () => {
    env = await listeningHerald(kind, { webhooks: { allowHosts: ['127.0.0.1'], retryDelaysMs: [1000] } });
    ws = await seedWorkspace(env, { plan: 'studio' });
    worker = await startWorker(env.services, { webhookEveryMs: 3600_000 });
    rx = await webhookReceiver();
  });
  afterAll(async () => {
    await worker.stop();
    await rx.close();
    await env.close();
  });

  /** What the contract finds wrong with a delivery: its type's body schema, then each header's. */
  function problems(got: Received): string[] {
    const found = validators.get(got.body.type);
    if (!found) return [`${got.body.type}: no webhooks entry in the contract`];
    const wrong = found.body(got.body)
      ? []
      : (found.body.errors ?? []).map((e) => `${got.body.type} body${e.instancePath} ${e.message}`);
    for (const [name, validate] of found.headers)
      if (!validate(got.headers[name])) wrong.push(`${got.body.type} header ${name}: ${got.headers[name]}`);
    return wrong;
  }

  it('names one delivery per event type, and the test delivery', () => {
    expect(Object.keys(contract.webhooks).sort()).toEqual([...EVENT_TYPES, 'webhook.test'].sort());
    expect(contract.components.schemas.EventType.enum).toEqual([...EVENT_TYPES]);
  });

  it('sends deliveries of every type that validate against their webhooks entry, a deleted post its post', async () => {
    const made = await call(env, 'post', '/v1/webhooks', {
      key: ws.writeKey,
      body: { url: rx.url, events: [...EVENT_TYPES] },
    });
    expect(made.status).toBe(201);
    rx.state.secrets = [made.body.secret];
    // Real changes: a post that goes live, a draft edited then deleted.
    const account = await sandboxAccount(env, ws.workspaceId, 'threads');
    const post = (text: string, when: unknown) =>
      call(env, 'post', '/v1/posts', {
        key: ws.writeKey,
        body: { targets: { accountIds: [account.id] }, mediaIds: [], text, when, confirm: true },
      }).then((r) => r.body.posts[0].id as string);
    const liveId = await post('Typed deliveries', 'now');
    await until(
      () => call(env, 'get', `/v1/posts/${liveId}`, { key: ws.readKey }).then((r) => r.body.status),
      (status) => status === 'live',
    );
    const draftId = await post('Soon gone', 'draft');
    expect((await call(env, 'patch', `/v1/posts/${draftId}`, { key: ws.writeKey, body: { tags: ['x'] } })).status).toBe(
      200,
    );
    expect((await call(env, 'delete', `/v1/posts/${draftId}?confirm=true`, { key: ws.writeKey })).status).toBe(200);
    // Each other type once, naming a real object of its kind.
    const mediaId = await seedMedia(env, ws.workspaceId);
    const seen = new Set([
      'post.created',
      'post.queued',
      'post.publishing',
      'post.live',
      'post.updated',
      'post.deleted',
    ]);
    const objectOf = (type: string) =>
      type.startsWith('post.') ? liveId : type.startsWith('media.') ? mediaId : account.id;
    await recordEvents(
      env.services.db,
      EVENT_TYPES.filter((type) => !seen.has(type)).map((type) => ({
        workspaceId: ws.workspaceId,
        type,
        objectId: objectOf(type),
      })),
      new Date().toISOString(),
    );
    expect((await call(env, 'post', `/v1/webhooks/${made.body.id}/test`, { key: ws.writeKey })).status).toBe(202);

    const got = await until(
      async () => {
        await worker.webhooks.pass();
        return rx.got;
      },
      (all) => new Set(all.map((r) => r.body.type)).size === EVENT_TYPES.length + 1,
    );
    expect(rx.failures).toEqual([]);
    expect([...new Set(got.map((r) => r.body.type))].sort()).toEqual([...EVENT_TYPES, 'webhook.test'].sort());
    expect(got.flatMap(problems)).toEqual([]);
    // Every object is there, the deleted draft's too, in its earlier events as in its deletion.
    for (const r of got.filter((r) => r.body.type !== 'webhook.test')) {
      const object = r.body.data.post ?? r.body.data.media ?? r.body.data.account;
      expect(object?.id, r.body.type).toBe(r.body.data.objectId);
    }
    const draft = got.filter((r) => r.body.data.objectId === draftId);
    expect(draft.map((r) => r.body.type).sort()).toEqual(['post.created', 'post.deleted', 'post.updated']);
    expect(draft.map((r) => r.body.data.post.tags)).toEqual([['x'], ['x'], ['x']]);
  });

  it('refuses a delivery the contract does not describe', () => {
    const test = rx.got.find((r) => r.body.type === 'webhook.test')!;
    expect(problems(test)).toEqual([]);
    expect(problems({ ...test, body: { ...test.body, data: { message: 'A bare message' } } })).not.toEqual([]);
    expect(problems({ ...test, headers: { ...test.headers, 'webhook-signature': 'nope' } })).not.toEqual([]);
  });
});
