// `herald backup --to DIR` and `herald restore --from DIR`. A backup is a directory: the database (a
// SQLite online backup, or a pg_dump archive), the media bytes of disk storage, the secret that seals
// network tokens, and manifest.json with versions and a SHA-256 of every file. The database is copied
// first, as one consistent snapshot, while the server keeps running; media files come after it, so
// every file the snapshot names is there unless it was deleted in between (the manifest lists those).
import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import Database from 'better-sqlite3';
import { openDatabase, SANDBOX_FILE, SQLITE_FILE } from '../db/connect.ts';
import { appliedMigrations, MIGRATION_NAMES, migrationPlan } from '../db/migrate.ts';
import { ApiError } from '../domain/errors.ts';
import { loadConfig, type Config } from '../runtime/config.ts';
import { HERALD_VERSION } from '../runtime/version.ts';
import { operatorOptions, printOutcome } from './output.ts';

const FORMAT = 'herald-backup/1';
const PG_FILE = 'database.pgdump';

interface FileEntry {
  path: string;
  bytes: number;
  sha256: string;
}

export interface Manifest {
  format: typeof FORMAT;
  createdAt: string;
  herald: string;
  node: string;
  database: FileEntry & {
    kind: 'sqlite' | 'postgresql';
    migrations: string[];
    tool: string;
    /** SQLite: the sandbox networks' own file (db/connect.ts), when the instance has one. */
    sandbox?: FileEntry;
  };
  media:
    | { storage: 'disk'; files: FileEntry[]; deletedAfterSnapshot: string[] }
    | { storage: 's3'; bucket: string; prefix: string; note: string };
  secret: FileEntry;
}

const refuse = (code: string, message: string, hint: string) => new ApiError(409, code, message, hint);

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}

async function entry(root: string, rel: string): Promise<FileEntry> {
  const file = path.join(root, rel);
  return { path: rel, bytes: (await fsp.stat(file)).size, sha256: await sha256Of(file) };
}

/** Names what a directory holds, or nothing when it is missing or empty. */
function contentsOf(dir: string): string[] {
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

/** Runs a PostgreSQL client tool with the password in its environment, never on its command line. */
async function pgTool(tool: 'pg_dump' | 'pg_restore', databaseUrl: string, args: string[]): Promise<string> {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  const env = { ...process.env, ...(password ? { PGPASSWORD: password } : {}) };
  return new Promise((resolve, reject) => {
    const child = spawn(tool, [...args, `--dbname=${url.toString()}`], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'ENOENT'
          ? new ApiError(
              500,
              'pg_tools_missing',
              `${tool} is not installed on this machine.`,
              "Install PostgreSQL's client tools of your server's major version or newer (Debian: apt-get " +
                'install postgresql-client).',
            )
          : err,
      ),
    );
    child.once('close', (code) =>
      code === 0
        ? resolve(output)
        : reject(
            new ApiError(
              500,
              `${tool}_failed`,
              `${tool} failed: ${output.trim().split('\n').slice(-3).join(' ')}`,
              `Check DATABASE_URL, and that ${tool} is of the server's major version or newer (${tool} --version).`,
            ),
          ),
    );
  });
}

async function pgToolVersion(tool: 'pg_dump' | 'pg_restore'): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(tool, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk));
    child.once('error', () => resolve(''));
    child.once('close', () => resolve(out.trim()));
  });
}

/** The secret as the server uses it: HERALD_SECRET, or the file in DATA_DIR (never created here). */
function currentSecret(config: Config): string | undefined {
  if (process.env.HERALD_SECRET) return process.env.HERALD_SECRET;
  const file = path.join(config.dataDir, 'secret');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : undefined;
}

/** The storage keys a snapshot names: originals and thumbnails whose bytes were not deleted. */
const STORED_KEYS_SQL = 'select storage_key, thumbnail_key from media where bytes_deleted_at is null';
interface StoredKeyRow {
  storage_key: string | null;
  thumbnail_key: string | null;
}
const storedKeys = (rows: StoredKeyRow[]) =>
  rows.flatMap((r) => [r.storage_key, r.thumbnail_key]).filter((key): key is string => Boolean(key));

