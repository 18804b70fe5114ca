// The reads: what the creator allows, a publish's status, the posts' counts and the user's info.
import type { Router } from 'express';
import type { SandboxItem } from '../../sandbox/state.ts';
import { FAULTS } from './faults.ts';
import { LIMITS } from './limits.ts';
import type { PostData, PublishData, TiktokSim } from './publishes.ts';
import { handle, int64 } from './wire.ts';

export function readRoutes(router: Router, sim: TiktokSim): void {
  const { ctx, creatorFor, statusOf } = sim;

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
}
