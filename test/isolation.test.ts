// Workspace isolation, table-driven: every operation that takes an id, given another workspace's id (in the
// path, the query or the body), answers 404 not_found and changes nothing in either workspace. The table is
// keyed by operationId: an operation of generated/operations.ts without a row fails this test.
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOKS_PER_WORKSPACE } from '../domain/quotas.ts';
import { operations } from '../generated/operations.ts';
import {
  addAccount,
  call,
  DATABASES,
  seedWorkspace,
  startHerald,
  type Seeded,
  type TestEnv,
} from './support/harness.ts';
import { addPerson, asPerson, signedIn } from './support/people.ts';
import { seedMedia } from './support/posts.ts';
import type { AuthOperationId } from '../handlers/authTypes.ts';

/** One resource of each kind in a workspace. */
interface Ids {
  acc: string;
  grp: string;
  med: string;
  fld: string;
  pst: string;
  whk: string;
  whd: string;
  /** A YouTube account, and a draft of it. */
  yta: string;
  ytd: string;
}
interface Attempt {
  method: 'get' | 'post' | 'patch' | 'put' | 'delete';
  url: string;
  body?: Record<string, unknown>;
}

/** YouTube settings naming a thumbnail file (a draft saved unchecked may hold another workspace's). */
const thumbnail = (med: string) => ({ youtube: { visibility: 'unlisted', category: '22', thumbnailMediaId: med } });
const later = () => ({ publishAt: DateTime.utc().plus({ days: 3 }).toFormat("yyyy-MM-dd'T'HH:mm"), timezone: 'UTC' });
const postBody = (targets: Record<string, unknown>, mediaIds: string[]) => ({
  targets,
  mediaIds,
  text: 'Isolation',
  when: later(),
});

/**
 * For each operationId, the requests that name another workspace's resources (`theirs`), possibly beside
 * this workspace's own (`own`). An empty list says the operation takes no id; add a row for every new one.
 */