/** A consistent copy of the database in `dir`, and the media keys it names. */
interface Snapshot {
  database: Manifest['database'];
  keys: string[];
}

/**
 * SQLite's online backup of `source` into `target`, as one self-contained file in rollback-journal mode (the
 * server turns WAL on again when it opens it). A write by the server between steps restarts the backup, so after
 * the first step every remaining page is copied in one step, which a busy server cannot interrupt.
 */
async function copySqlite(source: string, target: string): Promise<void> {
  const db = new Database(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    await db.backup(target, { progress: () => 0x7fffffff });
  } finally {
    db.close();
  }
  const copy = new Database(target);
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
}

async function snapshotSqlite(config: Config, dir: string): Promise<Snapshot> {
  const source = path.join(config.dataDir, SQLITE_FILE);
  if (!fs.existsSync(source)) {
    throw refuse(
      'nothing_to_back_up',
      `There is no database at ${source}.`,
      'Point DATA_DIR at the instance to back up (or DATABASE_URL for PostgreSQL).',
    );
  }
  await copySqlite(source, path.join(dir, SQLITE_FILE));
  // The simulators' file after Herald's: an item a simulator made meanwhile names no post of the snapshot.
  const sandbox = fs.existsSync(path.join(config.dataDir, SANDBOX_FILE));
  if (sandbox) await copySqlite(path.join(config.dataDir, SANDBOX_FILE), path.join(dir, SANDBOX_FILE));
  const copy = new Database(path.join(dir, SQLITE_FILE), { readonly: true });
  let migrations: string[];
  let keys: string[];
  try {
    migrations = (copy.prepare('select name from knex_migrations order by id').all() as { name: string }[]).map(
      (r) => r.name,
    );
    keys = storedKeys(copy.prepare(STORED_KEYS_SQL).all() as StoredKeyRow[]);
  } finally {
    copy.close();
  }
  return {
    database: {
      kind: 'sqlite',
      tool: 'SQLite online backup (better-sqlite3)',
      migrations,
      ...(await entry(dir, SQLITE_FILE)),
      ...(sandbox ? { sandbox: await entry(dir, SANDBOX_FILE) } : {}),
    },
    keys,
  };
}

async function snapshotPostgres(config: Config, dir: string): Promise<Snapshot> {
  const db = openDatabase(config);
  try {
    const migrations = await appliedMigrations(db);
    if (!migrations.length)
      throw refuse(
        'nothing_to_back_up',
        'The database of DATABASE_URL holds no Herald data.',
        'Point DATABASE_URL at the instance to back up.',
      );
    // One transaction's snapshot of every schema Herald uses, publish jobs (graphile_worker) included.
    await pgTool('pg_dump', config.databaseUrl!, [
      '--format=custom',
      '--no-owner',
      '--no-acl',
      `--file=${path.join(dir, PG_FILE)}`,
    ]);
    // Read after the dump: a file deleted since then is missing from the live database too.
    const keys = storedKeys((await db.raw(STORED_KEYS_SQL)).rows);
    return {
      database: {
        kind: 'postgresql',
        tool: await pgToolVersion('pg_dump'),
        migrations,
        ...(await entry(dir, PG_FILE)),
      },
      keys,
    };
  } finally {
    await db.destroy();
  }
}

/** Every stored object under `root`, as paths relative to it (the temporary upload area left out). */
async function mediaFiles(root: string): Promise<string[]> {
  if (!fs.existsSync(root)) return [];
  const names = (await fsp.readdir(root, { recursive: true })) as string[];
  return names.filter(
    (name) => !name.startsWith('.incoming') && fs.statSync(path.join(root, name), { throwIfNoEntry: false })?.isFile(),
  );
}

