// The TikTok connector (Content Posting API, direct post): creator_info before each post, then a video
// through video/init with FILE_UPLOAD (upload.ts) or a photo carousel through content/init (TikTok pulls
// the photos from their signed addresses), then status/fetch until TikTok names the post. A public post
// waits for TikTok's moderation, which can take hours: the attempt then ends with NotYetPublished and the
// worker asks again later, from the checkpoint's publish_id, never sending the post twice.
// https://developers.tiktok.com/doc/content-posting-api-reference-direct-post
import type { Config } from '../../runtime/config.ts';
import { refreshGrant } from '../accountCredentials.ts';
import {
  checkpointed,
  NetworkError,
  NotYetPublished,
  type AppUsage,
  type CheckpointedAttempt,
  type Connector,
  type ConnectorAccount,
  type ConnectorModule,
  type PublishJob,
  type Published,
} from '../connector.ts';
import { ConnectionLost, FAIL_REASONS, tiktokApi, type TiktokApi } from './api.ts';
import { creatorIssues, creatorOptions, unauditedStanding, type CreatorInfo } from './creatorChecks.ts';
import { postKind, privateAudience } from './rules.ts';
import { chunkPlan, chunkReached, sendChunks } from './upload.ts';

const MINUTE = 60_000;
/**
 * The largest photo TikTok takes: 1080p, either way round (the media-transfer guide's image restrictions,
 * read 2026-11-29; third-party guides give 1080 by 1920). Larger ones are scaled down.
 */
const PHOTO_BOX = { short: 1080, long: 1920 };
/** How long one attempt polls status/fetch before it leaves the rest to later checks. */
const POLL_BUDGET_MS = 3 * MINUTE;
/** Waits between status/fetch calls: TikTok allows 30 a minute per token, so never under 2 seconds. */
const POLL_WAITS_MS = [2000, 3000, 5000, 10_000, 15_000, 30_000];
/**
 * After this long in review a public post stops being asked about: TikTok names most posts within hours,
 * and one it completed but never named is on the creator's profile all the same.
 */
const REVIEW_LIMIT_MS = 7 * 24 * 60 * MINUTE;

/** What an attempt records, in this order. */
type TiktokCheckpoint = {
  /** The creator's @username (for the post's address), from creator_info. */
  username?: string;
  /** Saved before the init call: from here a photo post may exist on TikTok without our knowing its id. */
  initAt?: string;
  publishId?: string;
  uploadUrl?: string;
  chunkSize?: number;
  chunks?: number;
  /** Chunks TikTok took so far. */
  sent?: number;
  uploaded?: boolean;
  /** When the attempt first found the post in TikTok's review. */
  reviewSince?: string;
};

interface PublishStatus {
  status: 'PROCESSING_UPLOAD' | 'PROCESSING_DOWNLOAD' | 'SEND_TO_USER_INBOX' | 'PUBLISH_COMPLETE' | 'FAILED';
  fail_reason?: string;
  /** TikTok's spelling. */
  publicaly_available_post_id?: string[];
  uploaded_bytes?: number;
}

const attemptOf = (job: PublishJob) => checkpointed<TiktokCheckpoint>(job);
type Attempt = CheckpointedAttempt<TiktokCheckpoint>;

export const creatorInfo = (api: TiktokApi, account: ConnectorAccount) =>
  api.post<CreatorInfo>(account, '/v2/post/publish/creator_info/query/', {});

/** creator_info as plans read it: a few minutes old at most (TikTok allows 20 calls a minute per token). */
const PLAN_INFO_MS = 5 * MINUTE;
const planInfo = new Map<string, { at: number; info: CreatorInfo }>();

async function cachedCreatorInfo(api: TiktokApi, account: ConnectorAccount): Promise<CreatorInfo> {
  const cached = planInfo.get(account.id);
  if (cached && api.clock.now() - cached.at < PLAN_INFO_MS) return cached.info;
  const info = await creatorInfo(api, account);
  planInfo.set(account.id, { at: api.clock.now(), info });
  return info;
}

/** post_info of both kinds: the person's choices, with what the account switched off kept off. */
function postInfo(job: PublishJob, creator: CreatorInfo) {
  const s = job.settings;
  return {
    privacy_level: s.privacyLevel,
    disable_comment: s.disableComment === true || creator.comment_disabled,
    brand_content_toggle: s.brandContent === true,
    brand_organic_toggle: s.brandOrganic === true,
    ...(s.isAigc === true ? { is_aigc: true } : {}),
  };
}