const ISOLATION: Record<string, (theirs: Ids, own: Ids) => Attempt[]> = {
  getWhoami: () => [],
  listAccounts: () => [],
  getAccountAnalytics: (t) => [
    { method: 'get', url: `/v1/accounts/${t.acc}/analytics` },
    { method: 'get', url: `/v1/accounts/${t.acc}/analytics?refresh=true` },
  ],
  getAccountSchedule: (t) => [{ method: 'get', url: `/v1/accounts/${t.acc}/schedule` }],
  setAccountSchedule: (t) => [
    { method: 'put', url: `/v1/accounts/${t.acc}/schedule`, body: { slots: [{ day: 'mon', time: '09:00' }] } },
  ],
  getAccountPostingOptions: (t) => [{ method: 'get', url: `/v1/accounts/${t.acc}/posting-options` }],
  listGroups: () => [],
  createGroup: (t, o) => [{ method: 'post', url: '/v1/groups', body: { name: 'Stolen', accountIds: [o.acc, t.acc] } }],
  updateGroup: (t, o) => [
    { method: 'patch', url: `/v1/groups/${t.grp}`, body: { name: 'Renamed' } },
    { method: 'patch', url: `/v1/groups/${o.grp}`, body: { accountIds: [t.acc] } },
  ],
  deleteGroup: (t) => [{ method: 'delete', url: `/v1/groups/${t.grp}` }],
  createUpload: (t) => [
    {
      method: 'post',
      url: '/v1/media/uploads',
      body: { filename: 'a.jpg', mime: 'image/jpeg', size: 1000, folderId: t.fld },
    },
  ],
  uploadFromUrl: (t) => [
    { method: 'post', url: '/v1/media/from-url', body: { url: 'https://example.com/a.jpg', folderId: t.fld } },
  ],
  listMedia: (t) => [{ method: 'get', url: `/v1/media?folderId=${t.fld}` }],
  getMedia: (t) => [{ method: 'get', url: `/v1/media/${t.med}` }],
  updateMedia: (t, o) => [
    { method: 'patch', url: `/v1/media/${t.med}`, body: { pinned: true } },
    { method: 'patch', url: `/v1/media/${o.med}`, body: { folderId: t.fld } },
  ],
  deleteMedia: (t) => [{ method: 'delete', url: `/v1/media/${t.med}?confirm=true` }],
  listFolders: () => [],
  createFolder: (t) => [{ method: 'post', url: '/v1/folders', body: { name: 'Inside', parentId: t.fld } }],
  updateFolder: (t, o) => [
    { method: 'patch', url: `/v1/folders/${t.fld}`, body: { name: 'Renamed' } },
    { method: 'patch', url: `/v1/folders/${o.fld}`, body: { parentId: t.fld } },
  ],
  deleteFolder: (t) => [{ method: 'delete', url: `/v1/folders/${t.fld}?confirm=true` }],
  planPost: (t, o) => [
    { method: 'post', url: '/v1/posts/plan', body: postBody({ accountIds: [t.acc] }, []) },
    { method: 'post', url: '/v1/posts/plan', body: postBody({ groupId: t.grp }, []) },
    { method: 'post', url: '/v1/posts/plan', body: postBody({ accountIds: [o.acc] }, [t.med]) },
  ],
  listPosts: (t) => [{ method: 'get', url: `/v1/posts?accountId=${t.acc}` }],
  createPosts: (t, o) => [
    { method: 'post', url: '/v1/posts', body: { ...postBody({ accountIds: [t.acc] }, []), confirm: true } },
    { method: 'post', url: '/v1/posts', body: { ...postBody({ groupId: t.grp }, []), confirm: true } },
    { method: 'post', url: '/v1/posts', body: { ...postBody({ accountIds: [o.acc] }, [t.med]), confirm: true } },
    {
      method: 'post',
      url: '/v1/posts',
      body: { ...postBody({ accountIds: [o.acc, t.acc] }, []), when: 'queue', confirm: true },
    },
    ...(['draft', later()] as const).map((when) => ({
      method: 'post' as const,
      url: '/v1/posts',
      body: { ...postBody({ accountIds: [o.yta] }, []), when, perPlatform: thumbnail(t.med), confirm: true },
    })),
  ],
  getPost: (t) => [{ method: 'get', url: `/v1/posts/${t.pst}` }],
  reschedulePost: (t, o) => [
    { method: 'patch', url: `/v1/posts/${t.pst}`, body: { when: later(), confirm: true } },
    { method: 'patch', url: `/v1/posts/${t.pst}`, body: { text: 'Stolen', confirm: true } },
    { method: 'patch', url: `/v1/posts/${o.pst}`, body: { mediaIds: [t.med], confirm: true } },
    { method: 'patch', url: `/v1/posts/${o.ytd}`, body: { perPlatform: thumbnail(t.med) } },
  ],
  swapPostTimes: (t, o) => [
    { method: 'post', url: '/v1/posts/swap-times', body: { postIds: [o.pst, t.pst], confirm: true } },
    { method: 'post', url: '/v1/posts/swap-times', body: { postIds: [t.pst, o.pst], confirm: true } },
  ],
  deletePost: (t) => [{ method: 'delete', url: `/v1/posts/${t.pst}?confirm=true` }],
  retryPost: (t) => [{ method: 'post', url: `/v1/posts/${t.pst}/retry`, body: { confirm: true } }],
  cancelPost: (t) => [{ method: 'post', url: `/v1/posts/${t.pst}/cancel`, body: { confirm: true } }],
  listPostEvents: (t) => [{ method: 'get', url: `/v1/posts/${t.pst}/events` }],
  // Takes no id: test/events.test.ts shows it lists the caller's workspace's events only; the snapshot reads it.
  listEvents: () => [],
  getPostAnalytics: (t) => [
    { method: 'get', url: `/v1/posts/${t.pst}/analytics` },
    { method: 'get', url: `/v1/posts/${t.pst}/analytics?refresh=true` },
  ],
  getOpenApi: () => [],
  listWebhooks: () => [],
  createWebhook: () => [],
  getWebhook: (t) => [{ method: 'get', url: `/v1/webhooks/${t.whk}` }],
  updateWebhook: (t) => [{ method: 'patch', url: `/v1/webhooks/${t.whk}`, body: { enabled: false } }],
  deleteWebhook: (t) => [{ method: 'delete', url: `/v1/webhooks/${t.whk}` }],
  rotateWebhookSecret: (t) => [{ method: 'post', url: `/v1/webhooks/${t.whk}/rotate-secret` }],
  testWebhook: (t) => [{ method: 'post', url: `/v1/webhooks/${t.whk}/test` }],
  listWebhookDeliveries: (t) => [{ method: 'get', url: `/v1/webhooks/${t.whk}/deliveries` }],
  redeliverWebhookDelivery: (t, o) => [
    { method: 'post', url: `/v1/webhooks/${t.whk}/deliveries/${t.whd}/redeliver` },
    { method: 'post', url: `/v1/webhooks/${o.whk}/deliveries/${t.whd}/redeliver` },
  ],
};

