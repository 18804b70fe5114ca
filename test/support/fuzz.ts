// A small contract-derived fuzzer: for every operation of generated/operations.ts, and for every route of
// ROUTES below (what lives outside /v1), a fixed-seed set of valid, malformed and edge-case requests.
// Nothing here knows a handler: values come from the operation's JSON schema and from pools of ids.
import zlib from 'node:zlib';
import { operations } from '../../generated/operations.ts';
import { seeded, type Random } from './seeded.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = Record<string, unknown>;

/** A request as sent over the socket: the path is sent exactly as written, escapes and all. */
export interface FuzzRequest {
  label: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

/**
 * A route outside /v1: the operations of auth.yaml (test/fuzz.test.ts checks each has a row), OAuth connection,
 * signed addresses, probes. `{name}` in the path takes a value from FuzzContext.params; `body` is a valid JSON body.
 * Add a row for every new route outside /v1.
 */
export interface RouteRow {
  method: string;
  path: string;
  credential: 'none' | 'session' | 'disposable-session';
  body?: Record<string, Json>;
  query?: Record<string, string>;
}

export const ROUTES: RouteRow[] = [
  { method: 'POST', path: '/auth/sign-in', credential: 'none', body: { email: '{email}', password: '{password}' } },
  { method: 'GET', path: '/auth/session', credential: 'session' },
  // The live update stream: a 200 stays open, so the fuzzer takes its status and drops it (test/fuzz.test.ts).
  { method: 'GET', path: '/auth/events', credential: 'session' },
  { method: 'POST', path: '/auth/sign-out', credential: 'disposable-session' },
  { method: 'GET', path: '/auth/connect/{platform}', credential: 'session' },
  {
    method: 'GET',
    path: '/auth/connect/{platform}/callback',
    credential: 'session',
    query: { code: 'c0de', state: 'st4te' },
  },
  // Signing in (Bluesky's app passwords); the sandbox here names no server, so no password leaves Herald.
  {
    method: 'POST',
    path: '/auth/connect/{platform}',
    credential: 'session',
    body: { identifier: 'ola.bsky.social', password: 'abcd-efgh-ijkl-mnop' },
  },
  // A server on another port of PUBLIC_URL's host (127.0.0.1 here): refused (400), never reached (a 502).
  {
    method: 'POST',
    path: '/auth/connect/{platform}',
    credential: 'session',
    body: { identifier: 'ola.bsky.social', password: 'abcd-efgh-ijkl-mnop', server: 'http://127.0.0.1:1' },
  },
  { method: 'PUT', path: '/uploads/{uploadToken}', credential: 'none' },
  { method: 'GET', path: '/media-files/{fileToken}', credential: 'none' },
  { method: 'GET', path: '/healthz', credential: 'none' },
  { method: 'GET', path: '/readyz', credential: 'none' },
  { method: 'GET', path: '/', credential: 'none' },
  {
    method: 'GET',
    path: '/app/{page}',
    credential: 'none',
    query: { error: 'quota_exceeded', message: 'm', hint: 'h' },
  },
  // MCP for agents (mcp/): the endpoint, OAuth, the grants route and the docs.
  {
    method: 'POST',
    path: '/mcp',
    credential: 'none',
    body: {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'service_get_post', arguments: { postId: '{pst}' } },
    },
  },
  // The protocol's own methods, whose params are checked before the SDK sees them (mcp/protocolParams.ts).
  {
    method: 'POST',
    path: '/mcp',
    credential: 'none',
    body: {
      jsonrpc: '2.0',
      id: 2,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
    },
  },
  {
    method: 'POST',
    path: '/mcp',
    credential: 'none',
    body: { jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} },
  },
  {
    method: 'POST',
    path: '/mcp',
    credential: 'none',
    body: { jsonrpc: '2.0', id: 4, method: 'logging/setLevel', params: { level: 'info' } },
  },
  { method: 'GET', path: '/.well-known/oauth-protected-resource/mcp', credential: 'none' },
  { method: 'GET', path: '/.well-known/oauth-authorization-server', credential: 'none' },
  {
    method: 'POST',
    path: '/oauth/register',
    credential: 'none',
    body: { client_name: 'Fuzz', redirect_uris: ['http://127.0.0.1:5555/cb'] },
  },
  {
    method: 'GET',
    path: '/oauth/authorize',
    credential: 'session',
    query: {
      response_type: 'code',
      client_id: 'nobody',
      code_challenge: 'x',
      code_challenge_method: 'S256',
      redirect_uri: 'http://127.0.0.1:5555/cb',
    },
  },
  {
    method: 'POST',
    path: '/oauth/token',
    credential: 'none',
    body: { grant_type: 'refresh_token', refresh_token: 'hlr_x', client_id: 'nobody' },
  },
  { method: 'POST', path: '/oauth/revoke', credential: 'none', body: { token: 'hlr_x', client_id: 'nobody' } },
  {
    method: 'POST',
    path: '/oauth/sign-in',
    credential: 'none',
    body: { email: '{email}', password: '{password}', next: '/oauth/authorize?client_id=nobody' },
  },
  {
    method: 'POST',
    path: '/oauth/consent',
    credential: 'session',
    body: { request: 'x.y', csrf: 'z', decision: 'allow', scope: 'read' },
  },
  // The dashboard's account, team and settings routes (/auth), on both databases.
  { method: 'GET', path: '/auth/sign-up', credential: 'none' },
  {
    method: 'POST',
    path: '/auth/sign-up',
    credential: 'none',
    body: { email: '{newEmail}', name: 'Fuzz', password: '{password}', timeZone: 'Europe/Berlin' },
  },
  { method: 'GET', path: '/auth/accounts/{spareAccount}/disconnect', credential: 'session' },
  { method: 'POST', path: '/auth/accounts/{spareAccount}/disconnect', credential: 'session', body: { confirm: true } },
  { method: 'GET', path: '/auth/keys', credential: 'session' },
  { method: 'POST', path: '/auth/keys', credential: 'session', body: { name: 'Fuzz key', scopes: ['read'] } },
  { method: 'DELETE', path: '/auth/keys/{keyId}', credential: 'session' },
  { method: 'GET', path: '/auth/members', credential: 'session' },
  { method: 'POST', path: '/auth/invites', credential: 'session', body: { email: '{newEmail}', role: 'member' } },
  { method: 'DELETE', path: '/auth/invites/{inviteId}', credential: 'session' },
  { method: 'PATCH', path: '/auth/members/{userId}', credential: 'session', body: { role: 'member' } },
  { method: 'DELETE', path: '/auth/members/{userId}', credential: 'session' },
  { method: 'GET', path: '/auth/invite', credential: 'none', query: { token: 'x.y' } },
  { method: 'POST', path: '/auth/invites/accept', credential: 'none', body: { token: 'x.y', password: '{password}' } },
  { method: 'GET', path: '/auth/workspaces', credential: 'session' },
  { method: 'POST', path: '/auth/workspaces/switch', credential: 'session', body: { workspaceId: '{workspaceId}' } },
  { method: 'POST', path: '/auth/password-reset', credential: 'none', body: { email: '{email}' } },
  { method: 'GET', path: '/auth/password-reset', credential: 'none', query: { token: 'x.y' } },
  {
    method: 'POST',
    path: '/auth/password-reset/confirm',
    credential: 'none',
    body: { token: 'x.y', password: '{password}' },
  },
  // Never the right current password: a change would end the sessions the other rows use.
  {
    method: 'POST',
    path: '/auth/password',
    credential: 'session',
    body: { currentPassword: 'not the password', newPassword: 'a new long password' },
  },
  { method: 'GET', path: '/auth/billing', credential: 'session' },
  { method: 'POST', path: '/auth/billing/plan', credential: 'session', body: { plan: '{plan}' } },
  { method: 'PATCH', path: '/auth/workspace', credential: 'session', body: { name: 'Fuzz', tz: 'Europe/Berlin' } },
  { method: 'GET', path: '/auth/audit', credential: 'session', query: { limit: '10' } },
  // Approvals: the owner decides on a post; `{instant}` is sometimes one no calendar holds.
  { method: 'GET', path: '/auth/approvals', credential: 'session' },
  { method: 'POST', path: '/auth/approvals/{postId}/approve', credential: 'session', body: { publishAt: '{instant}' } },
  { method: 'POST', path: '/auth/approvals/{postId}/reject', credential: 'session', body: { comment: 'Not this.' } },
  { method: 'GET', path: '/auth/openapi.json', credential: 'session' },
  { method: 'GET', path: '/auth/mcp-grants', credential: 'session' },
  { method: 'DELETE', path: '/auth/mcp-grants/{grantId}', credential: 'session' },
  { method: 'GET', path: '/docs/{doc}', credential: 'none' },
];