async function initVideo(api: TiktokApi, job: PublishJob, creator: CreatorInfo, attempt: Attempt): Promise<void> {
  const video = job.media[0]!;
  const plan = chunkPlan(video.size);
  const s = job.settings;
  const data = await api.post<{ publish_id: string; upload_url: string }>(job.account, '/v2/post/publish/video/init/', {
    post_info: {
      ...postInfo(job, creator),
      title: job.text,
      disable_duet: s.disableDuet === true || creator.duet_disabled,
      disable_stitch: s.disableStitch === true || creator.stitch_disabled,
      ...(typeof s.coverTimestampMs === 'number' ? { video_cover_timestamp_ms: s.coverTimestampMs } : {}),
    },
    source_info: {
      source: 'FILE_UPLOAD',
      video_size: video.size,
      chunk_size: plan.chunkSize,
      total_chunk_count: plan.chunks,
    },
  });
  await attempt.record({ publishId: data.publish_id, uploadUrl: data.upload_url, ...plan, sent: 0, uploaded: false });
}

async function initPhotos(api: TiktokApi, job: PublishJob, creator: CreatorInfo, attempt: Attempt): Promise<void> {
  const urls = await Promise.all(
    job.media.map((m) => m.publicUrl({ ...(m.mime === 'image/webp' ? {} : { format: 'jpeg' }), within: PHOTO_BOX })),
  );
  const data = await api.post<{ publish_id: string }>(job.account, '/v2/post/publish/content/init/', {
    media_type: 'PHOTO',
    post_mode: 'DIRECT_POST',
    post_info: {
      ...postInfo(job, creator),
      title: job.title ?? '',
      description: job.text,
      auto_add_music: job.settings.autoAddMusic === true,
    },
    source_info: { source: 'PULL_FROM_URL', photo_images: urls, photo_cover_index: 0 },
  });
  await attempt.record({ publishId: data.publish_id, uploaded: true });
}

const fetchStatus = (api: TiktokApi, job: PublishJob, publishId: string) =>
  api.post<PublishStatus>(job.account, '/v2/post/publish/status/fetch/', { publish_id: publishId });

/**
 * A post TikTok completed without naming it: live at the creator's profile. TikTok names only posts made
 * for public viewing, once moderated ("If the post was created for public viewership … developers are not
 * provided with the post_id until this process is complete", content-posting-api-reference-get-video-status,
 * read 2026-11-29); a private post (all of them until TikTok audits the app) is never named.
 */
function onProfile(api: TiktokApi, attempt: Attempt, shown: string, shownPrivately = false): Published {
  return {
    externalId: attempt.cp.publishId!,
    externalUrl: `${api.hosts.web}/@${attempt.cp.username}`,
    liveNote: shown,
    ...(shownPrivately ? { shownPrivately } : {}),
  };
}

const isPublic = (job: PublishJob) => job.settings.privacyLevel === 'PUBLIC_TO_EVERYONE';

/**
 * The post's address on TikTok once it has an id, or its creator's profile once a private post is complete;
 * undefined while TikTok processes the post or moderates a public one.
 */
function published(api: TiktokApi, job: PublishJob, attempt: Attempt, status: PublishStatus): Published | undefined {
  if (status.status === 'FAILED') {
    const reason = status.fail_reason || 'unknown';
    const words = FAIL_REASONS[reason];
    throw new NetworkError(
      'tiktok',
      reason === 'internal' ? 'unavailable' : 'rejected',
      `TikTok could not publish the post (${reason})${words ? `: ${words}` : '.'}`,
    );
  }
  if (status.status !== 'PUBLISH_COMPLETE') return undefined;
  const id = status.publicaly_available_post_id?.[0];
  if (id === undefined)
    return isPublic(job)
      ? undefined
      : onProfile(
          api,
          attempt,
          `TikTok shows it privately (visible to: ${privateAudience(job.settings.privacyLevel)}) and gives no ` +
            "link to it; it is on the creator's TikTok profile.",
          true,
        );
  const path = postKind(job.media) === 'video' ? 'video' : 'photo';
  return { externalId: String(id), externalUrl: `${api.hosts.web}/@${attempt.cp.username}/${path}/${id}` };
}

