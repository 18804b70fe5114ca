// `herald doctor [--json] [--live [--account acc_…]]`: checks the installation the way an operator would, one thing
// at a time, and says how to fix each problem. It changes nothing (no migration, no secret created, only a probe file
// or object written and removed). Exit 0 only when no check fails; warnings are shown but do not fail. `--live` adds
// the networks' apps and one harmless read per connected account (cli/doctorLive.ts).
import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import pg from 'pg';
import { isPostgres, openDatabase, SQLITE_FILE, type Db } from '../db/connect.ts';
import { migrationPlan, MIGRATION_NAMES } from '../db/migrate.ts';
import { ApiError } from '../domain/errors.ts';
import { publicUrlProblem } from '../domain/publicAddress.ts';
import { NETWORKS } from '../networks/index.ts';
import { systemClock } from '../runtime/clock.ts';
import { loadConfig, type Config } from '../runtime/config.ts';
import { Keyring } from '../runtime/crypto.ts';
import { S3Storage } from '../storage/s3.ts';
import { STALE_WORKER_MS } from '../worker/worker.ts';
import { type Check, type CheckStatus, fail, ok, warn } from './checks.ts';
import { accountChecks, appChecks } from './doctorLive.ts';
import { operatorOptions, reportFailure } from './output.ts';

export type { Check } from './checks.ts';

const GiB = 1024 ** 3;
/** Jobs waiting longer than this mean no worker is taking them. */
const STUCK_JOB_MS = 2 * 60_000;

export function nodeCheck(version: string): Check {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > 20 || (major === 20 && minor >= 19)
    ? ok('node', `Node.js ${version}.`)
    : fail(
        'node',
        `Node.js ${version} is too old: Herald needs 20.19 or later.`,
        "Install Node.js 20.19 or later (nodejs.org, or your system's packages).",
      );
}

async function toolCheck(tool: 'ffmpeg' | 'ffprobe'): Promise<Check> {
  const firstLine = await new Promise<string | undefined>((resolve) => {
    const child = spawn(tool, ['-version'], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk));
    child.once('error', () => resolve(undefined));
    child.once('close', (code) => resolve(code === 0 ? out.split('\n')[0] : undefined));
  });
  return firstLine
    ? ok(tool, firstLine)
    : fail(
        tool,
        `${tool} is not on PATH: media processing cannot read videos or make thumbnails.`,
        "Install your system's ffmpeg package (Debian: apt-get install ffmpeg), which brings ffmpeg and ffprobe.",
      );
}

/** The free space left where media are stored: a video upload may take up to 4 GB. */
export function freeSpaceCheck(freeBytes: number, where: string): Check {
  const message = `${(freeBytes / GiB).toFixed(1)} GiB free at ${where}.`;
  const fix = 'Free space on that disk, move DATA_DIR to a larger one, or use STORAGE=s3.';
  if (freeBytes < 1 * GiB) return fail('free space', message, fix, { freeBytes });
  if (freeBytes < 10 * GiB) return warn('free space', message, fix, { freeBytes });
  return ok('free space', message, { freeBytes });
}

/** A secret copied from an example or typed by hand rather than generated. */
function looksLikeExample(secret: string): boolean {
  return (
    /example|change.?me|replace|your.?secret|secret.?here|placeholder|xxxxxxxx|00000000/i.test(secret) ||
    new Set(secret).size < 12
  );
}

const GENERATE_SECRET =
  'Generate one with `openssl rand -base64 32`, or unset HERALD_SECRET to use the one Herald made in DATA_DIR';

