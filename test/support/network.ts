// For connector tests: a Herald listening on a real port (the simulators' own addresses and the signed
// media addresses must resolve over HTTP), sandbox accounts and files as the worker hands them to a
// connector, and a PublishJob with an in-memory checkpoint and a clock that barely waits.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { findWorkspace } from '../../db/identity.ts';
import { mediaData } from '../../db/mediaData.ts';
import { workspaceData, type AccountStatus } from '../../db/workspaceData.ts';
import { randomBase62 } from '../../domain/ids.ts';
import {
  NetworkError,
  type Checkpoint,
  type ConnectorAccount,
  type PublishJob,
  type PublishMedia,
} from '../../networks/connector.ts';
import type { Platform } from '../../networks/rules.ts';
import { registerSandboxAccount } from '../../networks/sandbox/state.ts';
import type { Config } from '../../runtime/config.ts';
import { publishMedia } from '../../worker/publishMedia.ts';
import { call, startHerald, type DbKind, type HeraldOptions, type Seeded, type TestEnv } from './harness.ts';
import { until } from './waiting.ts';

/**
 * Herald on a real port, its PUBLIC_URL (`base`) pointing at it. The socket is bound first, on a port the
 * system picks, and the app attached once started: a port probed free and bound later can be taken by
 * another test file's server in between (EADDRINUSE in a loaded run).
 */