/** Another workspace's resources that only the session routes (auth.yaml) name. */
interface SessionIds {
  acc: string;
  key: string;
  invite: string;
  user: string;
}

/**
 * For each operation of auth.yaml, the requests a signed-in owner makes with another workspace's ids; empty for
 * one that takes no id of a workspace's. Approvals have their test below (a post must await approval first), and
 * an MCP grant is its person's own: test/mcpOAuth.test.ts revokes another person's and is refused.
 */
const SESSION_ISOLATION: Record<AuthOperationId, (theirs: SessionIds) => Attempt[]> = {
  signIn: () => [],
  getSession: () => [],
  signOut: () => [],
  getSignUpState: () => [],
  signUp: () => [],
  requestPasswordReset: () => [],
  getPasswordReset: () => [],
  confirmPasswordReset: () => [],
  changePassword: () => [],
  listMembers: () => [],
  changeMemberRole: (t) => [{ method: 'patch', url: `/auth/members/${t.user}`, body: { role: 'member' } }],
  removeMember: (t) => [{ method: 'delete', url: `/auth/members/${t.user}` }],
  createInvite: () => [],
  cancelInvite: (t) => [{ method: 'delete', url: `/auth/invites/${t.invite}` }],
  getInvite: () => [],
  acceptInvite: () => [],
  listWorkspaces: () => [],
  switchWorkspace: () => [],
  listKeys: () => [],
  createKey: () => [],
  revokeKey: (t) => [{ method: 'delete', url: `/auth/keys/${t.key}` }],
  getBilling: () => [],
  changePlan: () => [],
  updateWorkspace: () => [],
  listAudit: () => [],
  listApprovals: () => [],
  approvePost: () => [],
  rejectPost: () => [],
  getDisconnect: (t) => [{ method: 'get', url: `/auth/accounts/${t.acc}/disconnect` }],
  disconnectAccount: (t) => [{ method: 'post', url: `/auth/accounts/${t.acc}/disconnect`, body: { confirm: true } }],
  startConnect: () => [],
  connectBySignIn: () => [],
  finishConnect: () => [],
  listMcpGrants: () => [],
  revokeMcpGrant: () => [],
  streamEvents: () => [],
  getAuthContract: () => [],
};

const PLACEHOLDERS: Ids = {
  acc: 'acc',
  grp: 'grp',
  med: 'med',
  fld: 'fld',
  pst: 'pst',
  whk: 'whk',
  whd: 'whd',
  yta: 'yta',
  ytd: 'ytd',
};
const TAKING_IDS = operations
  .map((op) => op.operationId)
  .filter((id) => ISOLATION[id]?.(PLACEHOLDERS, PLACEHOLDERS).length);

describe('the isolation table', () => {
  it('has a row for every operation, and requests for every operation with an id in its path', () => {
    for (const op of operations) {
      const row = ISOLATION[op.operationId];
      expect(row, `operation ${op.operationId} has no row in ISOLATION (test/isolation.test.ts)`).toBeDefined();
      if (op.fields.path.length) expect(row!(PLACEHOLDERS, PLACEHOLDERS).length, op.operationId).toBeGreaterThan(0);
    }
  });
});

