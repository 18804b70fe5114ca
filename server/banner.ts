// What `herald serve` shows a person at a terminal: where everything is, what it runs on, and what to
// do next. Machines (no terminal, or LOG_FORMAT=json) get the JSON "listening" line instead.
import path from 'node:path';
import { SQLITE_FILE } from '../db/connect.ts';
import type { Config } from '../runtime/config.ts';
import { HERALD_VERSION } from '../runtime/version.ts';

/** The database as an operator names it, without the password a DATABASE_URL may carry. */
export function describeDatabase(config: Config): string {
  if (!config.databaseUrl) return `SQLite, ${path.join(config.dataDir, SQLITE_FILE)}`;
  const url = new URL(config.databaseUrl);
  return `PostgreSQL, ${url.hostname}${url.port ? ':' + url.port : ''}${url.pathname}`;
}

export function describeStorage(config: Config): string {
  const s = config.storage;
  if (s.kind === 'disk') return `disk, ${path.join(config.dataDir, 'media')}`;
  return `S3 bucket ${s.bucket}${s.prefix ? '/' + s.prefix : ''}${s.endpoint ? ` at ${s.endpoint}` : ` (${s.region})`}`;
}

export function describeNetworks(config: Config): string {
  return config.networks === 'sandbox'
    ? 'sandbox: simulated networks, nothing is posted for real (NETWORKS=live for the real ones)'
    : 'live: posts go to the real networks';
}

/** A fresh instance with SIGNUP=invite has no sign-up page to offer: its first account is made at the command line. */
export const FIRST_BY_CLI =
  'SIGNUP=invite, so create the first workspace with `bin/herald workspace create --email …` and give that user ' +
  'a password with `bin/herald user set-password`';

export function startupBanner(config: Config, facts: { firstUser: boolean; worker: boolean }): string {
  const base = config.publicUrl;
  const rows: [string, string][] = [
    ['Dashboard', `${base}/app`],
    ['REST API', `${base}/v1   (contract: ${base}/v1/openapi.json)`],
    ['MCP', `${base}/mcp`],
    ['Docs', `${base}/docs`],
    ['Database', describeDatabase(config)],
    ['Storage', describeStorage(config)],
    ['Networks', describeNetworks(config)],
    ['Worker', facts.worker ? 'publishing in this process' : 'none here: run `bin/herald worker` beside it'],
  ];
  const next = !facts.firstUser
    ? `Sign in at ${base}/app`
    : config.signUp === 'invite'
      ? `Next step: ${FIRST_BY_CLI}`
      : `Next step: create the first account at ${base}/app/sign-up`;
  return [
    '',
    `  Herald ${HERALD_VERSION} is listening on ${config.host}:${config.port}`,
    '',
    ...rows.map(([label, value]) => `  ${label.padEnd(10)} ${value}`),
    '',
    `  ${next}`,
    '  Check the installation with `bin/herald doctor`; stop with Ctrl+C.',
    '',
    '',
  ].join('\n');
}