async function copyMedia(config: Config, dir: string, snapshotKeys: string[]): Promise<Manifest['media']> {
  const root = path.join(config.dataDir, 'media');
  const files: FileEntry[] = [];
  for (const name of await mediaFiles(root)) {
    const target = path.join(dir, 'media', name);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    try {
      await fsp.copyFile(path.join(root, name), target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue; // deleted while we copied
      throw err;
    }
    files.push(await entry(dir, path.join('media', name)));
  }
  const copied = new Set(files.map((f) => f.path.slice('media/'.length)));
  return { storage: 'disk', files, deletedAfterSnapshot: snapshotKeys.filter((key) => !copied.has(key)) };
}

export function backup(args: string[]): Promise<number> {
  return printOutcome(async () => {
    const o = operatorOptions(args, { to: 'required' });
    const config = loadConfig();
    const dir = path.resolve(String(o.to));
    if (contentsOf(dir).length) {
      throw refuse(
        'backup_target_not_empty',
        `${dir} is not empty.`,
        'Back up into a new or empty directory, for example one named by the date.',
      );
    }
    const secret = currentSecret(config);
    if (!secret)
      throw refuse(
        'nothing_to_back_up',
        `No secret: HERALD_SECRET is unset and ${config.dataDir}/secret does not exist.`,
        'Point DATA_DIR at the instance to back up.',
      );
    await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
    const { database, keys } = config.databaseUrl
      ? await snapshotPostgres(config, dir)
      : await snapshotSqlite(config, dir);
    const s = config.storage;
    const media: Manifest['media'] =
      s.kind === 'disk'
        ? await copyMedia(config, dir, keys)
        : {
            storage: 's3',
            bucket: s.bucket,
            prefix: s.prefix,
            note: 'Media bytes stay in the bucket: keep it versioned or replicated.',
          };
    await fsp.writeFile(path.join(dir, 'secret'), secret + '\n', { mode: 0o600 });
    const manifest: Manifest = {
      format: FORMAT,
      createdAt: new Date().toISOString(),
      herald: HERALD_VERSION,
      node: process.version,
      database,
      media,
      secret: await entry(dir, 'secret'),
    };
    await fsp.writeFile(path.join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
    return {
      backup: dir,
      database: database.kind,
      migrations: database.migrations.length,
      mediaFiles: media.storage === 'disk' ? media.files.length : 0,
      mediaBytes: media.storage === 'disk' ? media.files.reduce((sum, f) => sum + f.bytes, 0) : 0,
    };
  });
}

async function readManifest(dir: string): Promise<Manifest> {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await fsp.readFile(path.join(dir, 'manifest.json'), 'utf8'));
  } catch {
    throw refuse(
      'not_a_backup',
      `${dir} has no readable manifest.json.`,
      'Give --from the directory `herald backup --to` wrote.',
    );
  }
  if (manifest.format !== FORMAT)
    throw refuse(
      'not_a_backup',
      `${dir}/manifest.json is not a ${FORMAT} manifest.`,
      'Give --from the directory `herald backup --to` wrote.',
    );
  const files = [
    manifest.database,
    ...(manifest.database.sandbox ? [manifest.database.sandbox] : []),
    manifest.secret,
    ...(manifest.media.storage === 'disk' ? manifest.media.files : []),
  ];
  for (const file of files) {
    const at = path.join(dir, file.path);
    if (!fs.existsSync(at) || (await sha256Of(at)) !== file.sha256) {
      throw refuse(
        'backup_corrupt',
        `${file.path} in ${dir} is missing or does not match its checksum.`,
        'Restore from another backup; this one was damaged after it was written.',
      );
    }
  }
  return manifest;
}

