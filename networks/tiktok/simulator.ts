// TikTok's Content Posting API as the sandbox simulates it, written from TikTok's documentation
// (developers.tiktok.com/doc/content-posting-api-*) and never from Herald's rules: the envelope
// `{data, error: {code, message, log_id}}`, creator_info, video/init with FILE_UPLOAD and chunked PUTs
// carrying Content-Range, content/init for photos pulled from their addresses, status/fetch, video/query,
// user/info, and a page per post.
//
// Sandbox rules (each from TikTok's pages; networks/tiktok/FACTS.md names them):
// - The account is the one its token names; an account set expired or revoked answers 401
//   access_token_invalid.
// - What the account allows follows from its name: "private" makes the account private (it offers
//   FOLLOWER_OF_CREATOR and SELF_ONLY only), "unaudited" makes the app unaudited for it, "no comments"
//   switches comments off, "no duets" duets and stitches, and "review" makes moderation take two hours.
// - An unaudited app (content-sharing-guidelines): the account must be private at the time of posting
//   and the post SELF_ONLY, or the init answers 403 unaudited_client_can_only_post_to_private_accounts;
//   at most 5 accounts post through it in 24 hours, a sixth answers 403 reached_active_user_cap.
// - A post becomes PUBLISH_COMPLETE once processed (the sandbox's processing time). Only a
//   PUBLIC_TO_EVERYONE post is moderated (the processing time again, or two hours) and then named in
//   publicaly_available_post_id; any other post exists once complete and is never named (get-video-status).
//   Tests end a review early by setting the item's reviewUntilMs.
// - An upload_url lives an hour; a chunk PUT after that answers 403 (media-transfer guide). Tests
//   expire one early by setting the item's uploadExpiresMs.
// - Photos larger than 1080 by 1920 (either way round) fail with picture_size_check_failed.
// - Photos are pulled from their addresses on Herald's own origin (the sandbox's verified domain); any
//   other address answers 403 url_ownership_unverified.
// - `herald sandbox fail` answers at the next video/init or content/init: unavailable 500 internal_error,
//   rate_limited 429 rate_limit_exceeded, token_rejected 401 access_token_invalid, permission_missing
//   401 scope_not_authorized, quota_exceeded 403 spam_risk_too_many_posts, unverified 403
//   unaudited_client_can_only_post_to_private_accounts; rejected lets the post in, then fails it with
//   fail_reason file_format_check_failed.
import fs from 'node:fs';
import path from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';
import { escapeHtml } from '../../domain/html.ts';
import { loadSharp } from '../../media/sharp.ts';
import { randomBase62 } from '../../domain/ids.ts';
import { fetchMedia, mediaDir, type StoredFile } from '../sandbox/graph.ts';
import type { Simulator, SimulatorContext } from '../sandbox/simulator.ts';
import { grantOf } from '../sandbox/consent.ts';
import { sandboxTokenAccount, type SandboxItem, type Scenario } from '../sandbox/state.ts';
import { tiktokConsent } from './consent.ts';

const MB = 1024 * 1024;
const HOUR = 3600_000;
/** TikTok's own limits, from its reference pages. */
const LIMITS = {
  videoTitleUnits: 2200,
  photoTitleUnits: 90,
  photoDescriptionUnits: 4000,
  photos: { min: 1, max: 35 },
  chunk: { min: 5 * MB, max: 64 * MB, lastMax: 128 * MB, maxCount: 1000 },
  maxVideoSeconds: 600,
  longReviewMs: 2 * HOUR,
  /** An upload_url's life ([3RD]: TikTok's pages give none; a PUT after it answers 403). */
  uploadUrlMs: HOUR,
  /** Accounts an unaudited app may let post in 24 hours (content-sharing-guidelines). */
  unauditedUsers: 5,
  /** A photo's longest sides: 1080p, either way round. */
  photoSides: { short: 1080, long: 1920 },
  privacyLevels: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'],
};

