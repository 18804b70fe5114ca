// The publishes TikTok keeps: checked at their init, then processed and moderated until the post exists.
import type { Request } from 'express';
import { randomBase62 } from '../../../domain/ids.ts';
import { mediaDir, type StoredFile } from '../../sandbox/files.ts';
import type { SimulatorContext } from '../../sandbox/simulator.ts';
import type { SandboxItem } from '../../sandbox/state.ts';
import { creatorFor, creatorOf, type Creator } from './creator.ts';
import { FAULTS, SCENARIO_FAULTS } from './faults.ts';
import { HOUR, LIMITS } from './limits.ts';
import { int64 } from './wire.ts';

export interface PublishData extends Record<string, unknown> {
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

export interface PostData extends Record<string, unknown> {
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

const bool = (v: unknown) => v === true;

/** What every route group uses: the context, the folder of the files, who a call is for, and the publishes' steps. */
export function tiktokSim(ctx: SimulatorContext) {
  const dir = mediaDir(ctx, 'tiktok');

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

  return {
    ctx,
    dir,
    creatorFor: (req: Request, scope: string) => creatorFor(ctx, req, scope),
    statusOf,
    checkPostInfo,
    admit,
    newPublish,
    reviewUntil,
  };
}

export type TiktokSim = ReturnType<typeof tiktokSim>;
