// Reads the operator's environment once. Defaults make a fresh checkout run. VARIABLES declares every variable
// with its default and meaning: `make generate` writes the configuration reference (docs/guides/configuration.md)
// from it, and loadConfig can read no variable it does not declare.
import fs from 'node:fs';
import path from 'node:path';
import type { LogFormat } from './logger.ts';

/** A variable as the configuration reference shows it: its default in words, and what it means. */
export interface VariableDoc {
  default: string;
  meaning: string;
}

/**
 * Every environment variable Herald reads, in the reference's order, but the networks' app credentials, which each
 * network's connector names (`clientEnv`, `configIdEnv`) and the reference lists from the registry. A default
 * written as one code span is the value that changes nothing when set (test/configReference.test.ts).
 */
export const VARIABLES = {
  PORT: { default: '`8080`', meaning: 'HTTP port' },
  HOST: { default: '`127.0.0.1`', meaning: 'bind address' },
  PUBLIC_URL: {
    default: '`http://localhost:$PORT`',
    meaning:
      'origin used in links: API `$PUBLIC_URL/v1`, MCP `$PUBLIC_URL/mcp`, dashboard `$PUBLIC_URL/app`, docs ' +
      '`$PUBLIC_URL/docs`. Must be public `https` with live networks (they fetch media from it and send people back ' +
      'to it)',
  },
  DATA_DIR: {
    default: '`./data`',
    meaning:
      "SQLite files (`herald.sqlite`, and `sandbox.sqlite` for the sandbox networks' own state), local media, " +
      'generated secret',
  },
  DATABASE_URL: { default: 'unset', meaning: 'unset: SQLite in `DATA_DIR`; `postgres://…`: PostgreSQL' },
  SQLITE_BUSY_TIMEOUT_MS: {
    default: '`5000` in `herald serve`, `60000` in the other commands',
    meaning:
      "SQLite: how long a write waits for another process's write to finish. A command that waited in vain " +
      'answers `database_busy` (try it again)',
  },
  HERALD_SECRET: {
    default: 'created in `DATA_DIR` on first start',
    meaning:
      'signs upload addresses and sessions; encrypts network tokens and webhook secrets at rest (AES-256-GCM). ' +
      'At least 32 characters; the same on every process of an instance',
  },
  NETWORKS: {
    default: '`sandbox`',
    meaning: '`sandbox`: every network is a local simulator; `live`: the real networks',
  },
  HERALD_TIKTOK_AUDITED: {
    default: '`false` with live networks, `true` in the sandbox',
    meaning:
      "`true` once TikTok has audited the operator's app; until then TikTok takes private (`SELF_ONLY`) posts " +
      'only, from accounts set to private, and from at most 5 accounts in 24 hours; plans and compose say so, and ' +
      "private posts go live at the creator's profile ([TikTok guide](networks/tiktok.md))",
  },
  RATE_LIMIT_MAX: { default: '`600`', meaning: 'requests per client address per window' },
  RATE_LIMIT_WINDOW_SECONDS: {
    default: '`600`',
    meaning: 'the window of `RATE_LIMIT_MAX`, and of the password checks (30 an address, 10 an email)',
  },
  TRUST_PROXY: {
    default: 'unset',
    meaning:
      'addresses of reverse proxies whose `X-Forwarded-For` names the client (express `trust proxy` syntax, e.g. ' +
      '`loopback`); unset: the socket address is the client',
  },
  LOG_LEVEL: { default: '`info`', meaning: 'pino log level; a line per request, never with keys, tokens or cookies' },
  LOG_FORMAT: {
    default: 'readable at a terminal, else `json`',
    meaning: '`json`: one JSON line per event (for log collectors); `pretty`: readable lines',
  },
  MAX_BODY_BYTES: {
    default: '`1048576`',
    meaning: 'largest JSON body accepted (decompressed); larger ones get `413 payload_too_large`',
  },
  STORAGE: { default: '`disk`', meaning: 'where media bytes live: `disk` (under `DATA_DIR/media`) or `s3`' },
  S3_BUCKET: { default: 'unset', meaning: 'the bucket for `STORAGE=s3` (needed then)' },
  S3_REGION: { default: '`us-east-1`', meaning: "the bucket's region" },
  S3_ENDPOINT: {
    default: 'AWS',
    meaning: 'the address of an S3-compatible server (MinIO, R2, ...), with `S3_FORCE_PATH_STYLE=true`',
  },
  S3_FORCE_PATH_STYLE: {
    default: '`false`',
    meaning: '`true`: the bucket in the path rather than the host name, as most S3-compatible servers need',
  },
  S3_PREFIX: { default: 'none', meaning: 'a folder in the bucket for every object Herald writes' },
  S3_ACCESS_KEY_ID: {
    default: 'unset',
    meaning:
      'S3 credentials, with `S3_SECRET_ACCESS_KEY`; unset: the AWS default chain (environment, profile, ' +
      'instance role)',
  },
  S3_SECRET_ACCESS_KEY: { default: 'unset', meaning: 'the secret of `S3_ACCESS_KEY_ID`; both or neither' },
  FROM_URL_TIMEOUT_SECONDS: { default: '`600`', meaning: 'longest download of `POST /media/from-url`' },
  MEDIA_SWEEP_SECONDS: {
    default: '`600`',
    meaning: 'how often retention and expired reservations are swept; `0` turns the sweep off',
  },
  WORKER: {
    default: '`on`',
    meaning: '`off`: `herald serve` runs no publishing worker (PostgreSQL, with `herald worker` processes elsewhere)',
  },
  WORKER_CONCURRENCY: {
    default: '`100`',
    meaning:
      'publish attempts one worker process sends at once (each mostly waits on its network; an attempt frees its ' +
      'place while the network processes its file, taking one again after, and once its network calls are over; ' +
      'at most three times as many are under way); past their time, a worker keeps as many more waiting (at least ' +
      '100) and leaves the rest of a backlog queued for any worker',
  },
  WORKER_RETRY_DELAYS_SECONDS: {
    default: '`60,300,900`',
    meaning:
      "when the worker retries a temporary failure by itself (the spec's 1, 5 and 15 minutes; tests and " +
      'benchmarks shorten them)',
  },
  WEBHOOK_RETRY_DELAYS_SECONDS: {
    default: '`5,300,1800,7200,18000,36000,36000`',
    meaning:
      "the waits between a webhook delivery's attempts (about three days, then the webhook is disabled); " +
      'benchmarks shorten them',
  },
  SMTP_URL: {
    default: 'unset',
    meaning:
      'mail for invitations, password resets and disabled webhooks (`smtp://user:pass@host:587`, `smtps://…`); ' +
      'unset: each mail, with its link, is written to the log',
  },
  MAIL_FROM: { default: '`Herald <herald@localhost>`', meaning: 'the sender of those mails' },
  SIGNUP: {
    default: 'open until the first account exists, then `invite`',
    meaning:
      'who may create an account and workspace at `/app/sign-up`: `open`, anyone who reaches the instance; ' +
      '`invite`, only people a workspace invites (sign-up answers `403 sign_up_closed`, and the sign-in page says ' +
      "to ask the workspace's owner for an invitation). Unset, the first person to sign up claims a fresh " +
      'instance and everyone after joins by invitation',
  },
  SANDBOX_PROCESSING_MS: {
    default: '`3000`',
    meaning:
      'how long the sandbox networks take to process a video (Instagram and Threads containers, Facebook reels, ' +
      "TikTok posts, and again TikTok's moderation of a public post) before it can be published; images are " +
      'ready at once',
  },
  SANDBOX_YOUTUBE_PROJECT: {
    default: '`audited`',
    meaning:
      'the Google Cloud project the YouTube simulator plays: `unaudited` makes every upload private, as YouTube ' +
      'does until it has audited a project; `testing` also gives refresh tokens that die after 7 days, as a ' +
      'consent screen in Testing does ([the YouTube guide](networks/youtube.md))',
  },
  SANDBOX_URL: {
    default: 'unset',
    meaning:
      'where the sandbox networks answer when `herald sandbox serve` runs them in a process of their own, e.g. ' +
      '`http://127.0.0.1:8090/sandbox`; set it for `herald serve` and `herald worker`, which then send their ' +
      'network calls there (and `herald serve` serves no `/sandbox` itself). Unset: `herald serve` serves them at ' +
      '`$PUBLIC_URL/sandbox`',
  },
  SANDBOX_PORT: { default: '`8090`', meaning: 'the port `herald sandbox serve` listens on (on `HOST`)' },
  SANDBOX_PDS: {
    default: 'unset',
    meaning:
      'sandbox mode: the AT Protocol server (PDS) that Bluesky accounts connect to, since Bluesky has no ' +
      "simulator; `npx tsx scripts/blueskyPds.ts` runs Bluesky's reference PDS and prints the value. Unset: " +
      'Bluesky cannot be connected in the sandbox',
  },
  HERALD_API_KEY: { default: 'unset', meaning: '`herald mcp` (and the `herald-mcp` package): the API key it sends' },
  HERALD_API_URL: {
    default: '`http://localhost:8080/v1`',
    meaning: '`herald mcp` (and the `herald-mcp` package): the REST root of the Herald it bridges to, `$PUBLIC_URL/v1`',
  },
  HERALD_PASSWORD: {
    default: 'unset',
    meaning: '`herald user set-password`: the password, in place of standard input',
  },
  FROM_URL_ALLOW_HOSTS: {
    default: 'unset',
    meaning: 'tests only: host names exempt from the public-address rule of from-url. Never set it in production',
  },
  FROM_URL_CA_FILE: {
    default: 'unset',
    meaning: 'tests only: an extra trusted CA (PEM file) for from-url. Never set it in production',
  },
  WEBHOOK_ALLOW_HOSTS: {
    default: 'unset',
    meaning:
      'tests only: host names a webhook may point at despite the public-https rule (a loopback receiver, over ' +
      'http too). Never set it in production',
  },
  SANDBOX_ANSWER_LOST_PERCENT: {
    default: '`0`',
    meaning:
      "chaos runs only: the share of the sandbox simulators' successful POST and PUT calls whose answer is lost " +
      '(the simulator commits, then cuts the connection); `GET /sandbox/faults` counts them',
  },
} as const satisfies Record<string, VariableDoc>;

