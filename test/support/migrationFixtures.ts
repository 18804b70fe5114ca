// Data as each past version of Herald wrote it, by the migration that version ended at: the upgrade
// test fills a database at every past migration with the entries up to it, migrates to the latest and
// checks that nothing was lost. A migration that adds a table or column adds an entry here; one that
// rewrites existing values on purpose names them in REWRITES.
import type { Knex } from 'knex';
import { sha256, type Keyring } from '../../runtime/crypto.ts';
import { sealWebhookSecret } from '../../runtime/webhookPolicy.ts';

export const FIXTURE = {
  workspaceId: 'ws_upgradeFixture01',
  apiKey: 'hld_UpgradeFixtureKeyUpgradeFixtureKey0001',
  accountId: 'acc_upgradeFixture01',
  accountToken: 'sandbox-access.upgrade-fixture.token',
  mediaId: 'med_upgradeFixture01',
  queuedPostId: 'pst_upgradeQueued001',
  livePostId: 'pst_upgradeLive00001',
};

const at = '2026-03-01T09:00:00.000Z';
const later = '2030-06-01T09:00:00.000Z';

export const MIGRATION_FIXTURES: Record<string, (db: Knex, keyring: Keyring) => Promise<void>> = {
  async '0001_foundation'(db, keyring) {
    const ws = FIXTURE.workspaceId;
    await db('workspaces').insert({
      id: ws,
      slug: 'upgrade-shop',
      name: 'Upgrade Shop',
      plan: 'creator',
      currency: 'EUR',
      tz: 'Europe/Berlin',
      created_at: at,
    });
    await db('users').insert({ id: 'usr_upgradeFixture01', name: 'ops', email: 'ops@upgrade.test', created_at: at });
    await db('members').insert({ workspace_id: ws, user_id: 'usr_upgradeFixture01', role: 'owner', created_at: at });
    await db('api_keys').insert({
      id: 'key_upgradeFixture01',
      workspace_id: ws,
      user_id: 'usr_upgradeFixture01',
      name: 'agent',
      display_prefix: FIXTURE.apiKey.slice(0, 10),
      secret_hash: sha256(FIXTURE.apiKey),
      scopes: 'read,write',
      created_at: at,
    });
    await db('accounts').insert({
      id: FIXTURE.accountId,
      workspace_id: ws,
      platform: 'threads',
      display_name: 'Upgrade Threads',
      status: 'ok',
      external_id: 'sandbox-threads-upgrade',
      token_sealed: keyring.encrypt(FIXTURE.accountToken),
      created_at: at,
    });
    await db('groups').insert({ id: 'grp_upgradeFixture01', workspace_id: ws, name: 'Everywhere', created_at: at });
    await db('group_accounts').insert({ group_id: 'grp_upgradeFixture01', account_id: FIXTURE.accountId, position: 0 });
  },
  async '0002_media'(db) {
    await db('folders').insert({
      id: 'fld_upgradeFixture01',
      workspace_id: FIXTURE.workspaceId,
      parent_id: null,
      name: 'Library',
      is_root: 1,
      created_at: at,
    });
    await db('media').insert({
      id: FIXTURE.mediaId,
      workspace_id: FIXTURE.workspaceId,
      folder_id: 'fld_upgradeFixture01',
      status: 'ready',
      filename: 'sale.jpg',
      mime: 'image/jpeg',
      size: 1234,
      stored_bytes: 1234,
      storage_key: `${FIXTURE.workspaceId}/${FIXTURE.mediaId}/original-1`,
      kind: 'image',
      width: 1080,
      height: 1350,
      uploaded_at: at,
      created_at: at,
      updated_at: at,
    });
  },
  async '0003_posts'(db) {
    const post = {
      workspace_id: FIXTURE.workspaceId,
      account_id: FIXTURE.accountId,
      platform: 'threads',
      tags: '[]',
      per_platform: '{}',
      created_via: 'api',
      created_at: at,
      updated_at: at,
    };
    await db('posts').insert([
      {
        ...post,
        id: FIXTURE.queuedPostId,
        status: 'queued',
        publish_at: later,
        text: 'Summer sale starts Monday.',
        media_ids: JSON.stringify([FIXTURE.mediaId]),
        quota_month: '2030-06',
      },
      {
        ...post,
        id: FIXTURE.livePostId,
        status: 'live',
        publish_at: at,
        text: 'Spring is here.',
        media_ids: '[]',
        quota_month: '2026-03',
        live_at: at,
        external_url: 'https://threads.example/p/1',
      },
    ]);
    await db('post_media').insert({
      post_id: FIXTURE.queuedPostId,
      media_id: FIXTURE.mediaId,
      workspace_id: FIXTURE.workspaceId,
      position: 0,
    });
    await db('post_events').insert([
      {
        id: 'evt_upgradeFixture01',
        post_id: FIXTURE.livePostId,
        workspace_id: FIXTURE.workspaceId,
        kind: 'created',
        at,
      },
      { id: 'evt_upgradeFixture02', post_id: FIXTURE.livePostId, workspace_id: FIXTURE.workspaceId, kind: 'live', at },
      {
        id: 'evt_upgradeFixture03',
        post_id: FIXTURE.queuedPostId,
        workspace_id: FIXTURE.workspaceId,
        kind: 'queued',
        at,
        publish_at: later,
      },
    ]);
    await db('post_creations').insert([
      { workspace_id: FIXTURE.workspaceId, at },
      { workspace_id: FIXTURE.workspaceId, at },
    ]);
  },
  async '0004_publishing'(db) {
    await db('jobs').insert({ key: FIXTURE.queuedPostId, task: 'publish', run_at: later, version: 0 });
  },
  async '0005_sandbox'(db) {
    await db('sandbox_items').insert({
      id: 'sbx_upgradeFixture01',
      network: 'threads',
      account: 'sandbox-threads-upgrade',
      kind: 'post',
      status: 'published',
      data: '{"text":"Spring is here."}',
      created_at: at,
      updated_at: at,
      published_ms: Date.parse(at),
    });
  },
  async '0006_analytics'(db) {
    await db('posts').where({ id: FIXTURE.livePostId }).update({ external_id: 'threads-1' });
    await db('analytics').insert({
      workspace_id: FIXTURE.workspaceId,
      target_kind: 'post',
      target_id: FIXTURE.livePostId,
      metrics: '{"views":120}',
      fetched_at: at,
    });
  },
  async '0008_members'(db) {
    await db('invites').insert({
      id: 'inv_upgradeFixture01',
      workspace_id: FIXTURE.workspaceId,
      email: 'guest@upgrade.test',
      role: 'member',
      invited_by: 'usr_upgradeFixture01',
      created_at: at,
      expires_at: later,
    });
    await db('password_resets').insert({
      id: 'rst_upgradeFixture01',
      user_id: 'usr_upgradeFixture01',
      created_at: at,
      expires_at: later,
    });
    await db('audit_events').insert({
      id: 'aud_upgradeFixture01',
      workspace_id: FIXTURE.workspaceId,
      at,
      user_id: 'usr_upgradeFixture01',
      action: 'member.invited',
      detail: '{"email":"guest@upgrade.test","role":"member"}',
    });
  },
  async '0014_sandbox_accounts'(db) {
    await db('sandbox_accounts').insert({
      network: 'threads',
      id: 'sandbox-threads-connected',
      name: 'Connected Threads',
      tokens: 'expired',
      created_at: at,
    });
  },
  async '0019_idempotency_keys'(db) {
    await db('idempotency_keys').insert({
      workspace_id: FIXTURE.workspaceId,
      key: 'upgrade-fixture-key',
      fingerprint: sha256('createPost /v1/posts {}'),
      operation_id: 'createPost',
      status: 201,
      response: JSON.stringify({ body: { posts: [{ id: FIXTURE.livePostId }] }, headers: {} }),
      created_at: at,
    });
  },
  async '0020_events'(db) {
    await db('events').insert({
      id: 'wev_upgradeFixture01',
      workspace_id: FIXTURE.workspaceId,
      type: 'post.live',
      object_id: FIXTURE.livePostId,
      created_at: at,
    });
  },
  async '0021_webhooks'(db, keyring) {
    await db('webhooks').insert({
      id: 'whk_upgradeFixture01',
      workspace_id: FIXTURE.workspaceId,
      url: 'https://hooks.upgrade.test/herald',
      events: '["post.live","post.failed"]',
      enabled: true,
      secret_sealed: sealWebhookSecret(keyring, 'whsec_dXBncmFkZS1maXh0dXJlLXNlY3JldA=='),
      created_at: at,
    });
    await db('webhook_deliveries').insert({
      id: 'whd_upgradeFixture01',
      webhook_id: 'whk_upgradeFixture01',
      workspace_id: FIXTURE.workspaceId,
      event_id: 'wev_upgradeFixture01',
      type: 'post.live',
      status: 'delivered',
      attempts: 1,
      response_status: 200,
      response_body: 'thanks',
      duration_ms: 12,
      created_at: at,
    });
  },
  async '0023_post_batches'(db) {
    // From this version on, every post is made with the batch of its create call: these two were made together.
    await db('posts')
      .whereIn('id', [FIXTURE.queuedPostId, FIXTURE.livePostId])
      .update({ batch_id: 'bat_upgradeFixture01' });
  },
};

/** "table.column" values a migration rewrites on purpose, by migration name: the upgrade test does not compare them. */
export const REWRITES: Record<string, string[]> = {};
