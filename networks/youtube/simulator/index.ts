// The YouTube simulator: the Data API v3 on its own wire format (resumable upload sessions, thumbnails,
// playlists, statistics, the channel and its uploads playlist), Google's token endpoint, and a watch
// page per video. Calls and their answers follow YouTube's documentation
// (https://developers.google.com/youtube/v3/docs); what the sandbox decides on its own is said where it
// is decided. Each file is one of the API's steps: uploads, thumbnails, playlists, reads, watch pages.
//
// Sandbox rules:
// - The channel is the account the token names (`sandboxToken`); any other `sandbox-` token is a
//   channel of its own. Tokens of an account the simulator knows as expired or revoked are refused
//   (401 authError).
// - Quota: 100 videos.insert calls per channel per Pacific day answer 429 rateLimitExceeded on the
//   "Video Uploads per day" bucket (today's era); a queued `quota_exceeded` answers the older 403
//   quotaExceeded, so the connector meets both. 50 finished uploads per channel in 24 hours answer
//   400 uploadLimitExceeded (YouTube's per-channel cap; its real number is not published).
// - A channel is unverified when its name on the network contains "unverified": thumbnails.set
//   then answers 403 forbidden. A queued `unverified` failure makes the next upload end as YouTube
//   ends an unverified channel's over-long upload: the video comes back rejected (rejectionReason
//   length). YouTube decides that while processing; the simulator decides it at once.
// - Every call that can publish (the session start and each PUT that carries bytes) takes a queued
//   failure. On a PUT, `unavailable` keeps half of that body and then drops the connection, as a
//   broken link does; the other scenarios answer their error bodies.
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Simulator } from '../../sandbox/simulator.ts';
import { youtubeConsent } from '../consent.ts';
import { readRoutes, tokenRoutes, youtubeSim } from './channel.ts';
import { fault, FAULTS, sendFault, YoutubeFault } from './faults.ts';
import { playlistRoutes } from './playlists.ts';
import { thumbnailRoutes } from './thumbnails.ts';
import { uploadRoutes } from './uploads.ts';
import { watchRoutes } from './watch.ts';

export const youtubeSimulator: Simulator = {
  consent: youtubeConsent,
  router(ctx) {
    const router = express.Router();
    const sim = youtubeSim(ctx);
    for (const routes of [uploadRoutes, thumbnailRoutes, readRoutes, playlistRoutes, tokenRoutes, watchRoutes])
      routes(router, sim);

    // YouTube's error body for every refusal; anything else is the simulator's own fault, answered as YouTube's.
    router.use((err: Error & { type?: string }, _req: Request, res: Response, next: NextFunction) => {
      if (res.headersSent) return next(err);
      if (err instanceof YoutubeFault) return sendFault(res, err.fault, err.extra);
      if (err.type === 'entity.parse.failed') return sendFault(res, fault(400, 'parseError', 'Parse Error', 'global'));
      return sendFault(res, FAULTS.internalError);
    });
    return router;
  },
};