/** Refuses anything that would overwrite or mix with an existing instance. */
async function checkTargetEmpty(config: Config): Promise<void> {
  const present = contentsOf(config.dataDir);
  if (present.length) {
    throw refuse(
      'restore_target_not_empty',
      `DATA_DIR ${config.dataDir} is not empty (${present.slice(0, 5).join(', ')}).`,
      'Restore into a new, empty DATA_DIR: restore never overwrites an instance.',
    );
  }
  if (!config.databaseUrl) return;
  const db = openDatabase(config);
  try {
    const { rows } = await db.raw(`select count(*)::int as n from information_schema.tables
      where table_schema not in ('pg_catalog', 'information_schema')`);
    if (rows[0].n > 0) {
      throw refuse(
        'restore_target_not_empty',
        'The database of DATABASE_URL already has tables.',
        'Restore into a new, empty database (createdb herald_restored): restore never overwrites an instance.',
      );
    }
  } finally {
    await db.destroy();
  }
}

export function restore(args: string[]): Promise<number> {
  return printOutcome(async () => {
    const o = operatorOptions(args, { from: 'required' });
    const config = loadConfig();
    const from = path.resolve(String(o.from));
    const manifest = await readManifest(from);
    const kind = config.databaseUrl ? 'postgresql' : 'sqlite';
    if (manifest.database.kind !== kind) {
      throw refuse(
        'backup_kind_mismatch',
        `This is a ${manifest.database.kind} backup, and this Herald is set up for ${kind}.`,
        manifest.database.kind === 'postgresql'
          ? 'Set DATABASE_URL to a new, empty PostgreSQL database.'
          : 'Unset DATABASE_URL to restore into SQLite in DATA_DIR.',
      );
    }
    if (manifest.media.storage !== config.storage.kind) {
      throw refuse(
        'backup_kind_mismatch',
        `The backup's media are on ${manifest.media.storage} storage, and STORAGE is ${config.storage.kind}.`,
        `Set STORAGE=${manifest.media.storage} (and its settings) as on the backed-up instance.`,
      );
    }
    const unknown = manifest.database.migrations.filter((name) => !MIGRATION_NAMES.includes(name));
    if (unknown.length) {
      throw refuse(
        'database_newer',
        `The backup was made by Herald ${manifest.herald}, whose database has migrations this Herald ` +
          `${HERALD_VERSION} does not know (${unknown.join(', ')}).`,
        `Restore it with Herald ${manifest.herald} or newer.`,
      );
    }
    const secret = (await fsp.readFile(path.join(from, manifest.secret.path), 'utf8')).trim();
    if (process.env.HERALD_SECRET && process.env.HERALD_SECRET !== secret) {
      throw refuse(
        'secret_mismatch',
        "HERALD_SECRET differs from the backup's secret: the restored account tokens could not be decrypted.",
        "Unset HERALD_SECRET (the backup's secret is restored into DATA_DIR), or set it to the backed-up " +
          "instance's value.",
      );
    }
    await checkTargetEmpty(config);

    await fsp.mkdir(config.dataDir, { recursive: true });
    await fsp.writeFile(path.join(config.dataDir, 'secret'), secret + '\n', { mode: 0o600, flag: 'wx' });
    if (manifest.database.kind === 'sqlite') {
      for (const [file, name] of [
        [manifest.database, SQLITE_FILE],
        [manifest.database.sandbox, SANDBOX_FILE],
      ] as const) {
        if (file)
          await fsp.copyFile(path.join(from, file.path), path.join(config.dataDir, name), fs.constants.COPYFILE_EXCL);
      }
    } else {
      await pgTool('pg_restore', config.databaseUrl!, [
        '--no-owner',
        '--no-acl',
        '--exit-on-error',
        path.join(from, manifest.database.path),
      ]);
    }
    const files = manifest.media.storage === 'disk' ? manifest.media.files : [];
    for (const file of files) {
      const target = path.join(config.dataDir, file.path);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      await fsp.copyFile(path.join(from, file.path), target, fs.constants.COPYFILE_EXCL);
    }
    // A sanity read of what was restored, which also refuses a database newer than this Herald.
    const db = openDatabase(config);
    try {
      const { applied, pending } = await migrationPlan(db);
      return {
        restored: true,
        from,
        database: kind,
        migrations: applied.length,
        pendingMigrations: pending,
        mediaFiles: files.length,
      };
    } finally {
      await db.destroy();
    }
  });
}