/** The secret as the server would use it, without creating one. */
function secretCheck(config: Config, env: NodeJS.ProcessEnv): { check: Check; secret?: string } {
  const given = env.HERALD_SECRET;
  if (given) {
    if (given.length < 32)
      return {
        check: fail(
          'secret',
          `HERALD_SECRET has ${given.length} characters; at least 32 are needed.`,
          `${GENERATE_SECRET}.`,
        ),
      };
    if (looksLikeExample(given)) {
      return {
        check: fail(
          'secret',
          'HERALD_SECRET looks like an example or a made-up value, not a random secret.',
          `${GENERATE_SECRET}. Changing it makes the account tokens sealed with the old one unreadable: ` +
            `reconnect those accounts.`,
        ),
      };
    }
    return { check: ok('secret', 'HERALD_SECRET is set.'), secret: given };
  }
  const file = path.join(config.dataDir, 'secret');
  if (!fs.existsSync(file)) {
    return {
      check: warn(
        'secret',
        `No HERALD_SECRET and no ${file} yet.`,
        'Herald creates it at first start; back it up with the database (herald backup).',
      ),
    };
  }
  const mode = fs.statSync(file).mode & 0o077;
  const secret = fs.readFileSync(file, 'utf8').trim();
  return {
    check: mode
      ? warn('secret', `${file} can be read by other users of this machine.`, `chmod 600 ${file}`)
      : ok('secret', `Generated secret in ${file}.`),
    secret,
  };
}

/** Account tokens sealed with another secret cannot be read: publishing would fail for every account. */
async function tokensCheck(db: Db, secret: string): Promise<Check | undefined> {
  const sealed = await db('accounts').whereNotNull('token_sealed').limit(20).pluck('token_sealed');
  if (!sealed.length) return undefined;
  const keyring = new Keyring(secret);
  const unreadable = sealed.filter((s: string) => {
    try {
      keyring.decrypt(s);
      return false;
    } catch {
      return true;
    }
  }).length;
  return unreadable
    ? fail(
        'account tokens',
        `${unreadable} of ${sealed.length} account tokens checked do not decrypt with this secret.`,
        'Set HERALD_SECRET (or DATA_DIR/secret) back to the secret this instance used (it is in every ' +
          'backup), or reconnect the accounts.',
      )
    : ok('account tokens', `${sealed.length} account tokens checked decrypt with this secret.`);
}

async function postgresReachable(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const { rows } = await client.query('show server_version');
    return rows[0].server_version as string;
  } finally {
    await client.end();
  }
}

/** Reachable, the right version, migrated. Answers the open database when it can be used for further checks. */
async function databaseChecks(config: Config): Promise<{ checks: Check[]; db?: Db }> {
  let version: string;
  if (config.databaseUrl) {
    try {
      version = `PostgreSQL ${await postgresReachable(config.databaseUrl)}`;
    } catch (err) {
      return {
        checks: [
          fail(
            'database',
            `PostgreSQL at DATABASE_URL cannot be reached: ${(err as Error).message}.`,
            'Check DATABASE_URL (host, port, user, password, database name) and that PostgreSQL is running ' +
              '(pg_isready).',
          ),
        ],
      };
    }
    if (Number(version.split(' ')[1]!.split('.')[0]) < 12) {
      return {
        checks: [
          fail(
            'database',
            `${version} is too old: Herald needs PostgreSQL 12 or later.`,
            'Upgrade PostgreSQL to 12 or later.',
          ),
        ],
      };
    }
  } else {
    const file = path.join(config.dataDir, SQLITE_FILE);
    if (!fs.existsSync(file)) {
      return {
        checks: [
          fail(
            'database',
            `There is no database at ${file} yet.`,
            'Start `herald serve` once (or run `herald migrate`), or point DATA_DIR at the existing instance.',
          ),
        ],
      };
    }
    version = `SQLite at ${file}`;
  }
  const db = openDatabase(config);
  const checks = [ok('database', `${version} answers.`)];
  try {
    const { applied, pending } = await migrationPlan(db);
    checks.push(
      pending.length
        ? fail(
            'migrations',
            `${pending.length} of ${MIGRATION_NAMES.length} migrations are not applied: ${pending.join(', ')}.`,
            'Run `herald migrate` (herald serve also applies them when it starts).',
            { applied, pending },
          )
        : ok('migrations', `All ${applied.length} migrations applied; the latest is ${applied.at(-1)}.`, {
            applied,
            pending,
          }),
    );
    if (!pending.length) return { checks, db };
  } catch (err) {
    if (!(err instanceof ApiError)) {
      await db.destroy();
      throw err;
    }
    checks.push(fail('migrations', err.message, err.hint));
  }
  // Further checks read tables a schema that is behind or ahead may not have.
  await db.destroy();
  return { checks };
}