class TiktokFault extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const FAULTS = {
  tokenInvalid: () =>
    new TiktokFault(401, 'access_token_invalid', 'The access token is invalid or not found in the request.'),
  scope: () =>
    new TiktokFault(
      401,
      'scope_not_authorized',
      'The user did not authorize the scope required for completing this request.',
    ),
  rate: () => new TiktokFault(429, 'rate_limit_exceeded', 'API rate limit exceeded, please retry later.'),
  spam: () =>
    new TiktokFault(
      403,
      'spam_risk_too_many_posts',
      'The daily post cap from the API is reached for the current user.',
    ),
  unaudited: () =>
    new TiktokFault(
      403,
      'unaudited_client_can_only_post_to_private_accounts',
      'Unaudited clients can only post to a private account.',
    ),
  userCap: () =>
    new TiktokFault(
      403,
      'reached_active_user_cap',
      'The daily quota for active publishing users from your client is reached.',
    ),
  mismatch: (level: string) =>
    new TiktokFault(
      400,
      'privacy_level_option_mismatch',
      `privacy_level ${level} is not among the creator's privacy_level_options.`,
    ),
  unverified: (url: string) =>
    new TiktokFault(403, 'url_ownership_unverified', `The domain of ${url} is not verified for this app.`),
  internal: () => new TiktokFault(500, 'internal_error', 'Something went wrong. Please try again later.'),
  param: (message: string) => new TiktokFault(400, 'invalid_param', message),
  notFound: () => new TiktokFault(404, 'invalid_publish_id', 'The publish_id does not exist.'),
};

const SCENARIO_FAULTS: Record<Exclude<Scenario, 'rejected'>, () => TiktokFault> = {
  unavailable: FAULTS.internal,
  rate_limited: FAULTS.rate,
  token_rejected: FAULTS.tokenInvalid,
  permission_missing: FAULTS.scope,
  quota_exceeded: FAULTS.spam,
  unverified: FAULTS.unaudited,
};

interface Creator {
  id: string;
  name: string;
  username: string;
  audited: boolean;
  /** The account is set to private in TikTok. */
  privateAccount: boolean;
  privacyOptions: string[];
  commentDisabled: boolean;
  duetDisabled: boolean;
  longReview: boolean;
}

interface PublishData extends Record<string, unknown> {
  mediaType: 'VIDEO' | 'PHOTO';
  postInfo: Record<string, unknown>;
  username: string;
  nickname: string;
  size: number;
  chunkSize: number;
  chunks: number;
  received: number;
  uploadToken: string;
  /** When the upload_url stops taking chunks. */
  uploadExpiresMs?: number;
  /** When the last byte (video) or the last photo (photos) arrived. */
  readyMs?: number;
  files: StoredFile[];
  failReason?: string;
  reviewUntilMs?: number;
  postId?: string;
}

interface PostData extends Record<string, unknown> {
  publishId: string;
  mediaType: 'VIDEO' | 'PHOTO';
  username: string;
  nickname: string;
  title: string;
  description: string;
  privacy: string;
  files: StoredFile[];
  views: number;
}

/** TikTok's ids are 64-bit numbers on the wire, past what a JSON number keeps exactly in JavaScript. */
const int64 = (id: string) => `int64:${id}`;

const envelope = (res: Response, data: object) =>
  res
    .type('json')
    .send(
      JSON.stringify({ data, error: { code: 'ok', message: '', log_id: randomBase62(20) } }).replace(
        /"int64:(\d+)"/g,
        '$1',
      ),
    );

/** A route answering TikTok's envelope with what `work` finds; refusals go to the router's error handler. */
const handle = (work: (req: Request) => Promise<object>) => async (req: Request, res: Response, next: NextFunction) => {
  try {
    envelope(res, await work(req));
  } catch (err) {
    next(err);
  }
};

function creatorOf(id: string, name: string): Creator {
  return {
    id,
    name,
    username: name.toLowerCase().replace(/[^a-z0-9_.]/g, '') || id,
    audited: !/unaudited/i.test(name),
    privateAccount: /private/i.test(name),
    privacyOptions: /private/i.test(name) ? ['FOLLOWER_OF_CREATOR', 'SELF_ONLY'] : LIMITS.privacyLevels,
    commentDisabled: /no ?comments/i.test(name),
    duetDisabled: /no ?duets/i.test(name),
    longReview: /review/i.test(name),
  };
}

const bool = (v: unknown) => v === true;