/** How long to wait before asking again about a post TikTok is reviewing: often at first, then less. */
function nextCheckMs(inReviewMs: number): number {
  if (inReviewMs < 10 * MINUTE) return MINUTE;
  if (inReviewMs < 60 * MINUTE) return 5 * MINUTE;
  return 15 * MINUTE;
}

/** Polls status/fetch within this attempt's budget; then leaves a post still under way to later checks. */
async function awaitPost(api: TiktokApi, job: PublishJob, attempt: Attempt): Promise<Published> {
  let waited = 0;
  for (let poll = 0; ; poll++) {
    const status = await fetchStatus(api, job, attempt.cp.publishId!);
    const done = published(api, job, attempt, status);
    if (done) return done;
    const wait = POLL_WAITS_MS[Math.min(poll, POLL_WAITS_MS.length - 1)]!;
    if (waited + wait <= POLL_BUDGET_MS) {
      await job.sleep(wait);
      waited += wait;
      continue;
    }
    const now = api.clock.now();
    const since = attempt.cp.reviewSince ?? new Date(now).toISOString();
    const inReview = now - Date.parse(since);
    // TikTok completed the post and still reviews it: it exists, so it is live (never failed, which would
    // invite posting it twice), on the creator's profile.
    if (inReview > REVIEW_LIMIT_MS && status.status === 'PUBLISH_COMPLETE')
      return onProfile(
        api,
        attempt,
        `TikTok took the post ${Math.round(inReview / (24 * 60 * MINUTE))} days ago and has not named it yet: ` +
          "it is on the creator's TikTok profile for whoever TikTok shows it to.",
      );
    if (inReview > REVIEW_LIMIT_MS)
      throw new NetworkError(
        'tiktok',
        'rejected',
        `TikTok took the post ${Math.round(inReview / (24 * 60 * MINUTE))} days ago and has not published it ` +
          `(status ${status.status}). Look for it in the TikTok app before posting it again.`,
      );
    if (!attempt.cp.reviewSince) await attempt.record({ reviewSince: since });
    throw new NotYetPublished(
      'tiktok',
      status.status === 'PUBLISH_COMPLETE'
        ? 'TikTok took the post and is reviewing it; Herald checks again by itself and marks it live once TikTok ' +
            'publishes it.'
        : `TikTok took the post and is still processing it (${status.status}); Herald checks again by itself.`,
      nextCheckMs(inReview),
    );
  }
}

/** The video's bytes from the chunk TikTok holds; a new upload when the upload_url has expired. */
async function uploadVideo(api: TiktokApi, job: PublishJob, creator: () => Promise<CreatorInfo>, attempt: Attempt) {
  const video = job.media[0]!;
  let from = 0;
  if (attempt.cp.publishId && attempt.cp.uploadUrl) {
    const status = await fetchStatus(api, job, attempt.cp.publishId);
    published(api, job, attempt, status);
    from = chunkReached(status.uploaded_bytes ?? 0, attempt.cp.chunkSize!, attempt.cp.chunks!);
  } else {
    await initVideo(api, job, await creator(), attempt);
  }
  const sent = (n: number) => attempt.record({ sent: n });
  const { uploadUrl, chunkSize, chunks } = attempt.cp as Required<TiktokCheckpoint>;
  if (!(await sendChunks(api, job, video, { uploadUrl, chunkSize, chunks }, from, sent))) {
    await initVideo(api, job, await creator(), attempt);
    const again = attempt.cp as Required<TiktokCheckpoint>;
    if (!(await sendChunks(api, job, video, again, 0, sent)))
      throw new NetworkError('tiktok', 'unavailable', 'TikTok refused the upload address it had just given.');
  }
  await attempt.record({ uploaded: true });
}

const photosUnknown = () =>
  new NetworkError(
    'tiktok',
    'rejected',
    'An earlier attempt sent the photos to TikTok and got no answer, and TikTok offers no way to ask whether ' +
      'that made the post. Look for it on the TikTok account, and retry only if it is not there.',
  );

/** An unaudited app's standing for the account; undefined once TikTok has audited the app. */
async function standing(info: CreatorInfo, account: ConnectorAccount, config: Config, usage: AppUsage) {
  if (config.tiktokAudited) return undefined;
  return unauditedStanding(info, account.externalId, await usage.recentPosters('tiktok'));
}