/** What the fuzzer fills requests with: real ids (own and another workspace's), credentials and route values. */
export interface FuzzContext {
  /** Ids of this workspace by prefix (acc, grp, med, fld, pst, whk, whd), and of another workspace. */
  ids: Record<string, string[]>;
  foreignIds: Record<string, string[]>;
  keys: { read: string; write: string; free: string };
  session: { cookie: string; csrf: string };
  /** Sessions the fuzzer may end (sign-out); one per request that uses one. */
  disposableSessions: { cookie: string; csrf: string }[];
  /** Values for `{name}` in ROUTES paths and bodies. */
  params: Record<string, string[]>;
}

const deep = (n: number): Json => (n === 0 ? [] : [deep(n - 1)]);
const WEIRD_VALUES: Json[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  2 ** 53 + 1,
  '',
  ' ',
  'x'.repeat(70_000),
  '\u0000',
  'a\u0000b',
  '💥'.repeat(500),
  '\u202Eevil\u202C',
  'e\u0301\u0301\u0301',
  '\uFFFF\uFFFE',
  '\uD800',
  '../../etc/passwd',
  "' or 1=1 --",
  '<script>x</script>',
  '%zz',
  '1970-01-01T00:00:00Z',
  '2026-01-01T23:59:60Z',
  '9999-12-31T23:59',
  'NaN',
  'now',
  'draft',
  'acc_',
  [],
  [null],
  [''],
  ['x'.repeat(5000)],
  {},
  { a: 1 },
  { __proto__: null, constructor: { prototype: {} } } as unknown as Json,
  deep(40),
];
const WEIRD_IDS = [
  '',
  'x',
  '%zz',
  '%00',
  '%E0%A4%A',
  '..',
  '%2e%2e',
  '%2F',
  'a'.repeat(3000),
  '%F0%9F%92%A5',
  "'%20or%201=1",
  'null',
  'undefined',
  '__proto__',
  'constructor',
  'acc_AAAAAAAAAAAAAAAAAAAA',
  'med_%20',
  '-1',
  '1e9',
];
const WEIRD_QUERY = [
  '',
  'x',
  '-1',
  '0',
  '1e9',
  '99999999999999999999',
  'true',
  'null',
  '%zz',
  '%00',
  '%E0%A4%A',
  'a'.repeat(5000),
  '2026-01-01T23:59:60Z',
  '2026-13-45T99:99:99Z',
  'now',
  '%F0%9F%92%A5',
  '[]',
  '{}',
];
const RAW_BODIES: (string | Buffer)[] = [
  '',
  '{',
  '{"a":',
  '[]',
  'null',
  '"text"',
  '1',
  'true',
  '{"a":1}{"b":2}',
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  `{"a":${'1'.repeat(400)}}`,
  '{"a":1e999}',
  Buffer.from([0xff, 0xfe, 0x7b, 0x7d]),
  Buffer.from('{"name":"\xe9"}', 'latin1'),
  '\u0000',
  '{"a":"\\ud800"}',
];
const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/*',
  '',
];
const ENCODINGS = ['gzip', 'deflate', 'br', 'zstd', 'gzip, br', 'identity', 'x-unknown'];

function resolveSchema(schema: Schema | undefined): Schema {
  const s = schema ?? {};
  const choice = (s.oneOf ?? s.anyOf) as Schema[] | undefined;
  return choice?.length ? { ...choice[0], description: s.description } : s;
}

/** A valid-looking value for a schema, using real ids for fields named like ids. */
function sample(schema: Schema | undefined, name: string, ctx: FuzzContext, r: Random, depth = 0): Json {
  const s = resolveSchema(schema);
  if (Array.isArray(s.enum)) return r.pick(s.enum as Json[]);
  if (s.const !== undefined) return s.const as Json;
  if (s.default !== undefined && r.chance(0.3)) return s.default as Json;
  const type = Array.isArray(s.type) ? (s.type as string[])[0] : (s.type as string | undefined);
  if (type === 'object' || s.properties) {
    const props = (s.properties ?? {}) as Record<string, Schema>;
    const required = new Set((s.required ?? []) as string[]);
    const out: Record<string, Json> = {};
    const max = typeof s.maxProperties === 'number' ? s.maxProperties : Infinity;
    for (const [key, child] of Object.entries(props)) {
      if (Object.keys(out).length >= max) break;
      if (required.has(key) || (depth < 3 && r.chance(0.5)) || (s.minProperties && Object.keys(out).length === 0)) {
        out[key] = sample(child, key, ctx, r, depth + 1);
      }
    }
    return out;
  }
  if (type === 'array') {
    const n = Math.max(Number(s.minItems ?? 0), r.int(3));
    const items = Array.from({ length: Math.min(n, Number(s.maxItems ?? 3)) }, () =>
      sample(s.items as Schema, singular(name), ctx, r, depth + 1),
    );
    return s.uniqueItems ? [...new Set(items.map((i) => JSON.stringify(i)))].map((i) => JSON.parse(i) as Json) : items;
  }
  if (type === 'integer' || type === 'number') return Number(s.minimum ?? 1) + r.int(3);
  if (type === 'boolean') return r.chance(0.7);
  return sampleString(s, name, ctx, r);
}