async function diskStorageChecks(config: Config): Promise<Check[]> {
  const root = path.join(config.dataDir, 'media');
  // Where the next file would be written; before the first start, the nearest directory that exists.
  const where = nearestFolder(path.join(root, '.incoming'));
  const probe = path.join(where, `.doctor-${randomUUID()}`);
  try {
    fs.writeFileSync(probe, 'herald doctor');
    fs.rmSync(probe);
  } catch (err) {
    return [
      fail(
        'storage',
        `Media cannot be written under ${where}: ${(err as Error).message}.`,
        'Give the user running Herald write access to DATA_DIR, or set DATA_DIR to a writable directory.',
      ),
    ];
  }
  return [ok('storage', `Disk storage under ${root}: a probe file was written and removed at ${where}.`)];
}

/** The nearest folder of `dir` that exists (before the first start, DATA_DIR's subfolders do not). */
const nearestFolder = (dir: string): string => (fs.existsSync(dir) ? dir : nearestFolder(path.dirname(dir)));

/**
 * Free space where Herald writes: the media folder (disk storage) and the SQLite database's folder, once for each
 * filesystem. A write that meets a full disk is refused (507), so the operator is told well before.
 */
export function freeSpaceChecks(config: Config): Check[] {
  const places = [
    ...(config.storage.kind === 'disk' ? [path.join(config.dataDir, 'media', '.incoming')] : []),
    ...(config.databaseUrl ? [] : [config.dataDir]),
  ].map(nearestFolder);
  const seen = new Set<number>();
  return places.flatMap((where) => {
    const device = fs.statSync(where).dev;
    if (seen.has(device)) return [];
    seen.add(device);
    const { bavail, bsize } = fs.statfsSync(where);
    return [freeSpaceCheck(bavail * bsize, where)];
  });
}

async function s3StorageCheck(config: Config & { storage: { kind: 's3' } }): Promise<Check> {
  const storage = new S3Storage(config.storage);
  const key = `.herald-doctor/${randomUUID()}`;
  const bytes = `herald doctor ${randomUUID()}`;
  const where = `bucket ${config.storage.bucket}${config.storage.endpoint ? ` at ${config.storage.endpoint}` : ''}`;
  try {
    await storage.put(key, Readable.from([Buffer.from(bytes)]), 'text/plain');
    const read = await storage.withLocalFile(key, async (file) => fs.readFileSync(file, 'utf8'));
    await storage.delete(key);
    if (read !== bytes) throw new Error('the object read back differs from the one written');
    return ok('storage', `S3 ${where}: a small object was written, read back and deleted.`);
  } catch (err) {
    return fail(
      'storage',
      `S3 ${where} failed a round trip of a small object: ${(err as Error).name}: ${(err as Error).message}`,
      'Check S3_BUCKET, S3_REGION, S3_ENDPOINT (and S3_FORCE_PATH_STYLE=true for MinIO and most S3-compatible ' +
        'servers) and the credentials.',
    );
  } finally {
    await storage.close();
  }
}

async function publicUrlChecks(config: Config): Promise<Check[]> {
  const checks: Check[] = [];
  const problem = publicUrlProblem(config.publicUrl);
  if (config.networks === 'live' && problem) {
    checks.push(
      fail(
        'public url',
        `PUBLIC_URL ${config.publicUrl} ${problem}: the networks fetch media from it and send people back to it.`,
        "Set PUBLIC_URL to this server's public https address (behind a reverse proxy terminating TLS; set " +
          "TRUST_PROXY to the proxy's address).",
      ),
    );
  } else {
    checks.push(
      ok('public url', `PUBLIC_URL is ${config.publicUrl}${problem ? ' (fine for sandbox networks only)' : ''}.`),
    );
  }
  try {
    const res = await fetch(`${config.publicUrl}/healthz`, { signal: AbortSignal.timeout(5000) });
    const body = (await res.json().catch(() => ({}))) as { status?: string };
    if (!res.ok || body.status !== 'ok') throw new Error(`it answered ${res.status} without Herald's health answer`);
    checks.push(ok('public url reachable', `${config.publicUrl}/healthz answers from this machine.`));
  } catch (err) {
    checks.push(
      warn(
        'public url reachable',
        `${config.publicUrl}/healthz cannot be reached from this machine: ${(err as Error).message}.`,
        'Start `herald serve`; behind a reverse proxy, check that it forwards PUBLIC_URL to HOST:PORT.',
      ),
    );
  }
  return checks;
}

