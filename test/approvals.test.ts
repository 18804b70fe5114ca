// Approvals: posts of the creators a workspace names wait as drafts until an owner or administrator,
// signed in to the dashboard, approves them; nothing else can approve. Through every creator kind, on both databases.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { reservePosts, startAttempts } from '../db/publishing/attempts.ts';
import { markFailed } from '../db/publishing/outcomes.ts';
import { isoNow } from '../runtime/clock.ts';
import { KEY_CACHE_MS } from '../server/api.ts';
import { addAccount, call, DATABASES, seedWorkspace, type Seeded, type TestEnv } from './support/harness.ts';
import { mailbox } from './support/mailbox.ts';
import { manualClock } from './support/manualClock.ts';
import { mcpClient, startListening } from './support/mcp.ts';
import { addPerson, asPerson, signedIn, type Person } from './support/people.ts';
import { seedMedia, setPostState } from './support/posts.ts';

const ZONE = 'Europe/Berlin';

describe.each(DATABASES)('approvals on %s', (kind) => {
  let env: TestEnv;
  let origin: string;
  let stop: () => Promise<void>;
  let ws: Seeded;
  let owner: Person;
  let admin: Person;
  let member: Person;
  let threads: string;
  let mail: Awaited<ReturnType<typeof mailbox>>;
  const clock = manualClock(Date.now());

  /** A local time in the workspace zone, `hours` from the clock's now. */
  const inHours = (hours: number) => ({
    publishAt: DateTime.fromMillis(clock.now() + hours * 3600_000, { zone: ZONE }).toFormat("yyyy-MM-dd'T'HH:mm"),
    timezone: ZONE,
  });
  const body = (when: unknown, text = 'Hello from the team') => ({
    targets: { accountIds: [threads] },
    mediaIds: [],
    text,
    when,
    confirm: true,
  });
  const asMember = (method: 'post' | 'patch' | 'get', url: string, payload?: unknown) =>
    call(env, method, url, { body: payload, headers: { Cookie: member.cookie, 'X-CSRF-Token': member.csrf } });
  const mcpCall = (name: string, args: unknown, key = ws.writeKey) =>
    request(env.app)
      .post('/mcp')
      .set('Authorization', `Bearer ${key}`)
      .set('Accept', 'application/json, text/event-stream')
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
  const eventTypes = async (postId: string) =>
    (await call(env, 'get', '/v1/events?limit=100', { key: ws.readKey })).body.events
      .filter((e: { objectId: string }) => e.objectId === postId)
      .map((e: { type: string }) => e.type);
  const used = async () => (await call(env, 'get', '/v1/whoami', { key: ws.readKey })).body.usage.posts.used;

  beforeAll(async () => {
    mail = await mailbox();
    const smtp = { mail: { smtpUrl: mail.url, from: 'Herald <h@example.com>' } };
    ({ env, origin, close: stop } = await startListening(kind, smtp, { clock }));
    ws = await seedWorkspace(env, { plan: 'agency', tz: ZONE });
    owner = await signedIn(env, ws.userId, ws.workspaceId);
    admin = await addPerson(env, ws.workspaceId, 'administrator');
    member = await addPerson(env, ws.workspaceId, 'member');
    threads = await addAccount(env, ws.workspaceId, 'threads', 'Acme Threads');
  });
  afterAll(async () => {
    await stop();
    await mail.close();
  });

  it('is a setting only owners and administrators change, shown to every caller in whoami', async () => {
    const refused = await asPerson(env, member, 'patch', '/auth/workspace', { approvalRequiredFor: ['members'] });
    expect(refused.status).toBe(403);
    const bad = await asPerson(env, admin, 'patch', '/auth/workspace', { approvalRequiredFor: ['interns'] });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('members, apiKeys, mcpClients');
    const res = await asPerson(env, admin, 'patch', '/auth/workspace', {
      approvalRequiredFor: ['mcpClients', 'members', 'apiKeys'],
    });
    expect(res.status).toBe(200);
    expect(res.body.workspace.approvalRequiredFor).toEqual(['members', 'apiKeys', 'mcpClients']);
    const who = await call(env, 'get', '/v1/whoami', { key: ws.readKey });
    expect(who.body.workspace.approvalRequiredFor).toEqual(['members', 'apiKeys', 'mcpClients']);
    const trail = (await asPerson(env, owner, 'get', '/auth/audit')).body.events;
    expect(trail[0]).toMatchObject({ action: 'workspace.updated', detail: { approvalRequiredFor: { from: [] } } });
  });

  it("saves a member's post as a draft awaiting approval, as the plan and answer say; nothing counts", async () => {
    const plan = await asMember('post', '/v1/posts/plan', { ...body(inHours(24)), confirm: undefined });
    expect(plan.body).toMatchObject({ ok: true, status: 'draft', awaitingApproval: true, quota: { requested: 0 } });
    expect(plan.body.table).toContain('These posts need approval');
    const created = await asMember('post', '/v1/posts', body(inHours(24)));
    expect(created.status).toBe(201);
    const [post] = created.body.posts;
    expect(post.status).toBe('draft');
    expect(post.statusLine).toMatch(
      /^Draft, awaiting approval\. Threads · Acme Threads · wanted for \d+ \w+, \d\d:\d\d/,
    );
    expect(post.approval).toMatchObject({ state: 'pending', requestedBy: 'A member', comment: null });
    expect(await used()).toBe(0);
    expect(await eventTypes(post.id)).toEqual(['post.created', 'post.approval_requested']);
    // Both approvers are told; the mail names the post and the approvals page.
    const mails = [await mail.next(), await mail.next()];
    expect(mails.map((m) => m.to).sort()).toEqual([admin.email, expect.stringContaining('owner-')]);
    expect(mails[0]!.text).toContain('/app/approvals');
    expect(mails[0]!.text).toContain('Hello from the team');
  });

  it('holds API key and MCP posts too; the tool result reports awaiting approval, never queued', async () => {
    const viaKey = await call(env, 'post', '/v1/posts', { key: ws.writeKey, body: body('now') });
    expect(viaKey.body.posts[0].statusLine).toBe(
      'Draft, awaiting approval. Threads · Acme Threads · wanted as soon as it is approved.',
    );
    const viaMcp = await mcpCall('service_create_post', body(inHours(5)));
    expect(viaMcp.status).toBe(200);
    const result = viaMcp.body.result;
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent.posts[0].statusLine).toMatch(/^Draft, awaiting approval\./);
    expect(result.content[0].text).not.toContain('Queued');
    const pending = (await asPerson(env, admin, 'get', '/auth/approvals')).body.posts;
    expect(pending.map((p: { createdVia: string }) => p.createdVia).sort()).toEqual(['api', 'dashboard', 'mcp']);
    while (mail.pending()) await mail.next();
  });

  it('lets no key, bearer token, member or tool approve; only a signed-in owner or administrator', async () => {
    const [post] = (await asPerson(env, admin, 'get', '/auth/approvals')).body.posts;
    const url = `/auth/approvals/${post.id}/approve`;
    for (const bearer of [ws.writeKey, 'hld_oauth_not_a_session']) {
      const res = await request(env.app)
        .post(url)
        .set('Authorization', `Bearer ${bearer}`)
        .set('Cookie', admin.cookie)
        .set('X-CSRF-Token', admin.csrf)
        .send({});
      expect(res.status).toBe(401);
      expect(res.body.message).toContain('API keys and OAuth tokens are refused');
    }
    expect((await asPerson(env, member, 'post', url, {})).body.code).toBe('insufficient_role');
    expect((await asPerson(env, admin, 'post', url, {}, { csrf: false })).body.code).toBe('csrf_failed');
    const tools = await request(env.app)
      .post('/mcp')
      .set('Authorization', `Bearer ${ws.writeKey}`)
      .set('Accept', 'application/json, text/event-stream')
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const names: string[] = tools.body.result.tools.map((t: { name: string }) => t.name);
    expect(names.filter((n) => /approv|reject/.test(n))).toEqual([]);
    expect((await mcpCall('service_approve_post', { postId: post.id })).body.error.message).toContain('Unknown tool');
    expect((await call(env, 'get', `/v1/posts/${post.id}`, { key: ws.readKey })).body.status).toBe('draft');
    // Another workspace's administrator finds no such post.
    const other = await seedWorkspace(env);
    const stranger = await signedIn(env, other.userId, other.workspaceId);
    expect((await asPerson(env, stranger, 'post', url, {})).status).toBe(404);
  });

  it('approves into queued at the time wanted, counted now, recorded and mailed to the requester', async () => {
    const created = await asMember('post', '/v1/posts', body(inHours(30), 'Approve me'));
    const id = created.body.posts[0].id;
    while (mail.pending()) await mail.next();
    const wanted = (await call(env, 'get', `/v1/posts/${id}`, { key: ws.readKey })).body.approval.wantedAt;
    const before = await used();
    const res = await asPerson(env, admin, 'post', `/auth/approvals/${id}/approve`, {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'queued', publishAt: wanted });
    expect(res.body.approval).toBeUndefined();
    expect(await used()).toBe(before + 1);
    expect(await eventTypes(id)).toEqual(['post.created', 'post.approval_requested', 'post.approved', 'post.queued']);
    const events = (await call(env, 'get', `/v1/posts/${id}/events`, { key: ws.readKey })).body.events;
    expect(events.find((e: { kind: string }) => e.kind === 'approved')).toMatchObject({ by: 'A administrator' });
    const trail = (await asPerson(env, owner, 'get', '/auth/audit')).body.events;
    expect(trail[0]).toMatchObject({ action: 'post.approved', detail: { postId: id, requestedBy: 'A member' } });
    const told = await mail.next();
    expect(told.to).toBe(member.email);
    expect(told.text).toContain('approved your post');
    // Decided once: a second approval finds nothing waiting.
    expect((await asPerson(env, owner, 'post', `/auth/approvals/${id}/approve`, {})).body.code).toBe('invalid_state');
  });

  it('rejects with a comment: the draft stays, says so, and the requester is told', async () => {
    const id = (await asMember('post', '/v1/posts', body(inHours(40), 'Reject me'))).body.posts[0].id;
    while (mail.pending()) await mail.next();
    const res = await asPerson(env, owner, 'post', `/auth/approvals/${id}/reject`, { comment: 'Too loud.' });
    expect(res.body).toMatchObject({
      status: 'draft',
      statusLine: 'Draft, rejected. Threads · Acme Threads · no time set. Comment: Too loud.',
      approval: { state: 'rejected', comment: 'Too loud.' },
    });
    expect(await eventTypes(id)).toContain('post.rejected');
    const events = (await call(env, 'get', `/v1/posts/${id}/events`, { key: ws.readKey })).body.events;
    expect(events.at(-1)).toMatchObject({ kind: 'rejected', by: expect.any(String), comment: 'Too loud.' });
    expect(events.at(-1)).not.toHaveProperty('change');
    expect((await asPerson(env, owner, 'get', '/auth/audit')).body.events[0]).toMatchObject({
      action: 'post.rejected',
      detail: { comment: 'Too loud.' },
    });
    expect((await mail.next()).text).toContain('Too loud.');
    expect((await asPerson(env, owner, 'post', `/auth/approvals/${id}/reject`, { note: 'x' })).status).toBe(400);
    // Scheduled by the owner, whose posts need no approval, it is queued: no rejection stays on a queued post.
    const queued = await call(env, 'patch', `/v1/posts/${id}`, {
      body: { when: inHours(41), confirm: true },
      headers: { Cookie: owner.cookie, 'X-CSRF-Token': owner.csrf },
    });
    expect(queued.body).toMatchObject({ status: 'queued' });
    expect(queued.body.approval).toBeUndefined();
    expect(queued.body.statusLine).toMatch(/^Queued\. /);
  });

  it('asks again when a pending post is edited; a member changes an approved one only beside it', async () => {
    const id = (await asMember('post', '/v1/posts', body(inHours(50), 'First words'))).body.posts[0].id;
    const first = (await call(env, 'get', `/v1/posts/${id}`, { key: ws.readKey })).body.approval;
    clock.advance(1000);
    const edited = await call(env, 'patch', `/v1/posts/${id}`, { key: ws.writeKey, body: { text: 'Second words' } });
    expect(edited.body).toMatchObject({ status: 'draft', approval: { state: 'pending', wantedAt: first.wantedAt } });
    expect(edited.body.approval.requestedAt > first.requestedAt).toBe(true);
    expect(await eventTypes(id)).toEqual([
      'post.created',
      'post.approval_requested',
      'post.updated',
      'post.approval_requested',
    ]);
    const approved = (await asPerson(env, admin, 'post', `/auth/approvals/${id}/approve`, {})).body;
    const count = await used();
    // The approved post stays queued at its time with its approved words; the change waits beside it.
    const changed = await asMember('patch', `/v1/posts/${id}`, { text: 'Sneaky words', confirm: true });
    expect(changed.body).toMatchObject({
      status: 'queued',
      publishAt: approved.publishAt,
      text: 'Second words',
      pendingChange: { requestedBy: 'A member', text: 'Sneaky words' },
    });
    expect(await used()).toBe(count);
    while (mail.pending()) await mail.next();
  });

  it('asks the approver for a time when the one wanted has passed', async () => {
    const id = (await asMember('post', '/v1/posts', body(inHours(1)))).body.posts[0].id;
    clock.advance(2 * 3600_000);
    const passed = await asPerson(env, admin, 'post', `/auth/approvals/${id}/approve`, {});
    expect(passed.status).toBe(409);
    expect(passed.body.code).toBe('approval_time_passed');
    const tooSoon = new Date(clock.now() + 60_000).toISOString();
    expect((await asPerson(env, admin, 'post', `/auth/approvals/${id}/approve`, { publishAt: tooSoon })).status).toBe(
      422,
    );
    const later = new Date(clock.now() + 3600_000).toISOString();
    const res = await asPerson(env, admin, 'post', `/auth/approvals/${id}/approve`, { publishAt: later });
    expect(res.body).toMatchObject({ status: 'queued', publishAt: later });
    while (mail.pending()) await mail.next();
  });

  it('approves a post only as the approver read it: an edit meanwhile is not approved unseen', async () => {
    const id = (await asMember('post', '/v1/posts', body(inHours(80), 'Words the approver reads'))).body.posts[0].id;
    const shown = (await asPerson(env, admin, 'get', '/auth/approvals')).body.posts.find(
      (p: { id: string }) => p.id === id,
    );
    clock.advance(1000);
    await call(env, 'patch', `/v1/posts/${id}`, { key: ws.writeKey, body: { text: 'Words swapped in meanwhile' } });
    const stale = await asPerson(env, admin, 'post', `/auth/approvals/${id}/approve`, { updatedAt: shown.updatedAt });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      code: 'invalid_state',
      message: expect.stringContaining('nothing was approved'),
    });
    const now = (await call(env, 'get', `/v1/posts/${id}`, { key: ws.readKey })).body;
    expect(now).toMatchObject({ status: 'draft', text: 'Words swapped in meanwhile', approval: { state: 'pending' } });
    const seen = await asPerson(env, admin, 'post', `/auth/approvals/${id}/approve`, { updatedAt: now.updatedAt });
    expect(seen.body).toMatchObject({ status: 'queued', text: 'Words swapped in meanwhile' });
    expect((await asPerson(env, admin, 'post', `/auth/approvals/${id}/approve`, { updatedAt: 5 })).status).toBe(400);
    while (mail.pending()) await mail.next();
  });

  it('answers 400 to a publishAt no calendar holds, and approves nothing', async () => {
    const id = (await asMember('post', '/v1/posts', body(inHours(70)))).body.posts[0].id;
    const approve = (publishAt: unknown) =>
      asPerson(env, admin, 'post', `/auth/approvals/${id}/approve`, { publishAt });
    // Date.parse takes the first two (years up to 275760, 30 February); no formatter writes them in a zone.
    for (const publishAt of ['+275760-09-13T00:00:00Z', '2026-02-30T10:00:00Z', '99999-01-01', '2026-12-01T10:00', 7]) {
      const res = await approve(publishAt);
      expect(res.status, String(publishAt)).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('publishAt must') });
    }
    expect((await call(env, 'get', `/v1/posts/${id}`, { key: ws.readKey })).body.approval.state).toBe('pending');
    const far = await approve('9999-12-31T23:59:59+01:00');
    expect(far.status).toBe(422);
    expect(far.body.rows[0].issues.map((i: { code: string }) => i.code)).toEqual(['time_too_far']);
    const audit = await asPerson(env, admin, 'get', '/auth/audit?before=%2B275760-09-13T00:00:00Z');
    expect(audit.body.code).toBe('invalid_request');
    while (mail.pending()) await mail.next();
  });

  describe('a failed post edited by a caller whose posts need approval', () => {
    const asOwner = { Cookie: '', 'X-CSRF-Token': '' };
    /** A post the owner queued (no approval needed), failed at the network. */
    const failedPost = async (text: string) => {
      Object.assign(asOwner, { Cookie: owner.cookie, 'X-CSRF-Token': owner.csrf });
      const created = await call(env, 'post', '/v1/posts', { body: body(inHours(3), text), headers: asOwner });
      expect(created.body.posts[0].status).toBe('queued');
      const id: string = created.body.posts[0].id;
      clock.advance(1000);
      const error = { code: 'threads_rejected', message: 'Threads refused the post.', hint: 'Change it.' };
      await setPostState(env, ws.workspaceId, id, { status: 'failed', error });
      return id;
    };
    const read = async (id: string) => (await call(env, 'get', `/v1/posts/${id}`, { key: ws.readKey })).body;
    /** The edit waited for approval, and no retry sends it: it is a draft that never queued again. */
    const expectWaiting = async (id: string, text: string, countBefore: number) => {
      const post = await read(id);
      expect(post).toMatchObject({ status: 'draft', text, publishAt: null, approval: { state: 'pending' } });
      expect(post.approval.wantedAt).toBeNull();
      expect(post.error).toBeUndefined();
      expect(await used()).toBe(countBefore - 1);
      const events: { kind: string; reason?: string }[] = (
        await call(env, 'get', `/v1/posts/${id}/events`, { key: ws.readKey })
      ).body.events;
      const kinds = events.map((e) => e.kind);
      expect(kinds.slice(kinds.indexOf('failed'))).toEqual(['failed', 'edited', 'cancelled', 'approvalRequested']);
      expect(events.find((e) => e.kind === 'cancelled')!.reason).toBe('needsApproval');
    };

    let agent: Client;
    // A key's credential is cached KEY_CACHE_MS by the clock: past it, each setting applies to the key.
    beforeAll(async () => {
      await asPerson(env, admin, 'patch', '/auth/workspace', {
        approvalRequiredFor: ['members', 'apiKeys', 'mcpClients'],
      });
      clock.advance(KEY_CACHE_MS);
      agent = await mcpClient(origin, ws.writeKey);
    });
    afterAll(async () => {
      await agent.close();
      clock.advance(KEY_CACHE_MS);
      while (mail.pending()) await mail.next();
    });

    it('through an API key: PATCH then retry sends nothing; the edit waits for approval', async () => {
      const id = await failedPost('Approved words');
      const count = await used();
      const edited = await call(env, 'patch', `/v1/posts/${id}`, { key: ws.writeKey, body: { text: 'Unseen words' } });
      expect(edited.status).toBe(200);
      expect(edited.body).toMatchObject({ status: 'draft', approval: { state: 'pending', wantedAt: null } });
      const retried = await call(env, 'post', `/v1/posts/${id}/retry`, { key: ws.writeKey, body: { confirm: true } });
      expect(retried.status).toBe(409);
      expect(retried.body.code).toBe('invalid_state');
      await expectWaiting(id, 'Unseen words', count);
      // Approved, it is queued at once with the words the approver saw.
      const approved = await asPerson(env, admin, 'post', `/auth/approvals/${id}/approve`, {});
      expect(approved.body).toMatchObject({ status: 'queued', text: 'Unseen words' });
      expect(approved.body.approval).toBeUndefined();
    });

    it("through a member's session: the same", async () => {
      const id = await failedPost('Approved words');
      const count = await used();
      const edited = await asMember('patch', `/v1/posts/${id}`, { text: 'Member words' });
      expect(edited.body).toMatchObject({ status: 'draft', approval: { state: 'pending' } });
      const retried = await asMember('post', `/v1/posts/${id}/retry`, { confirm: true });
      expect(retried.body.code).toBe('invalid_state');
      await expectWaiting(id, 'Member words', count);
    });

    it('through MCP: service_reschedule_post then service_retry_post sends nothing', async () => {
      const id = await failedPost('Approved words');
      const count = await used();
      const edited = await agent.callTool({
        name: 'service_reschedule_post',
        arguments: { postId: id, text: 'Agent words' },
      });
      expect(edited.isError).toBeUndefined();
      expect(edited.structuredContent).toMatchObject({ status: 'draft', approval: { state: 'pending' } });
      const retried = await agent.callTool({ name: 'service_retry_post', arguments: { postId: id, confirm: true } });
      expect(retried.isError).toBe(true);
      expect(retried.structuredContent).toMatchObject({ code: 'invalid_state' });
      await expectWaiting(id, 'Agent words', count);
    });

    it('retrying unchanged content needs no approval, from any caller', async () => {
      const viaKey = await failedPost('Same words');
      const key = await call(env, 'post', `/v1/posts/${viaKey}/retry`, { key: ws.writeKey, body: { confirm: true } });
      expect(key.body).toMatchObject({ status: 'queued', text: 'Same words' });
      expect(key.body.approval).toBeUndefined();
      const viaMember = await failedPost('Same words');
      expect((await asMember('post', `/v1/posts/${viaMember}/retry`, { confirm: true })).body.status).toBe('queued');
      const viaMcp = await failedPost('Same words');
      const tool = await agent.callTool({ name: 'service_retry_post', arguments: { postId: viaMcp, confirm: true } });
      expect(tool.structuredContent).toMatchObject({ status: 'queued' });
    });
  });

  describe('a change to a queued post waits beside it: the post keeps its time and approved content', () => {
    const asOwner = () => ({ Cookie: owner.cookie, 'X-CSRF-Token': owner.csrf });
    const read = async (id: string) => (await call(env, 'get', `/v1/posts/${id}`, { key: ws.readKey })).body;
    const timeline = async (id: string) =>
      (await call(env, 'get', `/v1/posts/${id}/events`, { key: ws.readKey })).body.events as {
        kind: string;
        message?: string;
        [fact: string]: unknown;
      }[];
    const listed = async (id: string) =>
      (await asPerson(env, admin, 'get', '/auth/approvals')).body.posts.find((p: { id: string }) => p.id === id);
    /** A post the owner queued (no approval needed) `hours` ahead. */
    const queuedByOwner = async (text: string, hours = 6) => {
      const created = await call(env, 'post', '/v1/posts', { body: body(inHours(hours), text), headers: asOwner() });
      expect(created.body.posts[0].status).toBe('queued');
      clock.advance(1000);
      return read(created.body.posts[0].id);
    };
    const drainMail = async () => {
      while (mail.pending()) await mail.next();
    };
    afterAll(drainMail);

    it("keeps a member's publish now beside the post, which stays at its time until it is approved", async () => {
      const before = await queuedByOwner("Ada's words");
      const count = await used();
      const asked = await asMember('patch', `/v1/posts/${before.id}`, { when: 'now', confirm: true });
      expect(asked.status).toBe(200);
      expect(asked.body).toMatchObject({
        status: 'queued',
        publishAt: before.publishAt,
        text: "Ada's words",
        pendingChange: { requestedBy: 'A member', publishAt: null },
      });
      expect(asked.body.approval).toBeUndefined();
      expect(asked.body.statusLine).toBe(
        `${before.statusLine} A request to publish it now waits for approval; until it is approved the post stays ` +
          `as it is, at ${before.statusLine.split(' · ')[2].slice(0, -1)}.`,
      );
      expect(await used()).toBe(count);
      expect((await timeline(before.id)).at(-1)!.kind).toBe('approvalRequested');
      // MCP's read tool and the approvals page see the same waiting change.
      const viaMcp = await mcpCall('service_get_post', { postId: before.id }, ws.readKey);
      expect(viaMcp.body.result.structuredContent.pendingChange).toEqual(asked.body.pendingChange);
      const shown = await listed(before.id);
      expect(shown).toMatchObject({ status: 'queued', pendingChange: { publishAt: null } });
      const toApprover = await mail.next();
      expect(toApprover.text).toContain('A change to a scheduled post waits for your approval');
      // Approved as shown: it publishes now, still counted once.
      const approved = await asPerson(env, admin, 'post', `/auth/approvals/${before.id}/approve`, {
        updatedAt: shown.updatedAt,
      });
      expect(approved.status).toBe(200);
      expect(approved.body.status).toBe('queued');
      expect(Date.parse(approved.body.publishAt)).toBe(clock.now());
      expect(approved.body.pendingChange).toBeUndefined();
      expect(await used()).toBe(count);
      expect((await timeline(before.id)).slice(-2).map((e) => e.kind)).toEqual(['approved', 'rescheduled']);
      expect((await timeline(before.id)).at(-2)).toMatchObject({ by: 'A administrator', change: true });
      const trail = (await asPerson(env, owner, 'get', '/auth/audit')).body.events;
      expect(trail[0]).toMatchObject({ action: 'post.approved', detail: { postId: before.id, change: true } });
      await drainMail();
    });

    it('keeps the files a waiting change names: deleting one is refused while the change waits', async () => {
      const before = await queuedByOwner('Words without a photo');
      const photo = await seedMedia(env, ws.workspaceId);
      const asked = await asMember('patch', `/v1/posts/${before.id}`, { mediaIds: [photo], confirm: true });
      expect(asked.body).toMatchObject({ mediaIds: [], pendingChange: { mediaIds: [photo] } });
      const refused = await call(env, 'delete', `/v1/media/${photo}?confirm=true`, { key: ws.writeKey });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: 'media_in_use', posts: [{ id: before.id }] });
      // Approved as shown, the post takes the file.
      const shown = await listed(before.id);
      const approved = await asPerson(env, admin, 'post', `/auth/approvals/${before.id}/approve`, {
        updatedAt: shown.updatedAt,
      });
      expect(approved.status).toBe(200);
      expect(approved.body.mediaIds).toEqual([photo]);
      await drainMail();
    });

    it("keeps a member's edit waiting, adds to it, refuses a stale approval, and drops it on reject", async () => {
      const before = await queuedByOwner('Approved words');
      const edited = await asMember('patch', `/v1/posts/${before.id}`, { text: 'Member words', confirm: true });
      expect(edited.body).toMatchObject({
        status: 'queued',
        text: 'Approved words',
        publishAt: before.publishAt,
        pendingChange: { text: 'Member words' },
      });
      expect(edited.body.pendingChange).not.toHaveProperty('publishAt');
      expect(edited.body.statusLine).toContain('. A request to change its content waits for approval;');
      clock.advance(1000);
      const later = inHours(9);
      const moved = await asMember('patch', `/v1/posts/${before.id}`, {
        tags: ['spring'],
        when: later,
        confirm: true,
      });
      const laterIso = DateTime.fromISO(later.publishAt, { zone: ZONE }).toUTC().toISO();
      expect(moved.body).toMatchObject({
        publishAt: before.publishAt,
        tags: [],
        pendingChange: { text: 'Member words', tags: ['spring'], publishAt: laterIso },
      });
      // What the approver saw before the second change is not approved.
      const stale = await asPerson(env, admin, 'post', `/auth/approvals/${before.id}/approve`, {
        updatedAt: edited.body.updatedAt,
      });
      expect([stale.status, stale.body.code]).toEqual([409, 'invalid_state']);
      expect((await read(before.id)).pendingChange).toEqual(moved.body.pendingChange);
      // Rejected: the post is as it was.
      const rejected = await asPerson(env, owner, 'post', `/auth/approvals/${before.id}/reject`, {
        comment: 'Keep it as it is.',
      });
      expect(rejected.status).toBe(200);
      expect(rejected.body).toMatchObject({
        status: 'queued',
        text: 'Approved words',
        tags: [],
        publishAt: before.publishAt,
        statusLine: before.statusLine,
      });
      expect(rejected.body.pendingChange).toBeUndefined();
      expect(rejected.body.approval).toBeUndefined();
      expect((await timeline(before.id)).at(-1)).toMatchObject({
        kind: 'rejected',
        message: expect.stringContaining('Keep it as it is.'),
        comment: 'Keep it as it is.',
        change: true,
      });
      expect(await listed(before.id)).toBeUndefined();
      const mails = [];
      while (mail.pending()) mails.push(await mail.next());
      expect(mails.find((m) => m.to === member.email)?.text).toContain('rejected your change to the post');
    });

    it("applies an approved edit at the post's own time", async () => {
      const before = await queuedByOwner('Old words');
      await asMember('patch', `/v1/posts/${before.id}`, { text: 'New words', confirm: true });
      const approved = await asPerson(env, admin, 'post', `/auth/approvals/${before.id}/approve`, {});
      expect(approved.body).toMatchObject({ status: 'queued', text: 'New words', publishAt: before.publishAt });
      expect((await timeline(before.id)).slice(-2).map((e) => e.kind)).toEqual(['approved', 'edited']);
      await drainMail();
    });

    it('publishes the approved content when its time comes first, and drops the waiting change', async () => {
      const before = await queuedByOwner('Approved at its time', 1);
      await asMember('patch', `/v1/posts/${before.id}`, { text: 'Never approved', when: 'now', confirm: true });
      clock.advance(3600_000);
      const db = env.services.db;
      const horizon = new Date(clock.now() + 60_000).toISOString();
      const [held] = await reservePosts(db, [before.id], 'wkr_approvals', horizon);
      expect(held).toMatchObject({ text: 'Approved at its time', changeWaiting: true });
      const started = await startAttempts(db, [{ attempt: held!, message: 'Sending to Threads.' }], isoNow(clock));
      expect(started).toEqual([true]);
      const post = await read(before.id);
      expect(post).toMatchObject({ status: 'queued', text: 'Approved at its time' });
      expect(post.pendingChange).toBeUndefined();
      const last = (await timeline(before.id)).at(-1)!;
      expect(last).toMatchObject({ kind: 'publishing', message: expect.stringContaining('was dropped') });
      expect(await listed(before.id)).toBeUndefined();
      const late = await asPerson(env, admin, 'post', `/auth/approvals/${before.id}/approve`, {});
      expect([late.status, late.body.code]).toEqual([409, 'invalid_state']);
      await drainMail();
    });

    it("keeps a member's waiting edit when the member swaps the post's time: the change grows", async () => {
      const first = await queuedByOwner('First approved', 20);
      const second = await queuedByOwner('Second approved', 22);
      await asMember('patch', `/v1/posts/${first.id}`, { text: 'Member words', confirm: true });
      const swapped = await asMember('post', '/v1/posts/swap-times', { postIds: [first.id, second.id], confirm: true });
      expect(swapped.status, JSON.stringify(swapped.body)).toBe(200);
      expect(await read(first.id)).toMatchObject({
        text: 'First approved',
        publishAt: first.publishAt,
        pendingChange: { text: 'Member words', publishAt: second.publishAt },
      });
      const approved = await asPerson(env, admin, 'post', `/auth/approvals/${first.id}/approve`, {});
      expect(approved.body).toMatchObject({ status: 'queued', text: 'Member words', publishAt: second.publishAt });
      await asPerson(env, admin, 'post', `/auth/approvals/${second.id}/reject`, {});
      await drainMail();
    });

    it('drops a waiting change when the post fails before its attempt starts (its account gone)', async () => {
      const before = await queuedByOwner('Approved, then failed', 2);
      await asMember('patch', `/v1/posts/${before.id}`, { text: 'Waiting words', confirm: true });
      clock.advance(2 * 3600_000);
      const db = env.services.db;
      const [held] = await reservePosts(db, [before.id], 'wkr_approvals', new Date(clock.now() + 60_000).toISOString());
      expect(held).toMatchObject({ changeWaiting: true, started: false });
      // As the worker fails an attempt it cannot start (the account's token gone): nothing was sent.
      const error = { code: 'threads_token_rejected', message: 'The token no longer works.', hint: 'Reconnect.' };
      expect(await markFailed(db, held!, error, isoNow(clock))).toBe(true);
      const failed = await read(before.id);
      expect(failed).toMatchObject({ status: 'failed', text: 'Approved, then failed' });
      expect(failed.pendingChange).toBeUndefined();
      expect(failed.approval).toBeUndefined();
      expect(await listed(before.id)).toBeUndefined();
      expect((await timeline(before.id)).slice(-2)).toMatchObject([
        { kind: 'failed' },
        { kind: 'rejected', reason: 'leftQueue', change: true },
      ]);
      // The member's next change asks for approval as a draft, shown to the approvers.
      const edited = await asMember('patch', `/v1/posts/${before.id}`, { text: 'Fixed words' });
      expect(edited.body).toMatchObject({ status: 'draft', text: 'Fixed words', approval: { state: 'pending' } });
      expect(await listed(before.id)).toMatchObject({ status: 'draft' });
      await asPerson(env, admin, 'post', `/auth/approvals/${before.id}/reject`, {});
      await drainMail();
    });

    it('refuses a waiting edit of a post an earlier attempt partly sent; its time may still be asked', async () => {
      const before = await queuedByOwner('Partly sent', 30);
      await env.services.db('posts').where({ id: before.id }).update({ checkpoint: '{"containerId":"c1"}' });
      const edit = await asMember('patch', `/v1/posts/${before.id}`, { text: 'Other words', confirm: true });
      expect([edit.status, edit.body.code]).toEqual([409, 'invalid_state']);
      expect((await read(before.id)).pendingChange).toBeUndefined();
      const moved = await asMember('patch', `/v1/posts/${before.id}`, { when: inHours(31), confirm: true });
      expect(moved.status).toBe(200);
      expect(Object.keys(moved.body.pendingChange).sort()).toEqual(['publishAt', 'requestedAt', 'requestedBy']);
      await asPerson(env, admin, 'post', `/auth/approvals/${before.id}/reject`, {});
      await drainMail();
    });

    it("drops a waiting change when an owner cancels the post; an owner's own edit applies at once", async () => {
      const before = await queuedByOwner('Owner words');
      await asMember('patch', `/v1/posts/${before.id}`, { when: 'now', confirm: true });
      const own = await call(env, 'patch', `/v1/posts/${before.id}`, {
        body: { text: 'Owner words, better', confirm: true },
        headers: asOwner(),
      });
      expect(own.body).toMatchObject({ text: 'Owner words, better', pendingChange: { publishAt: null } });
      const cancelled = await call(env, 'post', `/v1/posts/${before.id}/cancel`, {
        body: { confirm: true },
        headers: asOwner(),
      });
      expect(cancelled.body).toMatchObject({ status: 'draft', statusLine: expect.stringMatching(/^Draft\. /) });
      expect(cancelled.body.pendingChange).toBeUndefined();
      expect(cancelled.body.approval).toBeUndefined();
      expect((await timeline(before.id)).at(-1)).toMatchObject({ kind: 'rejected', reason: 'leftQueue', change: true });
      expect(await listed(before.id)).toBeUndefined();
      await drainMail();
    });
  });

  it("queues an owner's dashboard post at once when only members need approval", async () => {
    await asPerson(env, owner, 'patch', '/auth/workspace', { approvalRequiredFor: ['members'] });
    const mine = await call(env, 'post', '/v1/posts', {
      body: body(inHours(60)),
      headers: { Cookie: owner.cookie, 'X-CSRF-Token': owner.csrf },
    });
    expect(mine.body.posts[0].status).toBe('queued');
    const key = await call(env, 'post', '/v1/posts', { key: ws.writeKey, body: body(inHours(61)) });
    expect(key.body.posts[0].status).toBe('queued');
  });
});