const singular = (name: string) => name.replace(/Ids$/, 'Id').replace(/s$/, '');

const ID_PREFIX: Record<string, string> = {
  account: 'acc',
  group: 'grp',
  media: 'med',
  thumbnailMedia: 'med',
  folder: 'fld',
  parent: 'fld',
  post: 'pst',
  webhook: 'whk',
  delivery: 'whd',
};

function idFor(name: string, ctx: FuzzContext, r: Random): string | undefined {
  const prefix = ID_PREFIX[name.replace(/Id$/, '')];
  if (!prefix) return undefined;
  const pool = r.chance(0.1) ? ctx.foreignIds : ctx.ids;
  return r.pick(pool[prefix] ?? ['missing']);
}

function sampleString(s: Schema, name: string, ctx: FuzzContext, r: Random): string {
  const id = name.endsWith('Id') ? idFor(name, ctx, r) : undefined;
  if (id) return id;
  if (s.format === 'date-time') return new Date(Date.now() + r.int(30) * 86_400_000).toISOString();
  if (name === 'publishAt') return new Date(Date.now() + (1 + r.int(30)) * 86_400_000).toISOString().slice(0, 16);
  if (name === 'timezone') return r.pick(['Europe/Berlin', 'UTC', 'America/New_York', 'Mars/Olympus']);
  if (name === 'url')
    return r.pick([
      'https://127.0.0.1/a.jpg',
      'http://example.invalid/a.jpg',
      'https://10.0.0.1/x',
      'file:///etc/passwd',
    ]);
  if (name === 'mime') return r.pick(['image/jpeg', 'video/mp4', 'image/png', 'text/plain']);
  if (name === 'filename') return r.pick(['a.jpg', 'clip.mp4', 'x']);
  const examples = (s.examples ?? (s.example === undefined ? [] : [s.example])) as Json[];
  if (examples.length && r.chance(0.6)) return String(r.pick(examples));
  return r.pick(['Autumn sale', 'x', 'Hello 👋', '22', 'public']);
}