function networkChecks(config: Config, env: NodeJS.ProcessEnv): Check[] {
  if (config.networks === 'sandbox')
    return [ok('networks', 'Sandbox networks: simulated, nothing to configure (NETWORKS=live for the real ones).')];
  return Object.entries(NETWORKS).flatMap(([platform, { connector: module }]) => {
    if (!module?.clientEnv) return [];
    const missing = [module.clientEnv.id, module.clientEnv.secret].filter((name) => !env[name]);
    return [
      missing.length
        ? fail(
            `network ${platform}`,
            `${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not set: ${platform} accounts ` +
              `cannot be connected or publish.`,
            `Register Herald as an app at ${platform} with the callback ` +
              `${config.publicUrl}/auth/connect/${platform}/callback and set ${missing.join(' and ')} ` +
              `${module.clientEnv.what ? `to ${module.clientEnv.what} ` : ''}(docs/guides/connecting.md).`,
          )
        : ok(
            `network ${platform}`,
            `${module.clientEnv.id} and ${module.clientEnv.secret} are set` +
              `${module.clientEnv.what ? ` (${module.clientEnv.what})` : ''}.`,
          ),
    ];
  });
}

/** Jobs due and waiting, the oldest one's age, and the last heartbeat of any worker. */
async function workerCheck(db: Db): Promise<Check> {
  const now = Date.now();
  const [waiting] = isPostgres(db)
    ? (
        await db.raw(`select count(*)::int as n, min(run_at) as oldest from graphile_worker.jobs
        where run_at <= now() and locked_at is null and attempts < max_attempts`)
      ).rows
    : await db('jobs')
        .whereNull('locked_at')
        .where('run_at', '<=', new Date(now).toISOString())
        .select(db.raw('count(*) as n, min(run_at) as oldest'));
  const beat = (await db('workers').max({ at: 'heartbeat_at' }).first())?.at as string | null | undefined;
  const figures = {
    jobsWaiting: Number(waiting.n),
    oldestJobAgeSeconds: waiting.oldest ? Math.round((now - new Date(waiting.oldest).getTime()) / 1000) : 0,
    lastHeartbeat: beat ?? null,
    lastHeartbeatAgeSeconds: beat ? Math.round((now - Date.parse(beat)) / 1000) : null,
  };
  const oldest = figures.jobsWaiting ? `, the oldest for ${figures.oldestJobAgeSeconds} s` : '';
  const said =
    `${figures.jobsWaiting} publish jobs waiting${oldest}; ` +
    (beat ? `last worker heartbeat ${figures.lastHeartbeatAgeSeconds} s ago.` : 'no worker has ever run.');
  const alive = beat !== undefined && beat !== null && now - Date.parse(beat) < STALE_WORKER_MS;
  const start = isPostgres(db)
    ? 'Start `herald worker` (or `herald serve` without WORKER=off)'
    : 'Start `herald serve`, which runs the worker on SQLite';
  if (figures.oldestJobAgeSeconds * 1000 > STUCK_JOB_MS) {
    return fail(
      'worker',
      said,
      alive
        ? 'A worker is running but not keeping up: read its log, raise WORKER_CONCURRENCY ' +
            'or add `herald worker` processes.'
        : `${start}: posts due are not being published.`,
      figures,
    );
  }
  return alive
    ? ok('worker', said, figures)
    : warn('worker', said, `${start}; scheduled posts publish only while a worker runs.`, figures);
}

