// The remote MCP endpoint with API keys: tools from the contract, the REST chain behind each call,
// confirmation, visibility per key and plan, hidden tools, and the transport's own rules.
import fs from 'node:fs';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { DateTime } from 'luxon';
import { notFoundWords } from '../domain/errors.ts';
import { operations } from '../generated/operations.ts';
import { addAccount, call, DATABASES, seedWorkspace, type Seeded, type TestEnv } from './support/harness.ts';
import { mcpClient, rpc, startListening } from './support/mcp.ts';

const READ_TOOLS = [
  'service_whoami',
  'service_list_accounts',
  'service_get_account_analytics',
  'service_list_groups',
  'service_list_media',
  'service_get_media',
  'service_list_folders',
  'service_plan_post',
  'service_list_posts',
  'service_get_post',
  'service_get_post_analytics',
];

describe.each(DATABASES)('remote MCP with API keys on %s', (kind) => {
  let env: TestEnv;
  let origin: string;
  let stop: () => Promise<void>;
  let creator: Seeded;
  let free: Seeded;
  let accountId: string;
  const clients: Client[] = [];

  async function connect(key: string) {
    const client = await mcpClient(origin, key);
    clients.push(client);
    return client;
  }

  function postBody(extra: Record<string, unknown> = {}) {
    const publishAt = DateTime.now().setZone('Europe/Berlin').plus({ days: 2 }).toFormat("yyyy-MM-dd'T'HH:mm");
    return {
      targets: { accountIds: [accountId] },
      mediaIds: [],
      text: 'Hello from an agent',
      when: { publishAt, timezone: 'Europe/Berlin' },
      ...extra,
    };
  }

  beforeAll(async () => {
    ({ env, origin, close: stop } = await startListening(kind));
    creator = await seedWorkspace(env);
    free = await seedWorkspace(env, { plan: 'free' });
    accountId = await addAccount(env, creator.workspaceId, 'threads', 'Acme Threads');
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await stop();
  });

  describe('tools come from the contract', () => {
    it('lists every x-mcp-tool operation with its schema, description and annotations for a write key', async () => {
      const { tools } = await (await connect(creator.writeKey)).listTools();
      const expected = operations.filter((op) => op.tool);
      expect(tools.map((t) => t.name).sort()).toEqual(expected.map((op) => op.tool).sort());
      expect(tools).toHaveLength(19);
      for (const op of expected) {
        const tool = tools.find((t) => t.name === op.tool)!;
        expect(tool.inputSchema).toEqual(op.inputSchema);
        expect(tool.description).toContain(op.summary);
        expect(tool.annotations).toEqual(op.annotations);
      }
      const byName = Object.fromEntries(tools.map((t) => [t.name, t.annotations!]));
      expect(byName.service_get_post).toMatchObject({
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      });
      expect(byName.service_delete_media).toMatchObject({
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
      });
      expect(byName.service_create_post).toMatchObject({
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      });
    });

    it("names itself with the contract's version", async () => {
      const contract = JSON.parse(fs.readFileSync(new URL('../generated/openapi.json', import.meta.url), 'utf8'));
      expect(contract.info.version).toBe('1.3.0');
      expect((await connect(creator.readKey)).getServerVersion()).toMatchObject({ name: 'herald', version: '1.3.0' });
    });

    it('keeps every input schema an object without a top-level union', async () => {
      const { tools } = await (await connect(creator.writeKey)).listTools();
      for (const t of tools) {
        expect(t.inputSchema.type).toBe('object');
        for (const k of ['oneOf', 'anyOf', 'allOf']) expect(t.inputSchema).not.toHaveProperty(k);
      }
    });
  });

  describe('visibility', () => {
    it('shows a read-only key exactly the 11 read tools', async () => {
      const { tools } = await (await connect(creator.readKey)).listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([...READ_TOOLS].sort());
    });

    it('gives a Free workspace the read-only MCP even with a write key, though REST answers it 402', async () => {
      const client = await connect(free.writeKey);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([...READ_TOOLS].sort());
      const whoami = await client.callTool({ name: 'service_whoami', arguments: {} });
      expect(whoami.isError).toBeFalsy();
      expect((whoami.structuredContent as any).workspace.plan).toBe('free');
      expect((await call(env, 'get', '/v1/whoami', { key: free.writeKey })).status).toBe(402);
    });

    it('answers a hidden tool exactly as a tool that does not exist: JSON-RPC -32602', async () => {
      const client = await connect(creator.readKey);
      const hidden = await client
        .callTool({ name: 'service_create_post', arguments: postBody({ confirm: true }) })
        .catch((e: unknown) => e);
      const unknown = await client.callTool({ name: 'service_no_such_tool', arguments: {} }).catch((e: unknown) => e);
      expect(hidden).toBeInstanceOf(McpError);
      expect((hidden as McpError).code).toBe(-32602);
      expect((hidden as McpError).message).toBe(
        (unknown as McpError).message.replace('service_no_such_tool', 'service_create_post'),
      );
      expect((hidden as McpError).message).not.toMatch(/scope|permission|hidden|write/i);
      const posts = await call(env, 'get', '/v1/posts', { key: creator.readKey });
      expect(posts.body.posts).toHaveLength(0);
    });

    it('hides write tools from a Free write key at call time too', async () => {
      const res = await rpc(origin, free.writeKey, {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'service_create_upload', arguments: { filename: 'a.jpg', mime: 'image/jpeg', size: 10 } },
      });
      expect(res.status).toBe(200);
      expect(res.body.error.code).toBe(-32602);
    });
  });

  describe('tool calls run the REST chain', () => {
    it('refuses a confirm tool without confirm: true, as an isError result, and creates nothing', async () => {
      const client = await connect(creator.writeKey);
      const res = await client.callTool({ name: 'service_create_post', arguments: postBody() });
      expect(res.isError).toBe(true);
      expect(res.structuredContent).toMatchObject({ code: 'confirm_required' });
      expect(JSON.parse((res.content as any)[0].text)).toEqual(res.structuredContent);
      expect(Object.keys(res.structuredContent!)).toEqual(expect.arrayContaining(['code', 'message', 'hint']));
      const list = await client.callTool({ name: 'service_list_posts', arguments: {} });
      expect((list.structuredContent as any).posts).toHaveLength(0);
    });

    it('plans, creates with confirm and returns each post statusLine; the post records createdVia mcp', async () => {
      const client = await connect(creator.writeKey);
      const plan = await client.callTool({ name: 'service_plan_post', arguments: postBody() });
      expect(plan.isError).toBeFalsy();
      expect((plan.structuredContent as any).ok).toBe(true);
      const created = await client.callTool({ name: 'service_create_post', arguments: postBody({ confirm: true }) });
      expect(created.isError).toBeFalsy();
      const [post] = (created.structuredContent as any).posts;
      expect(post.statusLine).toMatch(/^Queued\. Threads · Acme Threads · /);
      const got = await client.callTool({ name: 'service_get_post', arguments: { postId: post.id } });
      expect((got.structuredContent as any).createdVia).toBe('mcp');
      const cancelled = await client.callTool({
        name: 'service_cancel_post',
        arguments: { postId: post.id, confirm: true },
      });
      expect(cancelled.isError).toBeFalsy();
      expect(cancelled.structuredContent).toHaveProperty('statusLine');
    });

    it('edits a post through service_reschedule_post, with confirm where it is queued; no delete tool', async () => {
      const client = await connect(creator.writeKey);
      const created = await client.callTool({ name: 'service_create_post', arguments: postBody({ confirm: true }) });
      const postId = (created.structuredContent as any).posts[0].id;
      const args = { postId, text: 'Changed by an agent' };
      const unconfirmed = await client.callTool({ name: 'service_reschedule_post', arguments: args });
      expect(unconfirmed.structuredContent).toMatchObject({ code: 'confirm_required' });
      const edited = await client.callTool({ name: 'service_reschedule_post', arguments: { ...args, confirm: true } });
      expect(edited.structuredContent).toMatchObject({ status: 'queued', text: 'Changed by an agent' });
      // The tool takes the queue form of `when` as the operation does: the account's next free posting time.
      const schedule = await call(env, 'put', `/v1/accounts/${accountId}/schedule`, {
        key: creator.writeKey,
        body: { slots: [{ day: 'mon', time: '09:00' }] },
      });
      const queued = await client.callTool({
        name: 'service_reschedule_post',
        arguments: { postId, when: 'queue', confirm: true },
      });
      expect(queued.structuredContent).toMatchObject({ status: 'queued', publishAt: schedule.body.next[0] });
      await call(env, 'put', `/v1/accounts/${accountId}/schedule`, { key: creator.writeKey, body: { slots: [] } });
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).not.toContain('service_delete_post');
      // The tests after this one count the queued posts.
      await client.callTool({ name: 'service_cancel_post', arguments: { postId, confirm: true } });
    });

    it('answers bad arguments with an invalid_request tool error naming the field', async () => {
      const client = await connect(creator.writeKey);
      const res = await client.callTool({ name: 'service_get_post', arguments: { postId: 'pst_x', colour: 'blue' } });
      expect(res.isError).toBe(true);
      expect(res.structuredContent).toMatchObject({ code: 'invalid_request' });
      expect((res.structuredContent as any).message).toContain('colour');
      const missing = await client.callTool({ name: 'service_get_media', arguments: {} });
      expect((missing.structuredContent as any).message).toContain('mediaId');
    });

    it('refuses an empty id with a sentence naming it, on read and write tools, and runs nothing', async () => {
      const client = await connect(creator.writeKey);
      await client.callTool({ name: 'service_create_post', arguments: postBody({ confirm: true }) });
      const calls = [
        { name: 'service_get_post', arguments: { postId: '' } },
        { name: 'service_get_media', arguments: { mediaId: '' } },
        { name: 'service_cancel_post', arguments: { postId: '', confirm: true } },
        { name: 'service_reschedule_post', arguments: { postId: '', when: 'now', confirm: true } },
        { name: 'service_delete_media', arguments: { mediaId: '', confirm: true } },
      ];
      for (const c of calls) {
        const res = await client.callTool(c);
        const id = Object.keys(c.arguments)[0]!;
        expect(res.isError, c.name).toBe(true);
        expect(res.structuredContent, c.name).toMatchObject({ code: 'invalid_request' });
        expect((res.structuredContent as any).message, c.name).toBe(`\`${id}\` must not be empty: give the id itself.`);
        expect(res.structuredContent, c.name).not.toHaveProperty('posts');
      }
      // The post made above is still queued: the empty id cancelled and rescheduled nothing.
      const list = await client.callTool({ name: 'service_list_posts', arguments: { status: 'queued' } });
      expect((list.structuredContent as any).posts).toHaveLength(1);
    });

    it('refuses a lone surrogate in an id as invalid_request, and puts any other id in one path segment', async () => {
      const client = await connect(creator.writeKey);
      for (const postId of ['pst_\uD800', '\uDC00pst']) {
        const res = await client.callTool({ name: 'service_get_post', arguments: { postId } });
        expect(res.isError).toBe(true);
        expect(res.structuredContent).toMatchObject({ code: 'invalid_request' });
        expect((res.structuredContent as any).message).toMatch(/^`postId` holds half of a UTF-16 surrogate pair/);
      }
      // A slash, a dot segment or a percent sign stays inside the id: the post is not found, no other route runs.
      for (const postId of ['posts/plan', '..', '%2F', 'pst_👍🏽']) {
        const res = await client.callTool({ name: 'service_get_post', arguments: { postId } });
        expect(res.structuredContent, postId).toMatchObject({ code: 'not_found' });
        expect((res.structuredContent as any).message, postId).toContain(postId);
      }
    });

    it('answers malformed tools/call params with -32602 and a sentence naming the param, not -32603', async () => {
      const call = (params: unknown) =>
        rpc(origin, creator.writeKey, { jsonrpc: '2.0', id: 1, method: 'tools/call', params });
      for (const [params, words] of [
        [{ name: 'service_get_post', arguments: 'pst_1' }, '`params.arguments` must be an object'],
        [{ name: 'service_get_post', arguments: ['pst_1'] }, '`params.arguments` must be an object'],
        [{ name: 42, arguments: {} }, '`params.name` must be the name of a tool'],
        [{ arguments: {} }, '`params.name` must be the name of a tool'],
        [undefined, 'tools/call needs `params`'],
      ] as const) {
        const res = await call(params);
        expect(res.status).toBe(200);
        expect(res.body.error.code, JSON.stringify(params)).toBe(-32602);
        expect(res.body.error.message).toContain(words);
        expect(res.body.error.message).not.toMatch(/invalid_type|expected|\[/);
      }
    });

    it('prefixes the unknown-tool message once, as the SDK client shows it', async () => {
      const client = await connect(creator.writeKey);
      const unknown = await client.callTool({ name: 'service_no_such_tool', arguments: {} }).catch((e: unknown) => e);
      expect(unknown).toBeInstanceOf(McpError);
      expect((unknown as McpError).message).toBe('MCP error -32602: Unknown tool: service_no_such_tool');
      const raw = await rpc(origin, creator.readKey, {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'service_create_post', arguments: {} },
      });
      expect(raw.body.error).toEqual({ code: -32602, message: 'Unknown tool: service_create_post' });
    });

    it('keeps workspaces apart: another workspace id answers not_found', async () => {
      const other = await seedWorkspace(env);
      const client = await connect(other.writeKey);
      const res = await client.callTool({ name: 'service_get_account_analytics', arguments: { accountId } });
      expect(res.isError).toBe(true);
      expect(res.structuredContent).toMatchObject({ code: 'not_found' });
    });
  });

  describe('words for agents', () => {
    const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    /** REST words an agent cannot act on: operationIds, routes, paths and query-string assignments. */
    const REST_WORDS = [
      ...operations.map((op) => new RegExp(`\\b${op.operationId}\\b`)),
      ...[...new Set(operations.map((op) => op.path))].map((p) => new RegExp(`(^|[\\s\`(])${literal(p)}(?![\\w/{])`)),
      /\b(GET|POST|PUT|PATCH|DELETE) \//,
      /\/v1\b/,
      /`\w+=[^`]*`/,
      /in the query/,
    ];
    const restWordsIn = (text: string) => REST_WORDS.filter((pattern) => pattern.test(text)).map(String);

    /** Every description an agent reads in a tool: its own and those of its arguments, at any depth. */
    function descriptions(node: unknown, out: string[] = []): string[] {
      if (Array.isArray(node)) for (const item of node) descriptions(item, out);
      else if (node && typeof node === 'object') {
        for (const [key, value] of Object.entries(node))
          if (key === 'description' && typeof value === 'string') out.push(value);
          else descriptions(value, out);
      }
      return out;
    }

    it('describes every tool and argument in tool names and arguments, never REST operations or paths', async () => {
      const { tools } = await (await connect(creator.writeKey)).listTools();
      for (const tool of tools) {
        for (const text of [tool.description!, ...descriptions(tool.inputSchema)])
          expect(restWordsIn(text), `${tool.name}: ${text}`).toEqual([]);
        const confirm = (tool.inputSchema.properties as Record<string, { description?: string }>).confirm;
        if (confirm) expect(confirm.description, tool.name).toMatch(/^Must be `true`/);
      }
      const plan = tools.find((t) => t.name === 'service_create_post')!;
      expect(plan.description).toContain('Use this after `service_plan_post`');
    });

    it('gives each confirm tool its own hint in tool words; only creating posts has a plan to show', async () => {
      const client = await connect(creator.writeKey);
      const created = await client.callTool({ name: 'service_create_post', arguments: postBody({ confirm: true }) });
      const postId = (created.structuredContent as any).posts[0].id;
      const upload = await client.callTool({
        name: 'service_create_upload',
        arguments: { filename: 'a.jpg', mime: 'image/jpeg', size: 1000 },
      });
      const { mediaId } = upload.structuredContent as { mediaId: string };
      const folder = await call(env, 'post', '/v1/folders', { key: creator.writeKey, body: { name: 'Words' } });
      const hints = new Map<string, string>();
      for (const [name, args] of [
        ['service_create_post', postBody()],
        ['service_reschedule_post', { postId, when: 'now' }],
        ['service_retry_post', { postId }],
        ['service_cancel_post', { postId }],
        ['service_delete_media', { mediaId }],
        ['service_delete_folder', { folderId: folder.body.id }],
      ] as const) {
        const res = await client.callTool({ name, arguments: args });
        expect(res.structuredContent, name).toMatchObject({ code: 'confirm_required' });
        const { message, hint } = res.structuredContent as { message: string; hint: string };
        expect(restWordsIn(`${message} ${hint}`), `${name}: ${hint}`).toEqual([]);
        expect(hint, name).toMatch(/repeat the call with `confirm: true` once they agreed\.$/);
        expect(/plan/.test(hint), name).toBe(name === 'service_create_post');
        hints.set(name, hint);
      }
      expect(hints.get('service_create_post')).toContain('`service_plan_post`');
      expect(new Set(hints.values()).size).toBe(hints.size);
      // REST keeps its own words: the query parameter of a delete.
      const rest = await call(env, 'delete', `/v1/media/${mediaId}`, { key: creator.writeKey });
      expect(rest.body.hint).toContain('`confirm=true` in the query');
    });

    it('says in tool words what to take ids from, where REST names its routes', async () => {
      const client = await connect(creator.writeKey);
      const res = await client.callTool({ name: 'service_get_account_analytics', arguments: { accountId: 'acc_no' } });
      expect(res.structuredContent).toMatchObject({ code: 'not_found' });
      expect((res.structuredContent as any).hint).toBe('Take account ids from service_list_accounts.');
      expect(JSON.parse((res.content as any)[0].text)).toEqual(res.structuredContent);
      const rest = await call(env, 'get', '/v1/accounts/acc_no/analytics', { key: creator.readKey });
      expect(rest.body.hint).toBe('Take account ids from GET /accounts.');
      // Each kind of id names its own list: the tool where one exists, else the REST call.
      const hintOf = async (name: string, args: Record<string, unknown>) =>
        ((await client.callTool({ name, arguments: args })).structuredContent as any).hint;
      expect(await hintOf('service_get_post', { postId: 'pst_no' })).toBe('Take post ids from service_list_posts.');
      expect(await hintOf('service_get_media', { mediaId: 'med_no' })).toBe('Take media ids from service_list_media.');
      const restHint = async (url: string) => (await call(env, 'get', url, { key: creator.readKey })).body.hint;
      expect(await restHint('/v1/posts/pst_no')).toBe('Take post ids from GET /posts.');
      // Webhooks are not this plan's: their words, as every not_found answer gets them.
      expect(notFoundWords('webhook', 'whk_no').hint).toBe('Take webhook ids from GET /webhooks.');
      expect(notFoundWords('delivery', 'whd_no').hint).toBe(
        'Take delivery ids from GET /webhooks/{webhookId}/deliveries.',
      );
      const cursor = await client.callTool({ name: 'service_list_posts', arguments: { cursor: 'bogus' } });
      expect((cursor.structuredContent as any).message).toBe('`cursor` is not a cursor this list returned.');
    });

    it('tells a reschedule to draft what `when` takes and how a post becomes a draft again', async () => {
      const client = await connect(creator.writeKey);
      const args = { postId: 'pst_any', when: 'draft', confirm: true };
      const res = await client.callTool({ name: 'service_reschedule_post', arguments: args });
      expect(res.structuredContent).toMatchObject({ code: 'invalid_request' });
      expect((res.structuredContent as any).message).toBe(
        '`when` must be "now" or "queue" or an object with `publishAt` and `timezone`; a queued post becomes a ' +
          'draft again only by cancelling it (`service_cancel_post`).',
      );
      const rest = await call(env, 'patch', '/v1/posts/pst_any', {
        key: creator.writeKey,
        body: { when: 'draft', confirm: true },
      });
      expect(rest.body.message).toContain('only by cancelling it (`POST /posts/{postId}/cancel`)');
    });
  });

  describe('transport rules', () => {
    it('answers 401 naming the resource metadata without a bearer, and with a wrong one', async () => {
      const none = await rpc(origin, undefined, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
      expect(none.status).toBe(401);
      expect(none.headers['www-authenticate']).toMatch(
        /^Bearer resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/mcp"/,
      );
      expect(none.body.code).toBe('unauthenticated');
      const wrong = await rpc(origin, 'hld_wrong', { jsonrpc: '2.0', id: 1, method: 'tools/list' });
      expect(wrong.status).toBe(401);
      expect(wrong.headers['www-authenticate']).toContain('error="invalid_token"');
    });

    it('refuses a foreign Host or Origin (DNS rebinding) with 403', async () => {
      const host = await rpc(
        origin,
        creator.readKey,
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        { Host: 'evil.example.com' },
      );
      expect(host.status).toBe(403);
      expect(host.body.code).toBe('forbidden_origin');
      const originHeader = await rpc(
        origin,
        creator.readKey,
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        { Origin: 'https://evil.example.com' },
      );
      expect(originHeader.status).toBe(403);
      const ok = await rpc(
        origin,
        creator.readKey,
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        { Origin: origin },
      );
      expect(ok.status).toBe(200);
    });

    it('keeps Streamable HTTP POST rules: Accept, Content-Type, JSON, protocol version, notifications', async () => {
      const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
      expect((await rpc(origin, creator.readKey, list, { Accept: 'application/json' })).status).toBe(406);
      const text = await rpc(origin, creator.readKey, list, { 'Content-Type': 'text/plain' });
      expect(text.status).toBe(415);
      const version = await rpc(origin, creator.readKey, list, { 'MCP-Protocol-Version': '1999-01-01' });
      expect(version.status).toBe(400);
      expect(version.body.error.code).toBe(-32000);
      const notJsonRpc = await rpc(origin, creator.readKey, { hello: 'world' });
      expect(notJsonRpc.status).toBe(400);
      expect(notJsonRpc.body.error.code).toBe(-32700);
      const notification = await rpc(origin, creator.readKey, { jsonrpc: '2.0', method: 'notifications/initialized' });
      expect(notification.status).toBe(202);
      const batch = await rpc(origin, creator.readKey, [list, { jsonrpc: '2.0', id: 2, method: 'ping' }]);
      expect(batch.body.map((m: { id: number }) => m.id).sort()).toEqual([1, 2]);
    });

    it('answers a body that is not JSON with the JSON-RPC parse error', async () => {
      const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(
          `${origin}/mcp`,
          {
            method: 'POST',
            headers: {
              Authorization: `Bearer ${creator.readKey}`,
              'Content-Type': 'application/json',
              Accept: 'application/json, text/event-stream',
            },
          },
          (r) => {
            let body = '';
            r.on('data', (d) => (body += d));
            r.on('end', () => resolve({ status: r.statusCode!, body }));
          },
        );
        req.on('error', reject);
        req.end('{"jsonrpc": ');
      });
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body).error.code).toBe(-32700);
    });

    it('is stateless: tools/list answers without a session, and GET is not allowed', async () => {
      const res = await rpc(origin, creator.readKey, { jsonrpc: '2.0', id: 7, method: 'tools/list' });
      expect(res.status).toBe(200);
      expect(res.headers['mcp-session-id']).toBeUndefined();
      expect(res.body.result.tools).toHaveLength(11);
      const get = await fetch(`${origin}/mcp`, { headers: { Authorization: `Bearer ${creator.readKey}` } });
      expect(get.status).toBe(405);
    });
  });
});

describe('remote MCP and OAuth share the per-address rate limit', () => {
  it('answers 429 rate_limited with Retry-After once the address used its window, on /mcp and /oauth', async () => {
    const { env, origin, close } = await startListening(DATABASES[0]!, { rateLimit: { max: 3, windowMs: 600_000 } });
    try {
      const ws = await seedWorkspace(env);
      for (let i = 0; i < 3; i++)
        expect((await rpc(origin, ws.readKey, { jsonrpc: '2.0', id: i, method: 'ping' })).status).toBe(200);
      const limited = await rpc(origin, ws.readKey, { jsonrpc: '2.0', id: 9, method: 'ping' });
      expect(limited.status).toBe(429);
      expect(limited.body.code).toBe('rate_limited');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect((await fetch(`${origin}/oauth/token`, { method: 'POST' })).status).toBe(429);
    } finally {
      await close();
    }
  });
});