describe.each(DATABASES)('workspace isolation on %s', (kind) => {
  let env: TestEnv;
  let mine: Seeded;
  let theirs: Seeded;
  let own: Ids;
  let their: Ids;

  /** A workspace with one resource of each kind, made through the API. */
  async function furnish(ws: Seeded): Promise<Ids> {
    const acc = await addAccount(env, ws.workspaceId, 'threads', 'Threads account');
    const med = await seedMedia(env, ws.workspaceId);
    const grp = (
      await call(env, 'post', '/v1/groups', { key: ws.writeKey, body: { name: 'Group', accountIds: [acc] } })
    ).body.id;
    const fld = (await call(env, 'post', '/v1/folders', { key: ws.writeKey, body: { name: 'Folder' } })).body.id;
    const posts = await call(env, 'post', '/v1/posts', {
      key: ws.writeKey,
      body: { ...postBody({ accountIds: [acc] }, [med]), confirm: true },
    });
    expect(posts.status).toBe(201);
    const hook = { url: 'https://example.com/hook', events: ['post.live'] };
    const whk = (await call(env, 'post', '/v1/webhooks', { key: ws.writeKey, body: hook })).body.id;
    const whd = (await call(env, 'post', `/v1/webhooks/${whk}/test`, { key: ws.writeKey })).body.id;
    const yta = await addAccount(env, ws.workspaceId, 'youtube', 'YouTube channel');
    const draft = { ...postBody({ accountIds: [yta] }, []), when: 'draft', perPlatform: thumbnail(med), confirm: true };
    const ytd = (await call(env, 'post', '/v1/posts', { key: ws.writeKey, body: draft })).body.posts[0].id;
    return { acc, grp, med, fld, pst: posts.body.posts[0].id, whk, whd, yta, ytd };
  }

  /** Everything a workspace's key can read about it. */
  async function snapshot(ws: Seeded, ids: Ids) {
    const read = async (url: string) => (await call(env, 'get', url, { key: ws.readKey })).body;
    const usage = (await read('/v1/whoami')).usage;
    return {
      usage,
      accounts: await read('/v1/accounts'),
      groups: await read('/v1/groups'),
      media: await read('/v1/media'),
      folders: await read('/v1/folders'),
      posts: await read('/v1/posts'),
      post: await read(`/v1/posts/${ids.pst}`),
      events: await read(`/v1/posts/${ids.pst}/events`),
      feed: await read('/v1/events?limit=100'),
      webhooks: await read('/v1/webhooks'),
      deliveries: await read(`/v1/webhooks/${ids.whk}/deliveries`),
      // The sealed secrets: a rotation would change them without changing anything the API shows.
      secrets: await env.services.db('webhooks').where({ id: ids.whk }).select('secret_sealed', 'retired_secrets'),
    };
  }

  beforeAll(async () => {
    env = await startHerald(kind, { fromUrl: { allowHosts: [], extraCaPem: undefined, timeoutMs: 1000 } });
    mine = await seedWorkspace(env, { plan: 'agency' });
    theirs = await seedWorkspace(env, { plan: 'agency' });
    own = await furnish(mine);
    their = await furnish(theirs);
  });
  afterAll(() => env.close());

  it.each(TAKING_IDS)("%s answers 404 to another workspace's ids and changes nothing", async (operationId) => {
    const before = [await snapshot(mine, own), await snapshot(theirs, their)];
    for (const attempt of ISOLATION[operationId]!(their, own)) {
      const res = await call(env, attempt.method, attempt.url, { key: mine.writeKey, body: attempt.body });
      expect(res.status, `${attempt.method.toUpperCase()} ${attempt.url} ${JSON.stringify(attempt.body ?? '')}`).toBe(
        404,
      );
      expect(res.body.code).toBe('not_found');
    }
    expect([await snapshot(mine, own), await snapshot(theirs, their)]).toEqual(before);
  });

  it("answers 404 to the session routes given another workspace's ids, and changes nothing", async () => {
    const theirOwner = await signedIn(env, theirs.userId, theirs.workspaceId);
    const invite = await asPerson(env, theirOwner, 'post', '/auth/invites', {
      email: 'iso@example.com',
      role: 'member',
    });
    const key = await asPerson(env, theirOwner, 'post', '/auth/keys', { name: 'Theirs', scopes: ['read'] });
    const ids: SessionIds = { acc: their.acc, key: key.body.id, invite: invite.body.invite.id, user: theirs.userId };
    const theirSide = async () => [
      (await asPerson(env, theirOwner, 'get', '/auth/members')).body,
      (await asPerson(env, theirOwner, 'get', '/auth/keys')).body,
    ];
    const before = [await snapshot(mine, own), await snapshot(theirs, their), await theirSide()];
    const owner = await signedIn(env, mine.userId, mine.workspaceId);
    for (const attempts of Object.values(SESSION_ISOLATION))
      for (const attempt of attempts(ids)) {
        const res = await asPerson(env, owner, attempt.method, attempt.url, attempt.body);
        expect([attempt.method, attempt.url, res.status, res.body.code]).toEqual([
          attempt.method,
          attempt.url,
          404,
          'not_found',
        ]);
      }
    expect([await snapshot(mine, own), await snapshot(theirs, their), await theirSide()]).toEqual(before);
  });

  it("answers 404 to deciding on another workspace's post awaiting approval, and changes nothing", async () => {
    const theirOwner = await signedIn(env, theirs.userId, theirs.workspaceId);
    await asPerson(env, theirOwner, 'patch', '/auth/workspace', { approvalRequiredFor: ['members'] });
    const member = await addPerson(env, theirs.workspaceId, 'member');
    const waiting = await asPerson(env, member, 'post', '/v1/posts', {
      ...postBody({ accountIds: [their.acc] }, []),
      confirm: true,
    });
    const pst = waiting.body.posts[0].id;
    expect(waiting.body.posts[0].approval.state).toBe('pending');
    const before = [await snapshot(mine, own), await snapshot(theirs, { ...their, pst })];
    const admin = await signedIn(env, mine.userId, mine.workspaceId);
    const publishAt = DateTime.utc().plus({ days: 2 }).toISO();
    for (const [how, body] of [
      ['approve', {}],
      ['approve', { publishAt }],
      ['reject', { comment: 'Mine now' }],
    ] as const) {
      const res = await asPerson(env, admin, 'post', `/auth/approvals/${pst}/${how}`, body);
      expect(res.status, `${how} ${JSON.stringify(body)}`).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    expect((await asPerson(env, admin, 'get', '/auth/approvals')).body.posts).toEqual([]);
    expect([await snapshot(mine, own), await snapshot(theirs, { ...their, pst })]).toEqual(before);
  });

  it("counts a workspace's webhooks against its own limit only", async () => {
    const hook = { url: 'https://example.com/full', events: ['post.live'] };
    const made: string[] = [];
    for (;;) {
      const res = await call(env, 'post', '/v1/webhooks', { key: theirs.writeKey, body: hook });
      if (res.status !== 201) {
        expect([res.status, res.body.code, res.body.limit]).toEqual([402, 'quota_exceeded', WEBHOOKS_PER_WORKSPACE]);
        break;
      }
      made.push(res.body.id);
    }
    const ours = await call(env, 'post', '/v1/webhooks', { key: mine.writeKey, body: hook });
    expect(ours.status).toBe(201);
    for (const id of made) await call(env, 'delete', `/v1/webhooks/${id}`, { key: theirs.writeKey });
    await call(env, 'delete', `/v1/webhooks/${ours.body.id}`, { key: mine.writeKey });
  });

  it("replays no answer of another workspace's Idempotency-Key", async () => {
    const headers = { 'Idempotency-Key': `shared-${kind}` };
    const create = (ws: Seeded) =>
      call(env, 'post', '/v1/folders', { key: ws.writeKey, body: { name: 'Keyed' }, headers });
    const theirFolder = await create(theirs);
    const before = await snapshot(theirs, their);
    const mineFolder = await create(mine);
    expect(mineFolder.status).toBe(201);
    expect(mineFolder.headers['idempotent-replayed']).toBeUndefined();
    expect(mineFolder.body.id).not.toBe(theirFolder.body.id);
    expect(await snapshot(theirs, their)).toEqual(before);
  });
});