/** `live`: `--live`'s checks (cli/doctorLive.ts) in place of the variables alone, for one account or all. */
export async function runChecks(env: NodeJS.ProcessEnv = process.env, live?: { account?: string }): Promise<Check[]> {
  const checks = [nodeCheck(process.versions.node), await toolCheck('ffmpeg'), await toolCheck('ffprobe')];
  let config: Config;
  try {
    config = loadConfig(env);
    checks.push(ok('configuration', 'The environment variables are valid.'));
  } catch (err) {
    checks.push(
      fail(
        'configuration',
        (err as Error).message,
        'Correct that variable (docs/guides/configuration.md); the other checks need a valid configuration.',
      ),
    );
    return checks;
  }
  const { check: secret, secret: value } = secretCheck(config, env);
  checks.push(secret);
  const { checks: database, db } = await databaseChecks(config);
  checks.push(...database);
  try {
    if (db && value) checks.push(...[await tokensCheck(db, value)].filter((c): c is Check => Boolean(c)));
    checks.push(
      ...(config.storage.kind === 's3'
        ? [await s3StorageCheck({ ...config, storage: config.storage })]
        : await diskStorageChecks(config)),
      ...freeSpaceChecks(config),
    );
    checks.push(...(await publicUrlChecks(config)));
    checks.push(...(live ? appChecks(config, env) : networkChecks(config, env)));
    if (db) checks.push(await workerCheck(db));
    if (live && db && value)
      checks.push(
        ...(await accountChecks({ db, keyring: new Keyring(value), clock: systemClock, config }, env, live.account)),
      );
  } finally {
    await db?.destroy();
  }
  return checks;
}

const names = (checks: Check[]) => checks.map((c) => c.name).join(', ');

const MARK: Record<CheckStatus, string> = { ok: 'ok  ', warn: 'WARN', fail: 'FAIL' };

function readable(checks: Check[]): string {
  const lines = checks.flatMap((c) => [
    `  ${MARK[c.status]}  ${c.name}: ${c.message}`,
    ...(c.fix ? [`        fix: ${c.fix}`] : []),
    // `--live`: the address to register at the network, exactly, and the scopes Herald asks for.
    ...(typeof c.callback === 'string' ? [`        callback: ${c.callback}`] : []),
    ...(Array.isArray(c.scopes) ? [`        scopes: ${c.scopes.join(' ')}`] : []),
  ]);
  const count = (status: CheckStatus, word: string) => {
    const n = checks.filter((c) => c.status === status).length;
    return n ? `${n} ${word}${n > 1 ? 's' : ''}` : '';
  };
  const summary = [count('fail', 'problem'), count('warn', 'warning')].filter(Boolean).join(' and ');
  return ['', ...lines, '', summary ? `  ${summary}.` : '  All is well.', '', ''].join('\n');
}

export async function doctor(args: string[]): Promise<number> {
  let json: boolean;
  let checks: Check[];
  try {
    const o = operatorOptions(args, { json: 'boolean', live: 'boolean', account: 'string' });
    json = Boolean(o.json);
    if (o.account && !o.live)
      throw new ApiError(
        400,
        'invalid_request',
        '--account goes with --live.',
        'Run `herald doctor --live --account acc_…`.',
      );
    checks = await runChecks(process.env, o.live ? { account: o.account as string | undefined } : undefined);
  } catch (err) {
    return reportFailure(err);
  }
  const failed = checks.filter((c) => c.status === 'fail');
  process.stdout.write(json ? JSON.stringify({ ok: !failed.length, checks }) + '\n' : readable(checks));
  if (!failed.length) return 0;
  if (json) {
    process.stderr.write(
      JSON.stringify({
        code: 'doctor_found_problems',
        message: `${failed.length} check${failed.length > 1 ? 's' : ''} failed: ${names(failed)}.`,
        hint: 'Each failed check in the report says how to fix it.',
      }) + '\n',
    );
  }
  return 1;
}