/** The environment as loadConfig reads it: only the variables VARIABLES declares. */
type Environment = { readonly [name in keyof typeof VARIABLES]?: string };

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  networks: 'sandbox' | 'live';
  /** How long the sandbox networks take to process a video (SANDBOX_PROCESSING_MS); tests shorten it. */
  sandboxProcessingMs: number;
  /**
   * SANDBOX_URL: where the sandbox simulators run when `herald sandbox serve` serves them in a process of
   * their own (e.g. http://127.0.0.1:8090/sandbox); unset, `herald serve` serves them at PUBLIC_URL/sandbox.
   */
  sandboxUrl: string | undefined;
  /** SANDBOX_PORT: the port `herald sandbox serve` listens on. */
  sandboxPort: number;
  /**
   * SANDBOX_PDS: the AT Protocol server (a PDS, such as the reference one the tests start) that sandbox mode connects
   * Bluesky accounts to, since no simulator stands in for Bluesky; unset, Bluesky cannot be connected in the sandbox.
   */
  sandboxPds: string | undefined;
  /**
   * SANDBOX_ANSWER_LOST_PERCENT (chaos runs only; default 0): the share of the simulators' successful POST and PUT
   * calls whose answer is lost: the simulator commits what the call did, then cuts the connection.
   */
  sandboxAnswerLostPercent: number;
  /** Request limit per client address and window; benchmarks raise it. */
  rateLimit: { max: number; windowMs: number };
  /** Addresses of proxies whose X-Forwarded-For we trust (express "trust proxy" value). */
  trustProxy: string | false;
  logLevel: string;
  /** LOG_FORMAT: `json`, or `pretty` (readable); unset: pretty when stdout is a terminal. */
  logFormat: LogFormat;
  maxBodyBytes: number;
  /** How long any request but the upload PUT may take to arrive whole (30 seconds; tests shorten it). */
  bodyTimeoutMs: number;
  /** The slowest an upload PUT may arrive (UPLOAD_MIN_RATE; tests shorten the window). */
  uploadMinRate: MinimumRate;
  /** Where media bytes live: local disk under DATA_DIR/media, or an S3-compatible bucket. */
  storage: StorageConfig;
  /** POST /media/from-url: hosts exempt from the public-address rule (tests only) and extra trusted CAs. */
  fromUrl: { allowHosts: string[]; extraCaPem: string | undefined; timeoutMs: number };
  /**
   * Webhooks: hosts exempt from the public-address and https rules (WEBHOOK_ALLOW_HOSTS, tests only), and the waits
   * between a delivery's attempts (WEBHOOK_RETRY_DELAYS_SECONDS; benchmarks shorten them).
   */
  webhooks: { allowHosts: string[]; retryDelaysMs: number[] };
  /** How often retention and expired reservations are swept, in ms; 0 turns the timer off. */
  mediaSweepMs: number;
  /**
   * SQLITE_BUSY_TIMEOUT_MS: how long a SQLite write waits for another process's write to finish. Unset: 5 seconds
   * in the server and the worker (a request must not hang), a minute in an operator's command (db/connect.ts).
   */
  sqliteBusyTimeoutMs?: number;
  /** The worker's retries after temporary failures: 1, 5 and 15 minutes (benchmarks shorten them). */
  workerRetryDelaysMs: number[];
  /** Publish attempts one worker process runs at once (mostly waiting on the networks). */
  workerConcurrency: number;
  /** Whether `herald serve` runs a publishing worker in its own process (WORKER=off: it does not). */
  worker: boolean;
  /** Mail for invitations and password resets: an SMTP URL (unset: mail is logged) and its sender. */
  mail: { smtpUrl: string | undefined; from: string };
  /** SIGNUP: who may create an account and workspace at /app/sign-up (see SignUpPolicy). */
  signUp: SignUpPolicy;
  /**
   * HERALD_TIKTOK_AUDITED: whether TikTok has audited the operator's app; until then TikTok takes private
   * posts only. Default false with live networks; the sandbox's app counts as audited.
   */
  tiktokAudited: boolean;
  /**
   * SANDBOX_YOUTUBE_PROJECT: the state of the Google Cloud project the YouTube simulator plays. `audited` (the
   * default); `unaudited`, whose uploads YouTube locks to private; `testing`, unaudited too, with a consent screen in
   * Testing, whose refresh tokens die after 7 days.
   */
  sandboxYoutubeProject: 'audited' | 'unaudited' | 'testing';
}

