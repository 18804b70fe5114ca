// Reads the operator's environment once. Defaults make a fresh checkout run (see ../shared/design.md).
import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  networks: 'sandbox' | 'live';
  /** Request limit per client address and window; benchmarks raise it. */
  rateLimit: { max: number; windowMs: number };
  /** Addresses of proxies whose X-Forwarded-For we trust (express "trust proxy" value). */
  trustProxy: string | false;
  logLevel: string;
  maxBodyBytes: number;
}

function intFrom(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got "${value}"`);
  return n;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = intFrom(env.PORT, 8080, 'PORT');
  const networks = env.NETWORKS ?? 'sandbox';
  if (networks !== 'sandbox' && networks !== 'live') throw new Error(`NETWORKS must be "sandbox" or "live", got "${networks}"`);
  return {
    port,
    host: env.HOST || '127.0.0.1',
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    networks,
    rateLimit: {
      max: intFrom(env.RATE_LIMIT_MAX, 600, 'RATE_LIMIT_MAX'),
      windowMs: intFrom(env.RATE_LIMIT_WINDOW_SECONDS, 600, 'RATE_LIMIT_WINDOW_SECONDS') * 1000,
    },
    trustProxy: env.TRUST_PROXY || false,
    logLevel: env.LOG_LEVEL || 'info',
    maxBodyBytes: intFrom(env.MAX_BODY_BYTES, 1024 * 1024, 'MAX_BODY_BYTES'),
  };
}