/** Replaces one value somewhere inside `value` (a random path) with `replacement`. */
function mutateDeep(value: Json, replacement: Json, r: Random): Json {
  if (Array.isArray(value) && value.length && r.chance(0.7)) {
    const copy = [...value];
    const i = r.int(copy.length);
    copy[i] = mutateDeep(copy[i]!, replacement, r);
    return copy;
  }
  if (value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length && r.chance(0.7)) {
    const key = r.pick(Object.keys(value));
    return { ...value, [key]: mutateDeep(value[key]!, replacement, r) };
  }
  return replacement;
}

interface Credential {
  name: string;
  headers: Record<string, string>;
}

function credentials(ctx: FuzzContext): Credential[] {
  const { keys, session } = ctx;
  return [
    { name: 'write key', headers: { Authorization: `Bearer ${keys.write}` } },
    { name: 'write key', headers: { Authorization: `Bearer ${keys.write}` } },
    { name: 'read key', headers: { Authorization: `Bearer ${keys.read}` } },
    { name: 'read key + cookie x', headers: { Authorization: `Bearer ${keys.read}`, Cookie: 'herald_session=x' } },
    {
      name: 'write key + session',
      headers: { Authorization: `Bearer ${keys.write}`, Cookie: session.cookie, 'X-CSRF-Token': session.csrf },
    },
    { name: 'session + csrf', headers: { Cookie: session.cookie, 'X-CSRF-Token': session.csrf } },
    { name: 'session, no csrf', headers: { Cookie: session.cookie } },
    { name: 'session, bad csrf', headers: { Cookie: session.cookie, 'X-CSRF-Token': 'forged' } },
    { name: 'free plan key', headers: { Authorization: `Bearer ${keys.free}` } },
    { name: 'no credential', headers: {} },
    { name: 'unknown key', headers: { Authorization: 'Bearer hld_0000000000000000000000000000000000000000' } },
    { name: 'bearer without token', headers: { Authorization: 'Bearer' } },
    { name: 'basic auth', headers: { Authorization: 'Basic dXNlcjpwYXNz' } },
    { name: 'cookie %zz', headers: { Cookie: 'herald_session=%zz' } },
    { name: 'cookie %E0', headers: { Cookie: 'herald_session=%E0; other=1' } },
    { name: 'huge cookie', headers: { Cookie: `herald_session=${'a'.repeat(8000)}` } },
    { name: 'two cookies', headers: { Cookie: `herald_session=x; ${session.cookie}`, 'X-CSRF-Token': session.csrf } },
  ];
}

function fill(template: string, ctx: FuzzContext, r: Random): string {
  return template.replace(/\{(\w+)\}/g, (_m, name: string) => idFor(name, ctx, r) ?? r.pick(ctx.params[name] ?? ['x']));
}

function fillJson(value: Json, ctx: FuzzContext, r: Random): Json {
  if (typeof value === 'string') return fill(value, ctx, r);
  if (Array.isArray(value)) return value.map((v) => fillJson(v, ctx, r));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillJson(v, ctx, r)]));
  return value;
}

interface Shape {
  label: string;
  method: string;
  /** The path with `{name}` placeholders, and how to fill one. */
  path: string;
  pathValue: (name: string) => string;
  query: () => Record<string, string>;
  queryNames: string[];
  body: (() => Json) | undefined;
  bodyFields: string[];
  credential: () => Credential;
}

