// The Bluesky connector against Bluesky's reference PDS (@atproto/pds with a PLC directory, under Node 22, started
// once for this file: test/support/blueskyPds.ts), not a simulator: accounts made on it connect through Herald's
// sign-in route with app passwords; text with facets and a link card, four images with alt text (one scaled down to
// the blob limit), and a video are published and read back from the PDS; an attempt that stopped before or after
// the record was written is settled without a second post; the failures (a wrong or main password, a revoked app
// password, a file over the server's blob limit, the sign-in rate limit, a suspended account, no AppView for
// counters) are the server's own answers. On SQLite only: the database side is the generic one, tested elsewhere.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { AtpAgent, type XRPCError } from '@atproto/api';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../../domain/ids.ts';
import { agentOn, refusal, statusOf } from '../../networks/bluesky/api.ts';
import { readCredentials, type Connector, type ConnectorAccount } from '../../networks/connector.ts';
import { connectorFor } from '../../networks/connectors.ts';
import { startWorker, type RunningWorker } from '../../worker/worker.ts';
import { installPds, startPds, type RunningPds } from '../support/blueskyPds.ts';
import { call, seedWorkspace, startHerald, type Seeded } from '../support/harness.ts';
import { makeImage, makeVideo, processed, tempDir, upload } from '../support/mediaFiles.ts';
import { connectorJob, listeningHerald, networkError, publishable, resumed } from '../support/network.ts';
import { until } from '../support/waiting.ts';
import { asPerson, signedIn, type Person } from '../support/people.ts';

type Env = Awaited<ReturnType<typeof listeningHerald>>;
const POST = 'app.bsky.feed.post';

/** A person's account on the PDS: its handle, its own password, and an app password made for Herald. */
interface PdsAccount {
  did: string;
  handle: string;
  email: string;
  password: string;
  appPassword: string;
  /** Signed in with the account's own password (for what only its owner may do, such as revoking). */
  owner: AtpAgent;
}