/** A photo within 1080p, either way round. */
async function within1080p(file: string): Promise<boolean> {
  const sharp = await loadSharp();
  const { width = 0, height = 0, orientation = 1 } = await sharp(file).metadata();
  const [w, h] = orientation >= 5 ? [height, width] : [width, height];
  return Math.min(w, h) <= LIMITS.photoSides.short && Math.max(w, h) <= LIMITS.photoSides.long;
}

export const tiktokSimulator: Simulator = {
  consent: tiktokConsent,
  router(ctx: SimulatorContext) {
    const router = express.Router();
    const dir = mediaDir(ctx, 'tiktok');

    /** The creator the request's token names; refuses other tokens and those of expired or revoked accounts. */
    /** The creator a call's token is for, when its consent granted `scope`, the one the endpoint needs. */
    async function creatorFor(req: Request, scope: string): Promise<Creator> {
      const token = /^Bearer (\S+)$/.exec(req.get('Authorization') ?? '')?.[1] ?? '';
      const id = sandboxTokenAccount(token, 'access') ?? (token.startsWith('sandbox-') ? token : undefined);
      if (!id) throw FAULTS.tokenInvalid();
      const account = await ctx.state.account(id);
      if (account && account.tokens !== 'ok') throw FAULTS.tokenInvalid();
      // Each endpoint names its scope; posting's need video.publish: "The target TikTok user must have authorized your
      // app for the video.publish scope" (https://developers.tiktok.com/doc/content-posting-api-get-started, read
      // 2026-11-29). A token without a consent here (`herald account add-sandbox`) holds every scope.
      const grant = await grantOf(ctx, token);
      if (grant && !grant.data.scope.split(',').includes(scope)) throw FAULTS.scope();
      return creatorOf(id, account?.name ?? id);
    }

    /** What the publish's status is now: uploading, processing, refused, in review, or named. */
    async function statusOf(item: SandboxItem<PublishData>) {
      const d = item.data;
      const base = { uploaded_bytes: d.received, fail_reason: '', publicaly_available_post_id: [] as string[] };
      const processing = d.mediaType === 'VIDEO' ? 'PROCESSING_UPLOAD' : 'PROCESSING_DOWNLOAD';
      if (d.readyMs === undefined || Date.now() < d.readyMs + ctx.processingMs) return { ...base, status: processing };
      if (d.failReason) return { ...base, status: 'FAILED', fail_reason: d.failReason };
      if (d.reviewUntilMs !== undefined && Date.now() < d.reviewUntilMs) return { ...base, status: 'PUBLISH_COMPLETE' };
      const postId = d.postId ?? (await publishPost(item));
      // Only a post made for public viewing is named, once moderated; a private one never is.
      const named = d.postInfo.privacy_level === 'PUBLIC_TO_EVERYONE';
      return { ...base, status: 'PUBLISH_COMPLETE', publicaly_available_post_id: named ? [int64(postId)] : [] };
    }

    /** Moderation passed: the post exists from now on, once whatever the number of status calls. */
    async function publishPost(item: SandboxItem<PublishData>): Promise<string> {
      const d = item.data;
      const postId = String(7_300_000_000_000_000_000n + BigInt(Math.floor(Math.random() * 1e15)));
      const taken = await ctx
        .db('sandbox_items')
        .where({ id: item.id, network: 'tiktok', status: 'processing' })
        .update({ data: JSON.stringify({ ...d, postId }), status: 'published' });
      if (!taken) return (await ctx.state.get<PublishData>(item.id))!.data.postId!;
      await ctx.state.create<PostData>({
        id: postId,
        account: item.account,
        kind: 'post',
        status: 'published',
        publishedMs: Date.now(),
        data: {
          publishId: item.id,
          mediaType: d.mediaType,
          username: d.username,
          nickname: d.nickname,
          title: String(d.postInfo.title ?? ''),
          description: String(d.postInfo.description ?? ''),
          privacy: String(d.postInfo.privacy_level),
          files: d.files,
          views: 0,
        },
      });
      return postId;
    }

    /**
     * An unaudited app: the account must be private and the post SELF_ONLY, and at most 5 accounts post
     * through the app in 24 hours (an account that posted within them keeps its place).
     */
    async function checkUnaudited(creator: Creator, level: string): Promise<void> {
      if (creator.audited) return;
      if (!creator.privateAccount || level !== 'SELF_ONLY') throw FAULTS.unaudited();
      const since = new Date(Date.now() - 24 * HOUR).toISOString();
      const rows: { account: string; name: string }[] = await ctx
        .db('sandbox_items as i')
        .join('sandbox_accounts as a', function () {
          this.on('a.id', '=', 'i.account').andOn('a.network', '=', 'i.network');
        })
        .where({ 'i.network': 'tiktok', 'i.kind': 'publish' })
        .where('i.created_at', '>', since)
        .distinct('i.account as account', 'a.name as name');
      const posters = new Set(rows.filter((r) => !creatorOf(r.account, r.name).audited).map((r) => r.account));
      if (!posters.has(creator.id) && posters.size >= LIMITS.unauditedUsers) throw FAULTS.userCap();
    }

    /** post_info as TikTok checks it: the privacy level against the app's audit and the creator's options. */
    async function checkPostInfo(creator: Creator, info: Record<string, unknown>, titleMax: number): Promise<void> {
      const level = String(info.privacy_level ?? '');
      if (!LIMITS.privacyLevels.includes(level)) throw FAULTS.param(`privacy_level ${level || '(none)'} is not valid.`);
      await checkUnaudited(creator, level);
      if (!creator.privacyOptions.includes(level)) throw FAULTS.mismatch(level);
      if (bool(info.brand_content_toggle) && level === 'SELF_ONLY')
        throw FAULTS.param('Branded content cannot be posted with privacy_level SELF_ONLY.');
      if (String(info.title ?? '').length > titleMax) throw FAULTS.param(`title is longer than ${titleMax} runes.`);
    }

    /** A publishing call's admission: a queued failure answers here; `rejected` fails the post later. */
    async function admit(creator: Creator): Promise<string | undefined> {
      const scenario = await ctx.state.takeFailure(creator.id);
      if (scenario === 'rejected') return 'file_format_check_failed';
      if (scenario) throw SCENARIO_FAULTS[scenario]();
      return undefined;
    }

    function newPublish(
      creator: Creator,
      kind: 'file' | 'url',
      data: Omit<PublishData, 'username' | 'nickname' | 'uploadToken'>,
    ): Promise<SandboxItem<PublishData>> {
      return ctx.state.create<PublishData>({
        id: `v_pub_${kind}~v2-1.${ctx.state.newId()}`,
        account: creator.id,
        kind: 'publish',
        status: 'processing',
        data: {
          ...data,
          username: creator.username,
          nickname: creator.name,
          uploadToken: randomBase62(24),
        } as PublishData,
      });
    }

    // Only a post made for public viewing goes through moderation (get-video-status).
    const reviewUntil = (creator: Creator, info: Record<string, unknown>, readyMs: number) =>
      info.privacy_level !== 'PUBLIC_TO_EVERYONE'
        ? undefined
        : readyMs + ctx.processingMs + (creator.longReview ? LIMITS.longReviewMs : ctx.processingMs);

    router.use('/v2', express.json({ limit: '1mb' }));

    router.post(
      '/v2/post/publish/creator_info/query/',
      handle(async (req) => {
        const c = await creatorFor(req, 'video.publish');
        return {
          creator_avatar_url: `${ctx.base}/avatar/${encodeURIComponent(c.id)}.svg`,
          creator_username: c.username,
          creator_nickname: c.name,
          privacy_level_options: c.privacyOptions,
          comment_disabled: c.commentDisabled,
          duet_disabled: c.duetDisabled,
          stitch_disabled: c.duetDisabled,
          max_video_post_duration_sec: LIMITS.maxVideoSeconds,
        };
      }),
    );

    router.post(
      '/v2/post/publish/video/init/',
      handle(async (req) => {
        const creator = await creatorFor(req, 'video.publish');
        const { post_info: info = {}, source_info: source = {} } = req.body ?? {};
        await checkPostInfo(creator, info, LIMITS.videoTitleUnits);
        if (source.source !== 'FILE_UPLOAD') throw FAULTS.param('The sandbox simulates source FILE_UPLOAD for videos.');
        const size = Number(source.video_size);
        const chunkSize = Number(source.chunk_size);
        const chunks = Number(source.total_chunk_count);
        const { chunk } = LIMITS;
        if (!Number.isSafeInteger(size) || size <= 0) throw FAULTS.param('video_size must be the size in bytes.');
        if (
          size < chunk.min
            ? chunkSize !== size || chunks !== 1
            : chunkSize < chunk.min || chunkSize > Math.min(size, chunk.max)
        )
          throw FAULTS.param('chunk_size must be 5 MB to 64 MB, or the whole file when it is under 5 MB.');
        if (chunks !== Math.floor(size / chunkSize) || chunks > chunk.maxCount)
          throw FAULTS.param('total_chunk_count must be floor(video_size / chunk_size), at most 1000.');
        if (size - (chunks - 1) * chunkSize > chunk.lastMax)
          throw FAULTS.param('The last chunk may be at most 128 MB.');
        const failReason = await admit(creator);
        const item = await newPublish(creator, 'file', {
          mediaType: 'VIDEO',
          postInfo: info,
          size,
          chunkSize,
          chunks,
          received: 0,
          files: [],
          uploadExpiresMs: Date.now() + LIMITS.uploadUrlMs,
          ...(failReason ? { failReason } : {}),
        });
        return {
          publish_id: item.id,
          upload_url:
            `${ctx.base}/upload/?upload_id=${encodeURIComponent(item.id)}` + `&upload_token=${item.data.uploadToken}`,
        };
      }),
    );

    // The upload_url: the upload_token is its credential, as on TikTok; chunks arrive in order.
    router.put('/upload/', async (req, res, next) => {
      try {
        const item = await ctx.state.get<PublishData>(String(req.query.upload_id ?? ''));
        if (!item || item.data.uploadToken !== req.query.upload_token || item.data.mediaType !== 'VIDEO') {
          req.resume();
          throw new TiktokFault(404, 'upload_not_found', 'The upload_url is not valid.');
        }
        const d = item.data;
        if (d.uploadExpiresMs !== undefined && Date.now() > d.uploadExpiresMs) {
          req.resume();
          throw new TiktokFault(403, 'upload_url_expired', 'The upload_url has expired.');
        }
        const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(req.get('Content-Range') ?? '');
        const [first, last, total] = range ? [Number(range[1]), Number(range[2]), Number(range[3])] : [NaN, NaN, NaN];
        const index = Math.floor(first / d.chunkSize);
        const expectedLast = index === d.chunks - 1 ? d.size - 1 : first + d.chunkSize - 1;
        if (!range || total !== d.size || first % d.chunkSize !== 0 || index >= d.chunks || last !== expectedLast) {
          req.resume();
          throw new TiktokFault(416, 'invalid_range', 'Content-Range does not name a chunk of this upload.');
        }
        if (first > d.received) {
          req.resume();
          throw new TiktokFault(416, 'invalid_range', 'Chunks must be uploaded in order.');
        }
        if (first < d.received) {
          // A chunk sent again (a resumed upload): TikTok holds it already.
          req.resume();
          return res.status(d.received === d.size ? 201 : 206).end();
        }
        fs.mkdirSync(dir, { recursive: true });
        const name = d.files[0]?.name ?? `upload-${randomBase62(16)}.mp4`;
        const file = fs.createWriteStream(path.join(dir, name), { flags: first === 0 ? 'w' : 'a' });
        let bytes = 0;
        for await (const part of req as AsyncIterable<Buffer>) {
          bytes += part.length;
          if (!file.write(part)) await new Promise<void>((resolve) => file.once('drain', () => resolve()));
        }
        await new Promise<void>((resolve) => file.end(() => resolve()));
        if (bytes !== last - first + 1) throw FAULTS.param('The body is not as long as its Content-Range.');
        const received = last + 1;
        await ctx.state.update<PublishData>(item.id, {
          data: {
            ...d,
            received,
            files: [{ kind: 'video', mime: 'video/mp4', name }],
            ...(received === d.size
              ? {
                  readyMs: Date.now(),
                  reviewUntilMs: reviewUntil(creatorOf(item.account, d.nickname), d.postInfo, Date.now()),
                }
              : {}),
          },
        });
        res.status(received === d.size ? 201 : 206).end();
      } catch (err) {
        next(err);
      }
    });

    router.post(
      '/v2/post/publish/content/init/',
      handle(async (req) => {
        const creator = await creatorFor(req, 'video.publish');
        const { post_info: info = {}, source_info: source = {}, media_type, post_mode } = req.body ?? {};
        if (media_type !== 'PHOTO' || post_mode !== 'DIRECT_POST')
          throw FAULTS.param('The sandbox simulates media_type PHOTO with post_mode DIRECT_POST.');
        await checkPostInfo(creator, info, LIMITS.photoTitleUnits);
        if (String(info.description ?? '').length > LIMITS.photoDescriptionUnits)
          throw FAULTS.param(`description is longer than ${LIMITS.photoDescriptionUnits} runes.`);
        const urls: unknown[] = Array.isArray(source.photo_images) ? source.photo_images : [];
        if (source.source !== 'PULL_FROM_URL' || urls.length < LIMITS.photos.min || urls.length > LIMITS.photos.max)
          throw FAULTS.param('source_info needs source PULL_FROM_URL and 1 to 35 photo_images.');
        for (const url of urls) {
          let origin: string | undefined;
          try {
            origin = new URL(String(url)).origin;
          } catch {
            origin = undefined;
          }
          if (origin !== new URL(ctx.appUrl).origin) throw FAULTS.unverified(String(url));
        }
        let failReason = await admit(creator);
        const files: StoredFile[] = [];
        for (const url of urls) {
          const file = await fetchMedia(ctx, 'tiktok', String(url), 'image');
          if (typeof file === 'string') failReason ??= 'photo_pull_failed';
          else if (!['image/jpeg', 'image/webp'].includes(file.mime)) failReason ??= 'file_format_check_failed';
          else if (!(await within1080p(path.join(dir, file.name)))) failReason ??= 'picture_size_check_failed';
          else files.push(file);
        }
        const readyMs = Date.now();
        const item = await newPublish(creator, 'url', {
          mediaType: 'PHOTO',
          postInfo: info,
          size: 0,
          chunkSize: 0,
          chunks: 0,
          received: 0,
          files,
          readyMs,
          reviewUntilMs: reviewUntil(creator, info, readyMs),
          ...(failReason ? { failReason } : {}),
        });
        return { publish_id: item.id };
      }),
    );

    router.post(
      '/v2/post/publish/status/fetch/',
      handle(async (req) => {
        const creator = await creatorFor(req, 'video.publish');
        const item = await ctx.state.get<PublishData>(String(req.body?.publish_id ?? ''));
        if (!item || item.kind !== 'publish' || item.account !== creator.id) throw FAULTS.notFound();
        return statusOf(item);
      }),
    );

    router.post(
      '/v2/video/query/',
      handle(async (req) => {
        const creator = await creatorFor(req, 'video.list');
        const ids: unknown[] = req.body?.filters?.video_ids ?? [];
        if (!Array.isArray(ids) || ids.length > 20) throw FAULTS.param('filters.video_ids takes 1 to 20 ids.');
        const posts = await Promise.all(ids.map((id) => ctx.state.get<PostData>(String(id))));
        return {
          videos: posts
            .filter((p): p is SandboxItem<PostData> => p?.kind === 'post' && p.account === creator.id)
            .map((p) => ({
              id: int64(p.id),
              view_count: p.data.views,
              like_count: 0,
              comment_count: 0,
              share_count: 0,
            })),
          cursor: 0,
          has_more: false,
        };
      }),
    );

    router.get(
      '/v2/user/info/',
      handle(async (req) => {
        const creator = await creatorFor(req, 'user.info.basic');
        const posts = await ctx.state.list<PostData>(creator.id, 'post', 100_000);
        return {
          user: {
            open_id: creator.id,
            display_name: creator.name,
            avatar_url: `${ctx.base}/avatar/${encodeURIComponent(creator.id)}.svg`,
            follower_count: 0,
            following_count: 0,
            likes_count: 0,
            video_count: posts.length,
          },
        };
      }),
    );

    router.get('/avatar/:id.svg', (req, res) => {
      const letter = escapeHtml(String(req.params.id).slice(-1).toUpperCase());
      res
        .type('image/svg+xml')
        .send(
          '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64">' +
            '<circle cx="32" cy="32" r="32" fill="#111"/>' +
            `<text x="32" y="42" font-size="28" text-anchor="middle" fill="#fff">${letter}</text></svg>`,
        );
    });

    router.get('/files/:name', (req, res) => {
      res.sendFile(path.join(dir, path.basename(String(req.params.name))), (err) => {
        if (err && !res.headersSent) res.status(404).type('text/plain').send('No such file.');
      });
    });

    // The creator's profile: where a post TikTok never named (a private one) is found.
    router.get('/@:username', async (req, res) => {
      const username = String(req.params.username);
      const rows = await ctx
        .db('sandbox_items')
        .where({ network: 'tiktok', kind: 'post' })
        .orderBy('created_at', 'desc')
        .limit(1000)
        .select('id', 'data');
      const posts = rows
        .map((r: { id: string; data: string }) => ({ id: r.id, data: JSON.parse(r.data) as PostData }))
        .filter((p) => p.data.username === username);
      if (!posts.length)
        return res
          .status(404)
          .type('html')
          .send('<!doctype html><meta charset="utf-8"><p>Couldn\'t find this account.</p>');
      const items = posts
        .map(
          (p) =>
            `<li data-id="${p.id}" data-privacy="${escapeHtml(p.data.privacy)}">` +
            `${escapeHtml(p.data.mediaType === 'VIDEO' ? p.data.title : p.data.description)}</li>`,
        )
        .join('\n');
      res.type('html').send(`<!doctype html>
<html lang="en"><meta charset="utf-8"><title>@${escapeHtml(username)} on TikTok (sandbox)</title>
<p class="sandbox">TikTok sandbox: this profile exists only in Herald's simulator.</p>
<h1>@${escapeHtml(username)}</h1>
<ul>
${items}
</ul>
</html>`);
    });

    router.get('/@:username/:kind/:id', async (req, res) => {
      const post = await ctx.state.get<PostData>(String(req.params.id));
      const kind = post?.data.mediaType === 'VIDEO' ? 'video' : 'photo';
      if (!post || post.kind !== 'post' || req.params.kind !== kind || req.params.username !== post.data.username)
        return res
          .status(404)
          .type('html')
          .send('<!doctype html><meta charset="utf-8"><p>Video currently unavailable.</p>');
      await ctx.state.update<PostData>(post.id, { data: { ...post.data, views: post.data.views + 1 } });
      const media = post.data.files
        .map((f) =>
          f.kind === 'video'
            ? `<video src="${ctx.base}/files/${f.name}" controls playsinline></video>`
            : `<img src="${ctx.base}/files/${f.name}" alt="">`,
        )
        .join('\n');
      res.type('html').send(`<!doctype html>
<html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(post.data.nickname)} on TikTok (sandbox)</title>
<style>body{font:16px/1.4 system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem}
video,img{max-width:100%;display:block;margin:.5rem 0}.sandbox{color:#a40;font-size:.8em}</style>
<p class="sandbox">TikTok sandbox: this post exists only in Herald's simulator.</p>
<article data-network="tiktok" data-id="${post.id}" data-privacy="${escapeHtml(post.data.privacy)}">
<p><strong>${escapeHtml(post.data.nickname)}</strong> @${escapeHtml(post.data.username)}</p>
${media}
${post.data.mediaType === 'PHOTO' && post.data.title ? `<h1>${escapeHtml(post.data.title)}</h1>` : ''}
<p>${escapeHtml(post.data.mediaType === 'VIDEO' ? post.data.title : post.data.description)}</p>
</article>
</html>`);
    });

    // TikTok's envelope for every refusal; anything else is the simulator's own fault, answered as TikTok's.
    router.use((err: Error & { type?: string }, _req: Request, res: Response, next: NextFunction) => {
      if (res.headersSent) return next(err);
      const fault =
        err instanceof TiktokFault
          ? err
          : err.type === 'entity.parse.failed'
            ? FAULTS.param('The request body is not JSON.')
            : FAULTS.internal();
      res.status(fault.status).json({ error: { code: fault.code, message: fault.message, log_id: randomBase62(20) } });
    });
    return router;
  },
};