export async function listeningHerald(
  kind: DbKind,
  overrides: Partial<Config> = {},
  options: HeraldOptions = {},
): Promise<TestEnv & { base: string }> {
  let app: TestEnv['app'] | undefined;
  const server = http.createServer((req, res) => {
    if (app) app(req, res);
    else res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  const closeServer = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  const env = await startHerald(kind, { port, publicUrl: base, ...overrides }, options).catch(async (err) => {
    await closeServer();
    throw err;
  });
  app = env.app;
  return {
    ...env,
    base,
    async close() {
      await closeServer();
      await env.close();
    },
  };
}

/** A sandbox account as `herald account add-sandbox` makes it, with the credentials a connector receives. */
export async function sandboxAccount(
  env: TestEnv,
  workspaceId: string,
  platform: Platform,
  status: AccountStatus = 'ok',
): Promise<ConnectorAccount> {
  const ws = (await findWorkspace(env.services.db, workspaceId))!;
  const externalId = `sandbox-${platform}-${randomBase62(10)}`;
  const accessToken = `sandbox-access.${externalId}.${randomBase62(24)}`;
  const displayName = `Acme ${platform} ${randomBase62(4)}`;
  await registerSandboxAccount(env.services.db, platform, { id: externalId, name: displayName, tokens: status });
  const data = workspaceData(env.services.db, ws, env.services.clock);
  const tokenSealed = env.services.keyring.encrypt(accessToken);
  const account = await data.accounts.add({ platform, displayName, status, externalId, tokenSealed });
  return { id: account.id, externalId, displayName, credentials: { accessToken } };
}

/** Uploaded files as the worker gives them to connectors. */
export async function publishable(env: TestEnv, workspaceId: string, mediaIds: string[]): Promise<PublishMedia[]> {
  const ws = (await findWorkspace(env.services.db, workspaceId))!;
  return (await mediaData(env.services.db, ws).getMany(mediaIds)).map((record) =>
    publishMedia(env.services.storage, record),
  );
}

/** A worker that dies right after a checkpoint was saved (the checkpoint is durable, the next call never happens). */
export class WorkerCrash extends Error {}

export interface TestJob extends PublishJob {
  /** Every checkpoint saved, in order. */
  saved: Checkpoint[];
  /** Every wait asked for, in ms of the job's clock. */
  slept: number[];
}

/**
 * A job for one connector call. `crashAt` makes saveCheckpoint throw WorkerCrash once it has stored a
 * checkpoint it matches. The clock runs a hundred times faster than asked (at most 50 ms a wait), so
 * five minutes of polling take seconds and a simulator's short processing still passes by.
 */
export function connectorJob(input: {
  account: ConnectorAccount;
  text?: string;
  media?: PublishMedia[];
  settings?: Record<string, unknown>;
  checkpoint?: Checkpoint | null;
  crashAt?: (checkpoint: Checkpoint) => boolean;
}): TestJob {
  const job: TestJob = {
    postId: `pst_${randomBase62(16)}`,
    text: input.text ?? '',
    title: null,
    tags: [],
    settings: input.settings ?? {},
    media: input.media ?? [],
    account: input.account,
    marker: randomBase62(12),
    checkpoint: input.checkpoint ?? null,
    saved: [],
    slept: [],
    async saveCheckpoint(checkpoint) {
      job.checkpoint = checkpoint;
      job.saved.push(checkpoint);
      if (input.crashAt?.(checkpoint)) throw new WorkerCrash(`crashed after saving ${JSON.stringify(checkpoint)}`);
    },
    sleep(ms) {
      job.slept.push(ms);
      return new Promise((resolve) => setTimeout(resolve, Math.min(ms / 100, 50)));
    },
  };
  return job;
}

/** The same post, started again by another worker from what the dead one saved. */
export function resumed(job: TestJob): TestJob {
  return connectorJob({
    account: job.account,
    text: job.text,
    media: job.media,
    settings: job.settings,
    checkpoint: job.checkpoint,
  });
}

/**
 * Through a separate Herald process's REST API at `base`: a text post on one account due now, read until it
 * leaves `queued`. Answers the post as then read.
 */
export async function postedNow(
  base: string,
  writeKey: string,
  accountId: string,
  text: string,
  timeoutMs?: number,
): Promise<Record<string, any>> {
  const headers = { Authorization: `Bearer ${writeKey}`, 'Content-Type': 'application/json' };
  const api = (p: string, init: RequestInit = {}) =>
    fetch(`${base}/v1${p}`, { ...init, headers }).then((r) => r.json());
  const body = { targets: { accountIds: [accountId] }, mediaIds: [], text, when: 'now', confirm: true };
  const created = await api('/posts', { method: 'POST', body: JSON.stringify(body) });
  return until(
    () => api(`/posts/${created.posts[0].id}`),
    (p) => p.status !== 'queued',
    timeoutMs,
  );
}

/** A workspace's posts through the API as the publishing tests make and read them. */
export function postingCalls(env: TestEnv, ws: Seeded) {
  const readPost = (id: string) => call(env, 'get', `/v1/posts/${id}`, { key: ws.readKey }).then((r) => r.body);
  /** A text post on one account; answers its id. */
  const post = async (accountId: string, text: string, when: unknown): Promise<string> => {
    const res = await call(env, 'post', '/v1/posts', {
      key: ws.writeKey,
      body: { targets: { accountIds: [accountId] }, mediaIds: [], text, when, confirm: true },
    });
    expect(res.status).toBe(201);
    return res.body.posts[0].id;
  };
  return {
    /** A text post on one account due now; answers its id. */
    postNow: (accountId: string, text: string) => post(accountId, text, 'now'),
    /** A text post on one account due in `hours`, its time given in UTC; answers its id and that time. */
    async postLater(accountId: string, text: string, hours: number): Promise<{ id: string; publishAt: string }> {
      const publishAt = new Date(Date.now() + hours * 3600_000).toISOString().slice(0, 16);
      return { id: await post(accountId, text, { publishAt, timezone: 'UTC' }), publishAt };
    },
    readPost,
    /** The post once it is live or failed. */
    settled: (id: string) =>
      until(
        () => readPost(id),
        (p) => p.status === 'live' || p.status === 'failed',
      ),
    /** The kinds of the post's events, in order. */
    kinds: async (id: string) =>
      (await call(env, 'get', `/v1/posts/${id}/events`, { key: ws.readKey })).body.events.map(
        (e: { kind: string }) => e.kind,
      ),
    /** Posts the network's simulator published for the account. */
    published: async (network: Platform, externalId: string) =>
      Number(
        (
          await env.services
            .db('sandbox_items')
            .where({ network, account: externalId })
            .whereNotNull('published_ms')
            .count({ n: '*' })
            .first()
        )?.n ?? 0,
      ),
  };
}

/** Items a simulator holds for an account, by kind (containers, posts, ...). */
export async function sandboxCount(
  env: TestEnv,
  network: Platform,
  account: ConnectorAccount,
  kind: string,
): Promise<number> {
  const row = await env.services
    .db('sandbox_items')
    .where({ network, account: account.externalId, kind })
    .count({ n: '*' })
    .first();
  return Number(row?.n ?? 0);
}

/** Awaits a NetworkError with the spec's code; answers it for further checks. */
export async function networkError(promise: Promise<unknown>, code: string): Promise<NetworkError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, `expected ${code}`).toBeInstanceOf(NetworkError);
  expect((err as NetworkError).code).toBe(code);
  return err as NetworkError;
}

/** The page at a post's address, as a browser gets it, with its media addresses. */
export async function postPage(url: string): Promise<{ status: number; html: string; media: string[] }> {
  const res = await fetch(url);
  const html = await res.text();
  return { status: res.status, html, media: [...html.matchAll(/<(?:img|video) src="([^"]+)"/g)].map((m) => m[1]!) };
}
