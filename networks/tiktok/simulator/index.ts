// TikTok's Content Posting API as the sandbox simulates it, written from TikTok's documentation
// (developers.tiktok.com/doc/content-posting-api-*) and never from Herald's rules: the envelope
// `{data, error: {code, message, log_id}}`, creator_info, video/init with FILE_UPLOAD and chunked PUTs
// carrying Content-Range, content/init for photos pulled from their addresses, status/fetch, video/query,
// user/info, and a page per post. Each file is one part: reads, video uploads, photos, pages.
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
import express from 'express';
import type { Simulator, SimulatorContext } from '../../sandbox/simulator.ts';
import { tiktokConsent } from '../consent.ts';
import { sendFault } from './faults.ts';
import { pageRoutes } from './pages.ts';
import { photoRoutes } from './photos.ts';
import { tiktokSim } from './publishes.ts';
import { readRoutes } from './reads.ts';
import { videoRoutes } from './videos.ts';

export const tiktokSimulator: Simulator = {
  consent: tiktokConsent,
  router(ctx: SimulatorContext) {
    const router = express.Router();
    const sim = tiktokSim(ctx);
    router.use('/v2', express.json({ limit: '1mb' }));
    for (const routes of [readRoutes, videoRoutes, photoRoutes, pageRoutes]) routes(router, sim);
    router.use(sendFault);
    return router;
  },
};