/**
 * `open`: anyone who reaches the instance; `invite`: only people an invitation names; unset (`first-account`): open
 * until the first account exists, so a fresh install can be claimed, then by invitation only, so a stranger who
 * finds an agency's instance cannot make a workspace on it.
 */
export type SignUpPolicy = 'open' | 'invite' | 'first-account';

/** At least `bytes` must arrive in every `windowMs`. */
export interface MinimumRate {
  bytes: number;
  windowMs: number;
}

/**
 * An upload PUT may take two hours (a 4 GB file on a slow link), so no deadline bounds it whole; a client trickling
 * a byte a second would hold its connection that long. It must send at least 64 KiB a minute (about 9 kbit/s,
 * well under what GPRS, the slowest mobile data, carries), so no real link is cut; a minute rides out the stalls
 * of a mobile link and TCP's retransmission backoff.
 */
export const UPLOAD_MIN_RATE: MinimumRate = { bytes: 64 * 1024, windowMs: 60_000 };

export type StorageConfig =
  | { kind: 'disk' }
  | {
      kind: 's3';
      bucket: string;
      region: string;
      endpoint: string | undefined;
      forcePathStyle: boolean;
      prefix: string;
      credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
    };

/** A comma-separated list of host names, lower-cased. */
function hostList(value: string | undefined): string[] {
  return (value || '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
}

function intFrom(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got "${value}"`);
  return n;
}

function urlFrom(value: string, name: string): string {
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) {
    throw new Error(`${name} must be an http(s) address, got "${value}"`);
  }
  return value.replace(/\/+$/, '');
}

/**
 * An smtp:// or smtps:// address, checked at start as the mailer loads only with the first mail. The value is not
 * repeated in the error: it may carry the password.
 */
function smtpUrlFrom(value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (!URL.canParse(value) || !/^smtps?:$/.test(new URL(value).protocol))
    throw new Error('SMTP_URL must be an smtp:// or smtps:// address, like smtp://user:password@host:587');
  return value;
}

function storageFrom(env: Environment): StorageConfig {
  const kind = env.STORAGE || 'disk';
  if (kind === 'disk') return { kind };
  if (kind !== 's3') throw new Error(`STORAGE must be "disk" or "s3", got "${kind}"`);
  if (!env.S3_BUCKET) throw new Error('STORAGE=s3 needs S3_BUCKET');
  if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
    throw new Error(
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together (or leave both unset for the AWS default chain)',
    );
  }
  return {
    kind,
    bucket: env.S3_BUCKET,
    region: env.S3_REGION || 'us-east-1',
    endpoint: env.S3_ENDPOINT || undefined,
    forcePathStyle: env.S3_FORCE_PATH_STYLE === 'true',
    prefix: (env.S3_PREFIX || '').replace(/^\/+|\/+$/g, ''),
    credentials: env.S3_ACCESS_KEY_ID
      ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY! }
      : undefined,
  };
}

function logFormatFrom(value: string | undefined): LogFormat {
  if (!value) return process.stdout.isTTY ? 'pretty' : 'json';
  if (value !== 'json' && value !== 'pretty') throw new Error(`LOG_FORMAT must be "json" or "pretty", got "${value}"`);
  return value;
}

function signUpFrom(value: string | undefined): SignUpPolicy {
  if (value === undefined || value === '') return 'first-account';
  if (value === 'open' || value === 'invite') return value;
  throw new Error(`SIGNUP must be "open" or "invite", got "${value}"`);
}

function flagFrom(value: string | undefined, fallback: boolean, name: string): boolean {
  if (value === undefined || value === '') return fallback;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new Error(`${name} must be "true" or "false", got "${value}"`);
}

function youtubeProjectFrom(value: string | undefined): Config['sandboxYoutubeProject'] {
  if (value === undefined || value === '') return 'audited';
  if (value === 'audited' || value === 'unaudited' || value === 'testing') return value;
  throw new Error(`SANDBOX_YOUTUBE_PROJECT must be "audited", "unaudited" or "testing", got "${value}"`);
}

function workerFrom(value: string | undefined): boolean {
  if (value === undefined || value === '' || value === 'on') return true;
  if (value === 'off') return false;
  throw new Error(`WORKER must be "on" or "off", got "${value}"`);
}

/** A webhook delivery's waits after each failed attempt: about three days in all, then the webhook is disabled. */
export const WEBHOOK_RETRY_DELAYS_S = [5, 300, 1800, 7200, 18_000, 36_000, 36_000];

/** A comma list of positive seconds, in milliseconds. */
function delaysFrom(value: string | undefined, defaults: number[], name: string): number[] {
  if (value === undefined || value === '') return defaults.map((s) => s * 1000);
  return value.split(',').map((v) => {
    const seconds = Number(v);
    if (!Number.isFinite(seconds) || seconds <= 0)
      throw new Error(`${name} must list positive numbers of seconds, got "${v}"`);
    return seconds * 1000;
  });
}

function percentFrom(value: string | undefined, name: string): number {
  if (value === undefined || value === '') return 0;
  const percent = Number(value);
  if (!Number.isFinite(percent) || percent < 0 || percent > 100)
    throw new Error(`${name} must be a percentage from 0 to 100, got "${value}"`);
  return percent;
}

export function loadConfig(processEnv: NodeJS.ProcessEnv = process.env): Config {
  const env: Environment = processEnv;
  const port = intFrom(env.PORT, 8080, 'PORT');
  const networks = env.NETWORKS ?? 'sandbox';
  if (networks !== 'sandbox' && networks !== 'live')
    throw new Error(`NETWORKS must be "sandbox" or "live", got "${networks}"`);
  return {
    port,
    host: env.HOST || '127.0.0.1',
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    networks,
    sandboxProcessingMs:
      env.SANDBOX_PROCESSING_MS === '0' ? 0 : intFrom(env.SANDBOX_PROCESSING_MS, 3000, 'SANDBOX_PROCESSING_MS'),
    sandboxUrl: env.SANDBOX_URL ? urlFrom(env.SANDBOX_URL, 'SANDBOX_URL') : undefined,
    sandboxPort: intFrom(env.SANDBOX_PORT, 8090, 'SANDBOX_PORT'),
    sandboxPds: env.SANDBOX_PDS ? urlFrom(env.SANDBOX_PDS, 'SANDBOX_PDS') : undefined,
    sandboxAnswerLostPercent: percentFrom(env.SANDBOX_ANSWER_LOST_PERCENT, 'SANDBOX_ANSWER_LOST_PERCENT'),
    rateLimit: {
      max: intFrom(env.RATE_LIMIT_MAX, 600, 'RATE_LIMIT_MAX'),
      windowMs: intFrom(env.RATE_LIMIT_WINDOW_SECONDS, 600, 'RATE_LIMIT_WINDOW_SECONDS') * 1000,
    },
    trustProxy: env.TRUST_PROXY || false,
    logLevel: env.LOG_LEVEL || 'info',
    logFormat: logFormatFrom(env.LOG_FORMAT),
    maxBodyBytes: intFrom(env.MAX_BODY_BYTES, 1024 * 1024, 'MAX_BODY_BYTES'),
    bodyTimeoutMs: 30_000,
    uploadMinRate: UPLOAD_MIN_RATE,
    storage: storageFrom(env),
    fromUrl: {
      allowHosts: hostList(env.FROM_URL_ALLOW_HOSTS),
      extraCaPem: env.FROM_URL_CA_FILE ? fs.readFileSync(env.FROM_URL_CA_FILE, 'utf8') : undefined,
      timeoutMs: intFrom(env.FROM_URL_TIMEOUT_SECONDS, 600, 'FROM_URL_TIMEOUT_SECONDS') * 1000,
    },
    webhooks: {
      allowHosts: hostList(env.WEBHOOK_ALLOW_HOSTS),
      retryDelaysMs: delaysFrom(
        env.WEBHOOK_RETRY_DELAYS_SECONDS,
        WEBHOOK_RETRY_DELAYS_S,
        'WEBHOOK_RETRY_DELAYS_SECONDS',
      ),
    },
    workerRetryDelaysMs: delaysFrom(env.WORKER_RETRY_DELAYS_SECONDS, [60, 300, 900], 'WORKER_RETRY_DELAYS_SECONDS'),
    workerConcurrency: intFrom(env.WORKER_CONCURRENCY, 100, 'WORKER_CONCURRENCY'),
    worker: workerFrom(env.WORKER),
    mail: { smtpUrl: smtpUrlFrom(env.SMTP_URL), from: env.MAIL_FROM || 'Herald <herald@localhost>' },
    signUp: signUpFrom(env.SIGNUP),
    tiktokAudited: flagFrom(env.HERALD_TIKTOK_AUDITED, networks === 'sandbox', 'HERALD_TIKTOK_AUDITED'),
    sandboxYoutubeProject: youtubeProjectFrom(env.SANDBOX_YOUTUBE_PROJECT),
    mediaSweepMs:
      env.MEDIA_SWEEP_SECONDS === '0' ? 0 : intFrom(env.MEDIA_SWEEP_SECONDS, 600, 'MEDIA_SWEEP_SECONDS') * 1000,
    sqliteBusyTimeoutMs: env.SQLITE_BUSY_TIMEOUT_MS
      ? intFrom(env.SQLITE_BUSY_TIMEOUT_MS, 0, 'SQLITE_BUSY_TIMEOUT_MS')
      : undefined,
  };
}