describe('bluesky against the reference PDS', () => {
  let pds: RunningPds;
  let env: Env;
  let ws: Seeded;
  let person: Person;
  let bluesky: Connector;
  let page: http.Server;
  let pageUrl: string;
  let worker: RunningWorker | undefined;
  const dir = tempDir();
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    pds = await startPds(await installPds());
    // A web page with Open Graph tags and a picture, for the link card (on loopback, allowed as a test host).
    page = http.createServer(async (req, res) => {
      if (req.url === '/picture.png') {
        const picture = await sharp({ create: { width: 1200, height: 630, channels: 3, background: '#2a6' } })
          .png()
          .toBuffer();
        return res.writeHead(200, { 'content-type': 'image/png' }).end(picture);
      }
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          '<html><head><title>Plain title</title><meta property="og:title" content="Autumn &amp; winter">' +
            '<meta property="og:description" content="Coats, scarves and boots.">' +
            '<meta property="og:image" content="/picture.png"></head><body>Shop</body></html>',
        );
    });
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
    env = await listeningHerald('sqlite', {
      sandboxPds: pds.url,
      fromUrl: { allowHosts: ['127.0.0.1'], extraCaPem: undefined, timeoutMs: 60_000 },
      sandboxProcessingMs: 0,
      mediaSweepMs: 0,
    });
    ws = await seedWorkspace(env, { plan: 'agency' });
    person = await signedIn(env, ws.userId, ws.workspaceId);
    bluesky = connectorFor('bluesky', env.config, env.services.clock)!;
    const put = async (file: string, mime: string) => {
      const id = (await upload(env, ws.writeKey, file, mime)).id as string;
      await processed(env, ws.writeKey, id);
      return id;
    };
    // A 1500×1500 PNG of noise is about 7 MB: over the 2 MB blob limit, so it is sent scaled down.
    const noise = path.join(dir, 'noise.png');
    await sharp(randomBytes(1500 * 1500 * 3), { raw: { width: 1500, height: 1500, channels: 3 } })
      .png()
      .toFile(noise);
    ids.jpeg = await put(await makeImage(dir, 'jpeg', 1080, 1350), 'image/jpeg');
    ids.png = await put(await makeImage(dir, 'png', 800, 800), 'image/png');
    ids.gif = await put(await makeImage(dir, 'gif', 640, 480), 'image/gif');
    ids.noise = await put(noise, 'image/png');
    ids.video = await put(makeVideo(dir, { seconds: 3, width: 360, height: 640, fps: 25 }), 'video/mp4');
    // About 6 MB of noise: over the PDS's blob limit (5 MB, its default).
    const big = path.join(dir, 'big.mp4');
    execFileSync('ffmpeg', [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'nullsrc=s=640x360:r=25:d=2,geq=random(1)*255:128:128'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-qp', '20', '-pix_fmt', 'yuv420p', big],
    ]);
    ids.bigVideo = await put(big, 'video/mp4');
  }, 20 * 60_000);

  afterAll(async () => {
    await worker?.stop();
    await env?.close();
    await pds?.close();
    page?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A new account on the PDS (as a person makes one in Bluesky's app), with an app password for Herald. */
  async function pdsAccount(): Promise<PdsAccount> {
    const name = `ola${randomBase62(6).toLowerCase()}`;
    const email = `${name}@example.com`;
    const password = `main-${randomBase62(12)}`;
    const owner = new AtpAgent({ service: pds.url });
    await owner.createAccount({ handle: `${name}.test`, email, password });
    const { data } = await owner.com.atproto.server.createAppPassword({ name: `herald-${randomBase62(4)}` });
    return { did: owner.session!.did, handle: `${name}.test`, email, password, appPassword: data.password, owner };
  }

  /** POST /auth/connect/bluesky as the signed-in owner. */
  const connect = (fields: Record<string, string>) => asPerson(env, person, 'post', '/auth/connect/bluesky', fields);

  /** The account as Herald stored it, with the credentials the connector gets. */
  async function stored(did: string): Promise<ConnectorAccount & { tokenSealed: string }> {
    const row = await env.services
      .db('accounts')
      .where({ workspace_id: ws.workspaceId, external_id: did })
      .first('id', 'display_name', 'token_sealed');
    return {
      id: row.id,
      externalId: did,
      displayName: row.display_name,
      tokenSealed: row.token_sealed,
      credentials: readCredentials(env.services.keyring.decrypt(row.token_sealed)),
    };
  }

  /** A connected account: made on the PDS, connected through Herald with its app password. */
  async function connected(): Promise<{ pdsAccount: PdsAccount; account: ConnectorAccount }> {
    const a = await pdsAccount();
    const res = await connect({ identifier: a.handle, password: a.appPassword });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { pdsAccount: a, account: await stored(a.did) };
  }

  /** The record at an at:// address, read from the PDS as anyone may. */
  async function record(uri: string): Promise<any> {
    const [, , repo, collection, rkey] = uri.split('/');
    const agent = new AtpAgent({ service: pds.url });
    return (await agent.com.atproto.repo.getRecord({ repo: repo!, collection: collection!, rkey: rkey! })).data.value;
  }

  async function posts(did: string): Promise<number> {
    const agent = new AtpAgent({ service: pds.url });
    return (await agent.com.atproto.repo.listRecords({ repo: did, collection: POST })).data.records.length;
  }

  /** A blob's bytes as the PDS serves them. */
  async function blob(did: string, ref: { ref: { toString(): string } }): Promise<Buffer> {
    const agent = new AtpAgent({ service: pds.url });
    return Buffer.from((await agent.com.atproto.sync.getBlob({ did, cid: ref.ref.toString() })).data);
  }

  describe('connecting with an app password', () => {
    it('by handle: the account is listed by its handle, its session sealed with the servers it lives on', async () => {
      const a = await pdsAccount();
      const res = await connect({ identifier: `@${a.handle}`, password: a.appPassword });
      expect(res.body).toEqual({ connected: 1, requeued: 0, sentAgain: [] });
      const listed = await call(env, 'get', '/v1/accounts', { key: ws.readKey });
      expect(listed.body.accounts).toContainEqual(
        expect.objectContaining({ platform: 'bluesky', displayName: a.handle }),
      );
      const account = await stored(a.did);
      expect(account.tokenSealed).not.toContain(account.credentials.accessToken);
      expect(account.credentials.servers).toEqual({ service: pds.url, pds: pds.url });
      expect(Date.parse(account.credentials.expiresAt!)).toBeGreaterThan(Date.now());
    });

    it('by email, on the server the form names; GET sends the person to the form with the sandbox server', async () => {
      const a = await pdsAccount();
      const start = await asPerson(env, person, 'get', '/auth/connect/bluesky');
      expect(start.status).toBe(302);
      const form = new URL(start.headers.location!);
      expect(form.pathname).toBe('/app/accounts');
      expect(Object.fromEntries(form.searchParams)).toEqual({ connect: 'bluesky', server: pds.url });
      const res = await connect({ identifier: a.email, password: a.appPassword, server: pds.url });
      expect(res.body.connected).toBe(1);
    });

    it('refuses a wrong app password and the account’s own password, in Bluesky’s words', async () => {
      const a = await pdsAccount();
      const wrong = await connect({ identifier: a.handle, password: 'abcd-efgh-ijkl-mnop' });
      expect(wrong.status).toBe(400);
      expect(wrong.body.code).toBe('app_password_refused');
      expect(wrong.body.message).toContain('Invalid identifier or password');
      const own = await connect({ identifier: a.handle, password: a.password });
      expect(own.status).toBe(400);
      expect(own.body.code).toBe('app_password_required');
      expect(await env.services.db('accounts').where({ external_id: a.did }).first()).toBeUndefined();
    });

    it('refuses a server that is not public, before sending it the password', async () => {
      const a = await pdsAccount();
      const res = await connect({ identifier: a.handle, password: a.appPassword, server: 'http://10.0.0.7' });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('server_not_allowed');
    });

    it('answers the server’s rate limit on sign-ins as rate_limited with its wait', async () => {
      // The PDS counts 30 sign-ins per identifier and address in 5 minutes, before it looks at the password: an
      // overlong one is refused at once, without the cost of checking it.
      const identifier = `nobody${randomBase62(6).toLowerCase()}.test`;
      const agent = new AtpAgent({ service: pds.url });
      for (let i = 0; i < 30; i++) await agent.login({ identifier, password: 'x'.repeat(1000) }).catch(() => {});
      const res = await connect({ identifier, password: 'abcd-efgh-ijkl-mnop' });
      expect(res.status, JSON.stringify(res.body)).toBe(429);
      expect(res.body.code).toBe('rate_limited');
      expect(res.body.message).toContain('Rate Limit Exceeded');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    });
  });

  describe('the sign-in route', () => {
    it('takes a handle and a password; a network with a consent page is refused', async () => {
      expect((await connect({ identifier: 'ola.test' })).body.code).toBe('invalid_request');
      expect((await connect({ identifier: '', password: 'abcd-efgh-ijkl-mnop' })).body.code).toBe('invalid_request');
      const oauth = await asPerson(env, person, 'post', '/auth/connect/instagram', { identifier: 'a', password: 'b' });
      expect(oauth.status).toBe(400);
      expect(oauth.body.message).toContain('consent page');
    });

    it('reconnects only the account named, of this workspace and of this network', async () => {
      const { pdsAccount: a, account } = await connected();
      const other = await pdsAccount();
      const mismatch = await connect({ identifier: other.handle, password: other.appPassword, accountId: account.id });
      expect(mismatch.status).toBe(409);
      expect(mismatch.body.code).toBe('account_mismatch');
      const foreign = await seedWorkspace(env, { plan: 'agency' });
      const stranger = await signedIn(env, foreign.userId, foreign.workspaceId);
      const across = await asPerson(env, stranger, 'post', '/auth/connect/bluesky', {
        identifier: a.handle,
        password: a.appPassword,
        accountId: account.id,
      });
      expect(across.status).toBe(404);
      expect((await connect({ identifier: a.handle, password: a.appPassword, accountId: account.id })).body).toEqual({
        connected: 1,
        requeued: 0,
        sentAgain: [],
      });
    });

    it('a sandbox that names no server says so (409), and sends the person back with why, not to a form', async () => {
      const bare = await startHerald('sqlite');
      try {
        const seeded = await seedWorkspace(bare, { plan: 'agency' });
        const owner = await signedIn(bare, seeded.userId, seeded.workspaceId);
        const res = await asPerson(bare, owner, 'post', '/auth/connect/bluesky', { identifier: 'a', password: 'b' });
        expect(res.status).toBe(409);
        expect(res.body.code).toBe('network_not_configured');
        expect(res.body.hint).toContain('SANDBOX_PDS');
        expect(res.body.platform).toBe('bluesky');
        const form = await asPerson(bare, owner, 'get', '/auth/connect/bluesky');
        expect(form.status).toBe(302);
        expect(Object.fromEntries(new URL(form.headers.location!).searchParams)).toEqual({
          error: 'network_not_configured',
          message: res.body.message,
          hint: res.body.hint,
          platform: 'bluesky',
        });
      } finally {
        await bare.close();
      }
    });
  });

  describe('publishing', () => {
    it('text with a link, a mention and a tag as facets, and a card of the linked page', async () => {
      const { pdsAccount: a, account } = await connected();
      const friend = await pdsAccount();
      const text = `New in: ${pageUrl}/autumn with @${friend.handle} #autumn 🍂`;
      const published = await bluesky.publish(connectorJob({ account, text }));
      expect(published.externalId).toMatch(new RegExp(`^at://${a.did}/${POST}/[2-7a-z]{13}$`));
      expect(published.externalUrl).toContain(`${pds.url}/xrpc/com.atproto.repo.getRecord?`);
      expect((await fetch(published.externalUrl)).status).toBe(200);
      const value = await record(published.externalId);
      expect(value.text).toBe(text);
      const features = value.facets.flatMap((f: any) => f.features);
      expect(features).toEqual([
        { $type: 'app.bsky.richtext.facet#link', uri: `${pageUrl}/autumn` },
        { $type: 'app.bsky.richtext.facet#mention', did: friend.did },
        { $type: 'app.bsky.richtext.facet#tag', tag: 'autumn' },
      ]);
      // Facets index UTF-8 bytes: the mention's range is exactly "@handle".
      const mention = value.facets[1].index;
      expect(Buffer.from(text).subarray(mention.byteStart, mention.byteEnd).toString()).toBe(`@${friend.handle}`);
      expect(value.embed.$type).toBe('app.bsky.embed.external');
      expect(value.embed.external).toMatchObject({
        uri: `${pageUrl}/autumn`,
        title: 'Autumn & winter',
        description: 'Coats, scarves and boots.',
      });
      const thumb = await blob(a.did, value.embed.external.thumb);
      expect(thumb.length).toBeLessThanOrEqual(1_000_000);
      expect((await sharp(thumb).metadata()).width).toBe(1200);
    });

    it('a link Herald may not read gets no card, and the post says why', async () => {
      const { account } = await connected();
      const published = await bluesky.publish(connectorJob({ account, text: 'Our intranet: http://10.1.2.3/wiki' }));
      expect(published.notes).toEqual([expect.stringMatching(/^The link card was left out: .*10\.1\.2\.3/)]);
      const value = await record(published.externalId);
      expect(value.embed).toBeUndefined();
      expect(value.facets[0].features[0].uri).toBe('http://10.1.2.3/wiki');
    });

    it('four images with their alt texts; one over 2 MB scaled down as JPEG, a GIF sent as JPEG', async () => {
      const { pdsAccount: a, account } = await connected();
      const alts = ['A red coat, 4:5.', 'A red square.', '', 'Colour noise.'];
      const published = await bluesky.publish(
        connectorJob({
          account,
          text: '',
          media: await publishable(env, ws.workspaceId, [ids.jpeg!, ids.png!, ids.gif!, ids.noise!]),
          settings: { altTexts: alts },
        }),
      );
      const value = await record(published.externalId);
      expect(value.text).toBe('');
      expect(value.embed.$type).toBe('app.bsky.embed.images');
      const images = value.embed.images;
      expect(images.map((i: any) => i.alt)).toEqual(alts);
      expect(images.map((i: any) => i.image.mimeType)).toEqual(['image/jpeg', 'image/png', 'image/jpeg', 'image/jpeg']);
      expect(images[0].aspectRatio).toEqual({ width: 1080, height: 1350 });
      const noise = await blob(a.did, images[3].image);
      expect(noise.length).toBeLessThanOrEqual(2_000_000);
      const meta = await sharp(noise).metadata();
      expect(meta.format).toBe('jpeg');
      expect(images[3].aspectRatio).toEqual({ width: meta.width, height: meta.height });
      expect(meta.width).toBe(meta.height);
    });

    it('one video, with its alt text and shape', async () => {
      const { pdsAccount: a, account } = await connected();
      const published = await bluesky.publish(
        connectorJob({
          account,
          text: 'Autumn in motion',
          media: await publishable(env, ws.workspaceId, [ids.video!]),
          settings: { altTexts: ['A test pattern with a tone.'] },
        }),
      );
      const value = await record(published.externalId);
      expect(value.embed).toMatchObject({
        $type: 'app.bsky.embed.video',
        alt: 'A test pattern with a tone.',
        aspectRatio: { width: 360, height: 640 },
        video: { mimeType: 'video/mp4' },
      });
      const original = fs.readFileSync(path.join(dir, 'video-360x640-3s-libx264-0.mp4'));
      expect((await blob(a.did, value.embed.video)).equals(original)).toBe(true);
    });

    it('through the worker: a post made with the API goes live with the record’s address', async () => {
      const { pdsAccount: a, account } = await connected();
      worker ??= await startWorker(env.services, { watchEveryMs: 200 });
      const created = await call(env, 'post', '/v1/posts', {
        key: ws.writeKey,
        body: {
          targets: { accountIds: [account.id] },
          mediaIds: [ids.jpeg],
          text: 'Autumn sale #autumn',
          perPlatform: { bluesky: { altTexts: ['A red coat.'] } },
          when: 'now',
          confirm: true,
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const postId = created.body.posts[0].id;
      const post = await until(
        async () => (await call(env, 'get', `/v1/posts/${postId}`, { key: ws.readKey })).body,
        (p) => p.status !== 'queued',
      );
      expect(post.status, JSON.stringify(post.error)).toBe('live');
      const [rkey] = post.externalUrl.match(/[2-7a-z]{13}$/)!;
      const value = await record(`at://${a.did}/${POST}/${rkey}`);
      expect(value).toMatchObject({ text: 'Autumn sale #autumn', embed: { images: [{ alt: 'A red coat.' }] } });
    });
  });

  describe('exactly once', () => {
    it('the key is saved before the record is written; settle finds it, publishing again adds none', async () => {
      const { pdsAccount: a, account } = await connected();
      const job = connectorJob({ account, text: 'Once only' });
      const published = await bluesky.publish(job);
      expect(job.saved).toHaveLength(1);
      expect(published.externalId.endsWith(`/${job.checkpoint!.rkey}`)).toBe(true);
      expect(await bluesky.settle(resumed(job))).toEqual({
        externalId: published.externalId,
        externalUrl: published.externalUrl,
      });
      expect((await bluesky.publish(resumed(job))).externalId).toBe(published.externalId);
      expect(await posts(a.did)).toBe(1);
    });

    it('an attempt that died between choosing the key and writing: settle finds none, the next writes', async () => {
      const { pdsAccount: a, account } = await connected();
      const dead = connectorJob({ account, text: 'After a crash', crashAt: (cp) => Boolean(cp.rkey) });
      await expect(bluesky.publish(dead)).rejects.toThrow(/crashed after saving/);
      expect(await bluesky.settle(resumed(dead))).toBe('not_published');
      const published = await bluesky.publish(resumed(dead));
      expect(published.externalId.endsWith(`/${dead.checkpoint!.rkey}`)).toBe(true);
      expect(await posts(a.did)).toBe(1);
    });
  });

  describe('the server’s refusals', () => {
    // The PDS refuses the upload on its content-length and closes while the file is still being sent: most runs, the
    // next write fails before the 413 is read, and the refusal is read again from the headers alone (refusalOf).
    it('a video over the server’s blob limit: bluesky_rejected in the server’s words, nothing posted', async () => {
      const { pdsAccount: a, account } = await connected();
      const job = connectorJob({
        account,
        text: 'Too big',
        media: await publishable(env, ws.workspaceId, [ids.bigVideo!]),
      });
      const err = await networkError(bluesky.publish(job), 'bluesky_rejected');
      expect(err.message).toMatch(/too large|PayloadTooLarge/i);
      expect(await posts(a.did)).toBe(0);
    });

    it('a revoked app password: its session no longer renews, the post fails, the account is expired', async () => {
      const { pdsAccount: a, account } = await connected();
      const passwords = await a.owner.com.atproto.server.listAppPasswords();
      await a.owner.com.atproto.server.revokeAppPassword({ name: passwords.data.passwords[0]!.name });
      await networkError(bluesky.refresh!(account), 'bluesky_token_rejected');
      // The access token is a signed token the server does not look up: it works until it expires, and Herald
      // renews it ten minutes before. Here it is due now, so the worker renews it first, and is refused.
      const due = { ...account.credentials, expiresAt: new Date(Date.now() + 60_000).toISOString() };
      await env.services
        .db('accounts')
        .where({ id: account.id })
        .update({ token_sealed: env.services.keyring.encrypt(JSON.stringify(due)) });
      worker ??= await startWorker(env.services, { watchEveryMs: 200 });
      const created = await call(env, 'post', '/v1/posts', {
        key: ws.writeKey,
        body: {
          targets: { accountIds: [account.id] },
          mediaIds: [],
          text: 'After revoking',
          when: 'now',
          confirm: true,
        },
      });
      const postId = created.body.posts[0].id;
      const post = await until(
        async () => (await call(env, 'get', `/v1/posts/${postId}`, { key: ws.readKey })).body,
        (p) => p.status !== 'queued',
      );
      expect(post.status).toBe('failed');
      expect(post.error.code).toBe('bluesky_token_rejected');
      expect(post.error.message).toMatch(/Token has been revoked|ExpiredToken|InvalidToken/);
      const listed = await call(env, 'get', '/v1/accounts', { key: ws.readKey });
      expect(listed.body.accounts.find((x: { id: string }) => x.id === account.id).status).toBe('expired');
      expect(await posts(a.did)).toBe(0);
      // Reconnected with a new app password, the account is ok again and the post that failed on it goes out.
      const { data } = await a.owner.com.atproto.server.createAppPassword({ name: 'herald-again' });
      const again = await connect({ identifier: a.handle, password: data.password, accountId: account.id });
      expect(again.body).toEqual({ connected: 1, requeued: 1, sentAgain: [{ postId, publishAt: expect.any(String) }] });
      const live = await until(
        async () => (await call(env, 'get', `/v1/posts/${postId}`, { key: ws.readKey })).body,
        (p) => p.status === 'live',
      );
      expect(live.status).toBe('live');
      expect(await posts(a.did)).toBe(1);
    });

    it('a renewed session works, and renewing with the token it replaced gives the same session', async () => {
      const { pdsAccount: a, account } = await connected();
      const fresh = await bluesky.refresh!(account);
      expect(fresh.refreshToken).not.toBe(account.credentials.refreshToken);
      expect(fresh.servers).toEqual(account.credentials.servers);
      const renewed = { ...account, credentials: fresh };
      await bluesky.publish(connectorJob({ account: renewed, text: 'With a renewed session' }));
      expect(await posts(a.did)).toBe(1);
      // Renewing again with the replaced token (a worker that died before storing the new session) gives the same
      // new session, within the server's grace period: no session is lost by a crash. The server signs it again,
      // so a second later the token differs in its issue time; the session's id (`jti`) is the same.
      const sessionId = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).jti;
      const again = await bluesky.refresh!(account);
      expect(sessionId(again.refreshToken!)).toBe(sessionId(fresh.refreshToken!));
      // The server's access tokens live two hours.
      expect(Date.parse(fresh.expiresAt!) - Date.now()).toBeGreaterThan(110 * 60_000);
    });

    it('a suspended account: refused in the server’s words', async () => {
      const { pdsAccount: a, account } = await connected();
      const admin = new AtpAgent({ service: pds.url });
      await admin.com.atproto.admin.updateSubjectStatus(
        { subject: { $type: 'com.atproto.admin.defs#repoRef', did: a.did }, takedown: { applied: true, ref: 'test' } },
        { headers: { authorization: `Basic ${Buffer.from(`admin:${pds.adminPassword}`).toString('base64')}` } },
      );
      const err = await networkError(bluesky.publish(connectorJob({ account, text: 'Suspended' })), 'bluesky_rejected');
      expect(err.message, err.message).toMatch(/takedown|taken down|suspended/i);
    });

    it('counters: the bare PDS has no AppView, which the answer says instead of reporting zeros', async () => {
      const { account } = await connected();
      const published = await bluesky.publish(connectorJob({ account, text: 'Counted?' }));
      const err = await networkError(bluesky.postInsights(account, published.externalId), 'bluesky_unavailable');
      expect(err.message).toContain('has no Bluesky AppView');
      expect(err.hint).toMatch(/not available/);
      await networkError(bluesky.accountInsights(account), 'bluesky_unavailable');
    });
  });
});

describe('an upload cut while it is sent', () => {
  // A server refusing an upload on its headers may close before its answer is read (as the PDS above does, most
  // runs): this one always does, and answers only the headers sent again with `Expect: 100-continue`.
  async function cutUpload(status: number, body: object) {
    let asked = 0;
    const server = http.createServer((req) => req.socket.destroy());
    server.on('checkContinue', (_req, res) => {
      asked += 1;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const agent = agentOn(`http://127.0.0.1:${port}`, { allowHosts: ['127.0.0.1'], httpForExempt: true });
      const size = 8 * 1024 * 1024;
      const file = Readable.from([Buffer.alloc(size)]) as unknown as Blob;
      const err = await agent.com.atproto.repo
        .uploadBlob(file, { encoding: 'video/mp4', headers: { 'content-length': String(size) } })
        .catch((e: unknown) => e as XRPCError);
      expect(err).toBeInstanceOf(Error);
      return { err: err as XRPCError, asked };
    } finally {
      server.close();
    }
  }

  it('reads the refusal from the headers alone: the server’s 413 in its words, not a cut connection', async () => {
    const { err, asked } = await cutUpload(413, { error: 'PayloadTooLarge', message: 'request entity too large' });
    expect(statusOf(err)).toBe(413);
    expect(err.message).toBe('request entity too large');
    expect(asked).toBe(1);
  });

  it('keeps the cut connection when the server only refuses headers that come without their file', async () => {
    const { err, asked } = await cutUpload(417, { error: 'ExpectationFailed', message: 'Expectation Failed' });
    expect(refusal(err, Date.now())).toMatchObject({ code: 'bluesky_unavailable' });
    expect(err.message).toMatch(/could not be reached/);
    expect(asked).toBe(1);
  });
});