function tiktokConnector(api: TiktokApi): Connector {
  async function publish(job: PublishJob): Promise<Published> {
    const kind = postKind(job.media);
    if (!kind)
      throw new NetworkError(
        'tiktok',
        'rejected',
        'A TikTok post is one video or 2 to 35 photos, and this post is neither.',
      );
    const attempt = attemptOf(job);
    // creator_info before each post: what the account allows now, and its @username for the address.
    const creator = async () => {
      const info = await creatorInfo(api, job.account);
      if (!attempt.cp.initAt)
        await attempt.record({ username: info.creator_username, initAt: new Date(api.clock.now()).toISOString() });
      return info;
    };
    if (kind === 'video' && !attempt.cp.uploaded) await uploadVideo(api, job, creator, attempt);
    if (kind === 'photo' && !attempt.cp.publishId) {
      // An earlier content/init that got no answer may have made the post, and TikTok cannot be asked.
      if (attempt.cp.initAt) throw photosUnknown();
      try {
        await initPhotos(api, job, await creator(), attempt);
      } catch (err) {
        // TikTok answered with a refusal: no post was made, and the next attempt may send again.
        if (err instanceof NetworkError && !(err instanceof ConnectionLost) && attempt.cp.initAt)
          await attempt.record({ initAt: undefined });
        throw err;
      }
    }
    return awaitPost(api, job, attempt);
  }

  return {
    platform: 'tiktok',
    publish,
    async accountIssues(account, post, config, usage) {
      const info = await cachedCreatorInfo(api, account);
      return creatorIssues(info, post, await standing(info, account, config, usage));
    },
    async postingOptions(account, config, usage) {
      const info = await cachedCreatorInfo(api, account);
      return creatorOptions(info, await standing(info, account, config, usage));
    },

    async settle(job) {
      const attempt = attemptOf(job);
      if (!attempt.cp.publishId) {
        // A video's init alone makes no post (its bytes never arrived); a photo post starts at init.
        return postKind(job.media) === 'photo' && attempt.cp.initAt ? 'unknown' : 'not_published';
      }
      const status = await fetchStatus(api, job, attempt.cp.publishId);
      // Done, or refused (thrown); anything else is resumed by publishing from the checkpoint, which asks
      // TikTok by publish_id and sends only the chunks TikTok lacks.
      return published(api, job, attempt, status) ?? 'not_published';
    },

    refresh: (account) =>
      refreshGrant(
        'tiktok',
        account,
        (form) => api.send(`${api.hosts.api}/v2/oauth/token/`, { method: 'POST', body: form }),
        api.client ? { client_key: api.client.id, client_secret: api.client.secret } : {},
        api.clock,
      ),

    async postInsights(account, externalId) {
      // A post TikTok never named (a private one) keeps its publish_id, which video/query does not know.
      if (externalId.startsWith('v_pub_'))
        throw new NetworkError('tiktok', 'rejected', 'TikTok gives no counters for a post it shows privately.');
      const data = await api.post<{ videos?: Record<string, number | string>[] }>(
        account,
        '/v2/video/query/?fields=id,view_count,like_count,comment_count,share_count',
        { filters: { video_ids: [externalId] } },
      );
      const video = data.videos?.find((v) => String(v.id) === externalId);
      if (!video)
        throw new NetworkError('tiktok', 'rejected', `TikTok has no post ${externalId}: it was deleted or is private.`);
      return counters(video, {
        views: 'view_count',
        likes: 'like_count',
        comments: 'comment_count',
        shares: 'share_count',
      });
    },

    async accountInsights(account) {
      const data = await api.get<{ user?: Record<string, number> }>(
        account,
        '/v2/user/info/?fields=follower_count,following_count,likes_count,video_count',
      );
      return counters(data.user ?? {}, { followers: 'follower_count', likes: 'likes_count', videos: 'video_count' });
    },
  };
}

/** The counts TikTok reported; one it left out stays absent, not 0. */
function counters(stats: Record<string, unknown>, names: Record<string, string>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, field] of Object.entries(names)) if (stats[field] !== undefined) out[name] = Number(stats[field]);
  return out;
}

export const tiktokConnectorModule: ConnectorModule = {
  create: (ctx) => tiktokConnector(tiktokApi(ctx)),
  liveHosts: { api: 'https://open.tiktokapis.com', web: 'https://www.tiktok.com' },
  sandboxHosts: (base) => ({ api: base, web: base }),
  clientEnv: { id: 'TIKTOK_CLIENT_KEY', secret: 'TIKTOK_CLIENT_SECRET' },
};
