// Starts a real Herald app on a real database (a SQLite file in a temp dir, or a fresh PostgreSQL
// database created and dropped per suite), seeds through the real identity code, and checks every
// /v1 response the tests receive against openapi.yaml.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { expect, inject } from 'vitest';
import type { Express } from 'express';
import { createApiKey, createWorkspace } from '../../db/identity.ts';
import { migrate } from '../../db/migrate.ts';
import { workspaceData, type AccountStatus } from '../../db/workspaceData.ts';
import type { Platform } from '../../networks/rules.ts';
import { findWorkspace } from '../../db/identity.ts';
import type { Scope } from '../../domain/credential.ts';
import { randomBase62 } from '../../domain/ids.ts';
import type { PlanName } from '../../domain/plans.ts';
import { loadConfig, type Config } from '../../runtime/config.ts';
import { createServices, type Services } from '../../runtime/services.ts';
import { createApp } from '../../server/app.ts';
import { assertMatchesContract } from './contract.ts';
import { UPSTREAM_HEADER } from './prismProxy.ts';
import { createPgDatabase } from './processes.ts';
import { copySqliteTemplate } from './templateDatabases.ts';

export type DbKind = 'sqlite' | 'postgres';
export const DATABASES = (process.env.TEST_DATABASES ?? 'sqlite,postgres').split(',') as DbKind[];
export { createPgDatabase, PG_ADMIN_URL } from './processes.ts';

export interface TestEnv {
  kind: DbKind;
  config: Config;
  services: Services;
  app: Express;
  close(): Promise<void>;
}

export interface HeraldOptions {
  /** The process's one clock (handlers, stamps, the worker); the system clock by default. */
  clock?: Services['clock'];
  /** PostgreSQL: the address Herald is given for its new database's (through a relay the test can cut, say). */
  databaseVia?: (url: string) => string;
}

export async function startHerald(
  kind: DbKind,
  overrides: Partial<Config> = {},
  options: HeraldOptions = {},
): Promise<TestEnv> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-test-'));
  const pg = kind === 'postgres' ? await createPgDatabase({ migrated: true }) : undefined;
  if (!pg) copySqliteTemplate(dataDir);
  const config: Config = {
    ...loadConfig({}),
    dataDir,
    databaseUrl: pg && (options.databaseVia?.(pg.url) ?? pg.url),
    logLevel: 'silent',
    rateLimit: { max: 1_000_000, windowMs: 600_000 },
    ...overrides,
  };
  const services = createServices(config, options);
  await migrate(services.db);
  const app = await createApp(services);
  return {
    kind,
    config,
    services,
    app,
    async close() {
      await closeListening(app);
      await services.close();
      await pg?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Seeded {
  workspaceId: string;
  userId: string;
  readKey: string;
  writeKey: string;
}

export async function seedWorkspace(
  env: TestEnv,
  opts: { plan?: PlanName; tz?: string; name?: string; email?: string } = {},
): Promise<Seeded> {
  const { db } = env.services;
  const { workspaceId, userId } = await createWorkspace(db, {
    name: opts.name ?? `Acme ${randomBase62(4)}`,
    plan: opts.plan ?? 'creator',
    tz: opts.tz ?? 'Europe/Berlin',
    email: opts.email ?? `owner-${randomBase62(6).toLowerCase()}@example.com`,
  });
  const key = (scopes: Scope[]) =>
    createApiKey(db, { workspaceId, userId, name: `${scopes.join('+')} key`, scopes }).then((k) => k.key);
  return { workspaceId, userId, readKey: await key(['read']), writeKey: await key(['read', 'write']) };
}

export async function addAccount(
  env: TestEnv,
  workspaceId: string,
  platform: Platform,
  name: string,
  status: AccountStatus = 'ok',
): Promise<string> {
  const ws = (await findWorkspace(env.services.db, workspaceId))!;
  const data = workspaceData(env.services.db, ws, env.services.clock);
  const account = await data.accounts.add({
    platform,
    displayName: name,
    status,
    externalId: `ext-${randomBase62(8)}`,
    tokenSealed: env.services.keyring.encrypt(`token-${randomBase62(8)}`),
  });
  return account.id;
}

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

// The Prism pass (TEST_PRISM=1, test/support/prismProxy.ts): /v1 and /auth calls go through `prism proxy`, whose
// upstream router sends each on to the test server this header names.
const prismUrl = inject('prismUrl');
/** Test servers on real ports for Prism to reach, by app; closed with their TestEnv. */
const listening = new Map<Express, Promise<http.Server>>();

function listen(app: Express): Promise<http.Server> {
  let server = listening.get(app);
  if (!server) {
    server = new Promise((resolve) => {
      const s = http.createServer(app).listen(0, '127.0.0.1', () => resolve(s));
    });
    listening.set(app, server);
  }
  return server;
}

async function closeListening(app: Express): Promise<void> {
  const server = await listening.get(app);
  listening.delete(app);
  server?.closeAllConnections();
  if (server) await new Promise((resolve) => server.close(resolve));
}

/**
 * Prism's findings about a response (its `sl-violations` header); request findings are expected from negative tests.
 */
function responseViolations(header: string | undefined): string[] {
  const found = JSON.parse(header ?? '[]') as { location: string[]; message: string }[];
  return found.filter((v) => v.location[0] === 'response').map((v) => `${v.location.join('.')}: ${v.message}`);
}

/**
 * One request through the app (or through Prism to it); a /v1 or /auth response that breaks its contract fails the
 * test.
 */
export async function call(
  env: TestEnv,
  method: Method,
  url: string,
  opts: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const viaPrism = Boolean(prismUrl) && (url.startsWith('/v1/') || url.startsWith('/auth/'));
  let req = viaPrism
    ? request(prismUrl)
        [method](url)
        .set(UPSTREAM_HEADER, String(((await listen(env.app)).address() as AddressInfo).port))
    : request(env.app)[method](url);
  if (opts.key) req = req.set('Authorization', `Bearer ${opts.key}`);
  for (const [name, value] of Object.entries(opts.headers ?? {})) req = req.set(name, value);
  const res = opts.body === undefined ? await req : await req.send(opts.body as object);
  await assertMatchesContract(method, url, res);
  if (viaPrism)
    expect(
      responseViolations(res.headers['sl-violations']),
      `Prism on ${method.toUpperCase()} ${url} -> ${res.status}`,
    ).toEqual([]);
  return res;
}

/**
 * Signs in as the dashboard does: the session cookie (`name=value`),
 * the full Set-Cookie, the CSRF token and the answer.
 */
export async function dashboardSession(env: TestEnv, email: string, password: string) {
  const res = await request(env.app).post('/auth/sign-in').send({ email, password });
  expect(res.status).toBe(200);
  const setCookie = res.headers['set-cookie']![0]!;
  return { cookie: setCookie.split(';')[0]!, setCookie, csrfToken: res.body.csrfToken as string, body: res.body };
}