/** One request for a shape, malformed in one (sometimes two) ways chosen by `r`; as is when `valid`. */
function mutate(shape: Shape, ctx: FuzzContext, r: Random, valid = false): FuzzRequest {
  let method = shape.method.toUpperCase();
  let pathText = shape.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(shape.pathValue(name)));
  const query: [string, string][] = Object.entries(shape.query()).map(([k, v]) => [k, encodeURIComponent(v)]);
  let body: Json | undefined = shape.body?.();
  let raw: Buffer | undefined;
  const cred = shape.credential();
  const headers: Record<string, string> = { ...cred.headers };
  const notes: string[] = [cred.name];
  const kinds = [
    'valid',
    'path',
    'query',
    'body-field',
    'body-drop',
    'body-extra',
    'body-raw',
    'body-deep',
    'content-type',
    'encoding',
    'method',
    'headers',
  ];
  for (let n = valid ? 0 : r.chance(0.25) ? 2 : 1; n > 0; n--) {
    const kind = r.pick(kinds);
    notes.push(kind);
    switch (kind) {
      case 'path': {
        const names = [...shape.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
        if (names.length) {
          const name = r.pick(names);
          const value = r.chance(0.3)
            ? (idFor(name, { ...ctx, ids: ctx.foreignIds }, r) ?? r.pick(WEIRD_IDS))
            : r.pick(WEIRD_IDS);
          pathText = shape.path.replace(/\{(\w+)\}/g, (_m, other: string) =>
            other === name ? value : encodeURIComponent(shape.pathValue(other)),
          );
        } else {
          pathText += r.pick(['/%zz', '/x', '/', '//', '/..', '%00', '/%E0%A4%A']);
        }
        break;
      }
      case 'query':
        if (shape.queryNames.length && r.chance(0.8)) query.push([r.pick(shape.queryNames), r.pick(WEIRD_QUERY)]);
        else
          query.push([
            r.pick(['unknown', '__proto__', 'constructor', 'limit[]', 'a'.repeat(300)]),
            r.pick(WEIRD_QUERY),
          ]);
        break;
      case 'body-field':
        if (body && typeof body === 'object' && !Array.isArray(body) && shape.bodyFields.length) {
          body = { ...body, [r.pick(shape.bodyFields)]: r.pick(WEIRD_VALUES) };
        } else body = r.pick(WEIRD_VALUES);
        break;
      case 'body-drop':
        if (body && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length) {
          const { [r.pick(Object.keys(body))]: _dropped, ...rest } = body;
          body = rest;
        }
        break;
      case 'body-extra':
        body = {
          ...(body && typeof body === 'object' && !Array.isArray(body) ? body : {}),
          [r.pick(['extra', '__proto__', 'constructor', ''])]: r.pick(WEIRD_VALUES),
        };
        break;
      case 'body-deep':
        body = mutateDeep(body ?? {}, r.pick(WEIRD_VALUES), r);
        break;
      case 'body-raw': {
        const chosen = r.pick(RAW_BODIES);
        raw = typeof chosen === 'string' ? Buffer.from(chosen) : chosen;
        break;
      }
      case 'content-type':
        headers['Content-Type'] = r.pick(CONTENT_TYPES);
        break;
      case 'encoding': {
        const encoding = r.pick(ENCODINGS);
        headers['Content-Encoding'] = encoding;
        // Half the time the body really is compressed that way.
        if (r.chance(0.5)) {
          const plain = raw ?? Buffer.from(JSON.stringify(body ?? {}));
          raw =
            encoding === 'gzip'
              ? zlib.gzipSync(plain)
              : encoding === 'deflate'
                ? zlib.deflateSync(plain)
                : encoding === 'br'
                  ? zlib.brotliCompressSync(plain)
                  : plain;
        }
        break;
      }
      case 'method':
        method = r.pick(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND']);
        break;
      case 'headers':
        Object.assign(
          headers,
          r.pick([
            { 'X-Request-Id': '../../x' },
            { 'X-Forwarded-For': '1.2.3.4, evil' },
            { Accept: 'text/html' },
            { 'X-CSRF-Token': 'a'.repeat(5000) },
            { 'Content-Length': '0' },
            { Authorization: `Bearer ${ctx.keys.write}`, Cookie: 'herald_session=x' },
            { Cookie: 'herald_session=' },
            { Range: 'bytes=0-1' },
            { 'If-None-Match': '*' },
            { Expect: '100-continue' },
            // Idempotency-Key: malformed, and one key shared by every operation and body (replays, 422, 409).
            { 'Idempotency-Key': '' },
            { 'Idempotency-Key': 'k'.repeat(256) },
            { 'Idempotency-Key': 'caf\u00e9' },
            { 'Idempotency-Key': 'fuzz-key' },
          ]),
        );
        break;
    }
  }
  const search = query.length ? `?${query.map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join('&')}` : '';
  if (raw === undefined && body !== undefined && method !== 'GET' && method !== 'HEAD')
    raw = Buffer.from(JSON.stringify(body));
  if (raw !== undefined) headers['Content-Type'] ??= 'application/json';
  if (raw !== undefined && (method === 'GET' || method === 'HEAD') && !r.chance(0.2)) raw = undefined;
  return { label: `${shape.label} [${notes.join(', ')}]`, method, path: pathText + search, headers, body: raw };
}

/**
 * For every /v1 operation and every ROUTES row: well-formed requests with each credential, to send one at a
 * time, and `count` malformed ones, to send concurrently; the same for the same seed.
 */
export function fuzzRequests(
  ctx: FuzzContext,
  seed: number,
  count: number,
): { wellFormed: FuzzRequest[]; malformed: FuzzRequest[] } {
  const r = seeded(seed);
  const creds = credentials(ctx);
  const shapes: Shape[] = operations.map((op) => {
    const props = ((op.inputSchema as Schema).properties ?? {}) as Record<string, Schema>;
    const required = new Set(((op.inputSchema as Schema).required ?? []) as string[]);
    const only = (names: string[]) => ({
      type: 'object',
      properties: Object.fromEntries(names.map((n) => [n, props[n]!])),
      required: names.filter((n) => required.has(n)),
    });
    return {
      label: `${op.method.toUpperCase()} /v1${op.path} (${op.operationId})`,
      method: op.method,
      path: `/v1${op.path}`,
      pathValue: (name: string) => String(sample(props[name], name, ctx, r)),
      query: () =>
        Object.fromEntries(
          Object.entries(sample(only(op.fields.query), '', ctx, r) as Record<string, Json>).map(([k, v]) => [
            k,
            String(v),
          ]),
        ),
      queryNames: op.fields.query,
      body: op.fields.body.length ? () => sample(only(op.fields.body), '', ctx, r) : undefined,
      bodyFields: op.fields.body,
      credential: () => r.pick(creds),
    };
  });
  for (const row of ROUTES) {
    shapes.push({
      label: `${row.method} ${row.path}`,
      method: row.method,
      path: row.path,
      pathValue: (name: string) => fill(`{${name}}`, ctx, r),
      query: () => row.query ?? {},
      queryNames: Object.keys(row.query ?? {}),
      body: row.body ? () => fillJson(row.body!, ctx, r) : undefined,
      bodyFields: Object.keys(row.body ?? {}),
      credential: () => {
        if (row.credential === 'none') return r.chance(0.7) ? { name: 'no credential', headers: {} } : r.pick(creds);
        const session = row.credential === 'session' ? ctx.session : (ctx.disposableSessions.pop() ?? ctx.session);
        return r.chance(0.6)
          ? { name: 'session + csrf', headers: { Cookie: session.cookie, 'X-CSRF-Token': session.csrf } }
          : r.pick(creds);
      },
    });
  }
  const wellFormed: FuzzRequest[] = [];
  const malformed: FuzzRequest[] = [];
  for (const shape of shapes) {
    // A well-formed request with each credential (a key with a cookie, say), twice: sent one after the other,
    // the second finds the key in the server's cache.
    for (const cred of creds) {
      const request = mutate({ ...shape, credential: () => cred }, ctx, r, true);
      wellFormed.push(request, request);
    }
    for (let i = 0; i < count; i++) malformed.push(mutate(shape, ctx, r));
  }
  return { wellFormed, malformed };
}

/** A request sent as is, with the status it must get. */
export interface HostileRequest extends FuzzRequest {
  status?: number;
}

/**
 * Shapes that could freeze the whole server or make it fault: text, emails and links far beyond any
 * limit, settings that are not objects, bodies nested 10,000 deep. Sent first, one at a time: the sign-up
 * row needs the address's sign-in limit unspent.
 */
export function hostileRequests(ctx: FuzzContext): HostileRequest[] {
  const [threads, facebook] = ctx.ids.acc!;
  const read = { Authorization: `Bearer ${ctx.keys.read}` };
  const write = { Authorization: `Bearer ${ctx.keys.write}` };
  const nested = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
  const plan = (account: string, fields: Record<string, Json>) =>
    JSON.stringify({ targets: { accountIds: [account] }, mediaIds: [], text: 'Hi', when: 'draft', ...fields });
  // Written as text: JSON.stringify would recurse 10,000 deep.
  const deepSettings = plan(facebook!, { perPlatform: { facebook: 'deep' } }).replace('"deep"', nested);
  const tool = (args: string) =>
    `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"service_plan_post","arguments":${args}}}`;
  const row = (label: string, path: string, body: string, headers: Record<string, string>, status: number) => ({
    label: `hostile: ${label}`,
    method: path === '/v1/openapi.json' ? 'GET' : 'POST',
    path,
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    body: Buffer.from(body),
    status,
  });
  const email = `a@${'a.'.repeat(150_000)}@`;
  return [
    row('threads text 👍🏽 × 20,000', '/v1/posts/plan', plan(threads!, { text: '👍🏽'.repeat(20_000) }), read, 200),
    // Past the 65,536 characters any post may carry: refused by the contract, before anything counts it.
    row('threads text é × 200,000', '/v1/posts/plan', plan(threads!, { text: 'é'.repeat(200_000) }), read, 400),
    row('threads text é × 65,536', '/v1/posts/plan', plan(threads!, { text: 'é'.repeat(65_536) }), read, 200),
    ...amplifiedFeed(ctx),
    row(
      'text https://a + ")" × 50,000',
      '/v1/posts/plan',
      plan(threads!, { text: `https://a${')'.repeat(50_000)}` }),
      read,
      200,
    ),
    row(
      'text https://a + "." × 50,000 + b',
      '/v1/posts/plan',
      plan(threads!, { text: `https://a${'.'.repeat(50_000)}b` }),
      read,
      200,
    ),
    row(
      'perPlatform.facebook.link https:// + "a." × 50,000 + " x"',
      '/v1/posts/plan',
      plan(facebook!, { perPlatform: { facebook: { link: `https://${'a.'.repeat(50_000)} x` } } }),
      read,
      200,
    ),
    row(
      'sign-up email a@ + "a." × 150,000 + @',
      '/auth/sign-up',
      JSON.stringify({ email, name: 'A', password: 'long enough pass' }),
      {},
      400,
    ),
    row('password reset, the same email', '/auth/password-reset', JSON.stringify({ email }), {}, 400),
    row(
      'perPlatform.facebook a 990 KB string',
      '/v1/posts/plan',
      plan(facebook!, { perPlatform: { facebook: 'x'.repeat(990_000) } }),
      read,
      400,
    ),
    row(
      'perPlatform.facebook an array, created',
      '/v1/posts',
      plan(facebook!, { perPlatform: { facebook: ['x'] }, confirm: true }),
      write,
      400,
    ),
    row('a body nested 10,000 deep, no credential', '/v1/openapi.json', nested, {}, 400),
    row('perPlatform.facebook nested 10,000 deep', '/v1/posts/plan', deepSettings, read, 400),
    row('sign-in nested 10,000 deep', '/auth/sign-in', nested, {}, 400),
    row('OAuth registration nested 10,000 deep', '/oauth/register', nested, {}, 400),
    row(
      'service_plan_post threads text 👍🏽 × 20,000',
      '/mcp',
      tool(plan(threads!, { text: '👍🏽'.repeat(20_000) })),
      read,
      200,
    ),
    row('service_plan_post nested 10,000 deep', '/mcp', tool(deepSettings), read, 400),
    ...postgresFaults(ctx),
    ...approvalBypass(ctx),
    ...webhookAddressRefusals(ctx),
  ];
}

/**
 * Webhook addresses refused at creation and change: a user name and password, which every key
 * that reads webhooks would see, and host names that resolve to loopback. The fuzzed workspace's plan has no
 * webhooks (402 first): these ask only for no 5xx; test/webhooks.test.ts pins the refusals themselves.
 */
function webhookAddressRefusals(ctx: FuzzContext): HostileRequest[] {
  const request = (method: string, path: string, url: string): HostileRequest => ({
    label: `item 7: ${method} ${path} url ${url.slice(0, 60)}`,
    method,
    path,
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${ctx.keys.write}` },
    body: Buffer.from(JSON.stringify(method === 'POST' ? { url, events: ['post.live'] } : { url })),
  });
  const hook = `/v1/webhooks/${ctx.ids.whk![0]}`;
  return [
    request('POST', '/v1/webhooks', 'https://user:pass@example.com/hook'),
    request('POST', '/v1/webhooks', `https://${'u'.repeat(1500)}:${'p'.repeat(400)}@example.com/`),
    request('POST', '/v1/webhooks', 'https://localhost/hook'),
    request('POST', '/v1/webhooks', 'https://localhost.:443/hook'),
    request('PATCH', hook, 'https://user:pass@example.com/hook'),
    request('PATCH', hook, 'https://localhost/hook'),
  ];
}

/**
 * Approval past its door, in order: with approval required for keys, a failed post's edit waits for approval and
 * its retry is refused (it went live unapproved); an approval at a time no calendar holds is a 400, not a 500;
 * a draft naming another workspace's file as its thumbnail is a 404. `approvalKey` is a key no request used
 * before (a key's credential is cached a second, settings and all); the setting is given back at the end.
 */
function approvalBypass(ctx: FuzzContext): HostileRequest[] {
  const session = { Cookie: ctx.session.cookie, 'X-CSRF-Token': ctx.session.csrf };
  const key = { Authorization: `Bearer ${ctx.params.approvalKey![0]}` };
  const write = { Authorization: `Bearer ${ctx.keys.write}` };
  const failed = ctx.params.failedPost![0]!;
  const row = (label: string, method: string, path: string, body: Json, headers: object, status: number) => ({
    label: `approval: ${label}`,
    method,
    path,
    headers: { 'Content-Type': 'application/json', ...headers },
    body: Buffer.from(JSON.stringify(body)),
    status,
  });
  const approve = (publishAt: string) =>
    row(`approve at ${publishAt}`, 'POST', `/auth/approvals/${failed}/approve`, { publishAt }, session, 400);
  const everyone = ['members', 'apiKeys', 'mcpClients'];
  const youtube = { visibility: 'unlisted', category: '22', thumbnailMediaId: ctx.foreignIds.med![0]! };
  return [
    row('approval for all', 'PATCH', '/auth/workspace', { approvalRequiredFor: everyone }, session, 200),
    row('a failed post edited', 'PATCH', `/v1/posts/${failed}`, { text: 'Words no approver saw' }, key, 200),
    row('then retried', 'POST', `/v1/posts/${failed}/retry`, { confirm: true }, key, 409),
    approve('+275760-09-13T00:00:00Z'),
    approve('2026-02-30T10:00:00Z'),
    row('approval for none', 'PATCH', '/auth/workspace', { approvalRequiredFor: [] }, session, 200),
    row(
      "a draft with another workspace's thumbnail",
      'POST',
      '/v1/posts',
      {
        targets: { accountIds: [ctx.ids.acc![3]!] },
        mediaIds: [],
        text: 'Hi',
        when: 'draft',
        perPlatform: { youtube },
        confirm: true,
      },
      write,
      404,
    ),
  ];
}

/**
 * The event feed as an amplifier: a draft of 990 KB (refused now, as is a 101st tag), and the
 * page of 100 events of a post edited 100 times at its largest text (made before the run, see AMPLIFIED_DRAFT),
 * read three times: each page stays within its byte budget, so no read holds the loop.
 */
function amplifiedFeed(ctx: FuzzContext): HostileRequest[] {
  const json = { 'Content-Type': 'application/json', Authorization: `Bearer ${ctx.keys.write}` };
  const draft = { targets: { accountIds: [ctx.ids.acc![1]!] }, mediaIds: [], when: 'draft', confirm: true };
  const send = (label: string, method: string, path: string, body: Json | undefined, status: number) => ({
    label: `item 2: ${label}`,
    method,
    path,
    headers: body === undefined ? { Authorization: `Bearer ${ctx.keys.read}` } : json,
    body: body === undefined ? undefined : Buffer.from(JSON.stringify(body)),
    status,
  });
  const read = send('GET 100 post.updated events of the largest post', 'GET', AMPLIFIED_FEED, undefined, 200);
  return [
    send('a draft of 990 KB of text', 'POST', '/v1/posts', { ...draft, text: 'x'.repeat(990_000) }, 400),
    send('101 tags', 'PATCH', `/v1/posts/${ctx.ids.pst![0]}`, { tags: Array(101).fill('t') }, 400),
    read,
    read,
    read,
  ];
}

/** The draft fuzz.test.ts makes before the run: the largest text in the character JSON writes longest (6 bytes). */
export const AMPLIFIED_DRAFT = { text: '\u0001'.repeat(65_536), edits: 100 };
const AMPLIFIED_FEED = '/v1/events?limit=100&types=post.updated';

/**
 * What PostgreSQL may refuse where SQLite takes it, in /auth and /oauth, sent on both databases with no status
 * asked but "not a 5xx": an email longer than the limiter's bucket column, and NUL as an id.
 */
function postgresFaults(ctx: FuzzContext): HostileRequest[] {
  const session = { Cookie: ctx.session.cookie, 'X-CSRF-Token': ctx.session.csrf };
  const email = `${'a'.repeat(240)}@example.com`;
  const row = (method: string, path: string, body: Json | undefined, headers: Record<string, string> = {}) => ({
    label: `item 10: ${method} ${path}`,
    method,
    path,
    headers: { 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : Buffer.from(JSON.stringify(body)),
  });
  return [
    row('POST', '/auth/sign-in', { email, password: 'x' }),
    row('POST', '/oauth/sign-in', { email, password: 'x', next: '/oauth/authorize?client_id=x' }),
    row(
      'GET',
      '/oauth/authorize?client_id=%00&response_type=code&code_challenge=x&code_challenge_method=S256',
      undefined,
      session,
    ),
    row('DELETE', '/auth/keys/%00', undefined, session),
    row('DELETE', '/auth/invites/%00', undefined, session),
    row('DELETE', '/auth/members/%00', undefined, session),
    row('PATCH', '/auth/members/%00', { role: 'member' }, session),
    row('GET', '/auth/accounts/%00/disconnect', undefined, session),
    row('POST', '/auth/accounts/%00/disconnect', { confirm: true }, session),
  ];
}

/** The same sign-up six times at once: one account, the others 409 (never a 500 from PostgreSQL's unique index). */
export function twinSignUps(kind: string): FuzzRequest[] {
  const body = { email: `twin-${kind}@example.com`, name: `Twin ${kind}`, password: 'long enough pass' };
  return Array.from({ length: 6 }, () => ({
    label: 'item 10: six sign-ups at once',
    method: 'POST',
    path: '/auth/sign-up',
    headers: { 'Content-Type': 'application/json' },
    body: Buffer.from(JSON.stringify(body)),
  }));
}
