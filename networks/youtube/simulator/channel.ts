// Who a call is for: the channel its token names, as the network knows it (the simulator's own accounts,
// never Herald's), its counts for the upload limits, the reads of its videos and itself, and Google's
// token endpoint for refreshes.
import { createHash } from 'node:crypto';
import path from 'node:path';
import express, { type Request } from 'express';
import type { SimulatorContext } from '../../sandbox/simulator.ts';
import { sandboxTokenAccount, type SandboxItem } from '../../sandbox/state.ts';
import { issueToken, refreshRefusal } from '../../sandbox/tokens.ts';
import { fault, FAULTS, YoutubeFault } from './faults.ts';
import { etag, partsOf, uploadsPlaylistOf, videoResource, type Channel, type VideoData } from './resources.ts';

/** The simulator's context with the channel lookups every route group uses. */
export function youtubeSim(ctx: SimulatorContext) {
  const dir = path.join(ctx.dataDir, 'sandbox', 'youtube');

  /** The channel of the request's token; refuses other tokens and those of expired or revoked accounts. */
  async function channelOf(req: Request): Promise<Channel> {
    const token = /^Bearer (\S+)$/.exec(req.get('Authorization') ?? '')?.[1];
    if (!token?.startsWith('sandbox-'))
      throw new YoutubeFault(FAULTS.authError, { location: 'Authorization', locationType: 'header' });
    const id = sandboxTokenAccount(token, 'access') ?? token;
    const account = await ctx.state.account(id);
    if (account && account.tokens !== 'ok')
      throw new YoutubeFault(FAULTS.authError, { location: 'Authorization', locationType: 'header' });
    const name = account?.name ?? id;
    return { id, name, verified: !/unverified/i.test(name) };
  }

  /** Items of the channel created since `sinceMs`. */
  async function countItems(channel: string, kind: string, sinceMs: number): Promise<number> {
    const row = await ctx
      .db('sandbox_items')
      .where({ network: 'youtube', account: channel, kind })
      .where('created_at', '>=', new Date(sinceMs).toISOString())
      .count({ n: '*' })
      .first();
    return Number(row?.n ?? 0);
  }

  return {
    ctx,
    dir,
    channelOf,
    countItems,
    bytesFile: (session: string) => path.join(dir, session),
    thumbnailFile: (videoId: string) => path.join(dir, `thumbnail-${videoId}`),
  };
}

export type YoutubeSim = ReturnType<typeof youtubeSim>;

/** videos.list and channels.list. */
export function readRoutes(router: express.Router, { ctx, channelOf }: YoutubeSim): void {
  router.get('/youtube/v3/videos', async (req, res) => {
    const channel = await channelOf(req);
    const ids = String(req.query.id ?? '')
      .split(',')
      .filter(Boolean);
    const videos = (await Promise.all(ids.map((id) => ctx.state.get<VideoData>(id)))).filter(
      (v): v is SandboxItem<VideoData> =>
        v?.kind === 'video' && (v.data.status.privacyStatus !== 'private' || v.account === channel.id),
    );
    res.json({
      kind: 'youtube#videoListResponse',
      etag: etag(),
      items: videos.map((v) => videoResource(ctx.base, v, partsOf(req))),
      pageInfo: { totalResults: videos.length, resultsPerPage: videos.length },
    });
  });

  router.get('/youtube/v3/channels', async (req, res) => {
    const channel = await channelOf(req);
    if (req.query.mine !== 'true')
      throw new YoutubeFault(
        fault(
          400,
          'missingRequiredParameter',
          'The sandbox answers channels.list for mine=true only.',
          'youtube.parameter',
        ),
      );
    const parts = partsOf(req);
    const videos = await ctx.state.list<VideoData>(channel.id, 'video', 100_000);
    res.json({
      kind: 'youtube#channelListResponse',
      etag: etag(),
      pageInfo: { totalResults: 1, resultsPerPage: 1 },
      items: [
        {
          kind: 'youtube#channel',
          etag: etag(),
          id: channel.id,
          ...(parts.includes('snippet')
            ? { snippet: { title: channel.name, description: '', publishedAt: '2024-01-01T00:00:00Z' } }
            : {}),
          ...(parts.includes('contentDetails')
            ? { contentDetails: { relatedPlaylists: { likes: '', uploads: uploadsPlaylistOf(channel.id) } } }
            : {}),
          ...(parts.includes('statistics')
            ? {
                statistics: {
                  viewCount: String(videos.reduce((sum, v) => sum + v.data.views, 0)),
                  subscriberCount: '0',
                  hiddenSubscriberCount: false,
                  videoCount: String(videos.length),
                },
              }
            : {}),
          // longUploadsStatus tells a phone-verified channel ("allowed") from one that may verify ("eligible").
          ...(parts.includes('status')
            ? {
                status: {
                  privacyStatus: 'public',
                  isLinked: true,
                  longUploadsStatus: channel.verified ? 'allowed' : 'eligible',
                },
              }
            : {}),
        },
      ],
    });
  });
}

/**
 * A consent screen whose publishing status is "Testing" gives refresh tokens that expire after 7 days: third-party
 * reports only, the official page was not found on 2026-11-29 (networks/youtube/FACTS.md, row "Testing").
 */
export const TESTING_REFRESH_TOKEN_MS = 7 * 24 * 3600_000;

/**
 * When Google issued a refresh token, by Herald's clock: recorded at the code exchange, or at the first refresh of
 * one the consent page did not issue (`herald account add-sandbox`).
 */
export async function refreshTokenIssuedMs(ctx: SimulatorContext, account: string, token: string): Promise<number> {
  const id = `rt-${createHash('sha256').update(token).digest('hex').slice(0, 40)}`;
  const known = await ctx.state.get<{ issuedMs: number }>(id);
  if (known) return known.data.issuedMs;
  const issuedMs = ctx.clock.now();
  try {
    await ctx.state.create({ id, account, kind: 'refresh_token', status: 'ok', data: { issuedMs } });
  } catch (err) {
    // Two first refreshes at once: the other one recorded it.
    const recorded = await ctx.state.get<{ issuedMs: number }>(id);
    if (!recorded) throw err;
    return recorded.data.issuedMs;
  }
  return issuedMs;
}

/** Google's token endpoint: refresh tokens only, and like Google no new refresh token in the answer. */
export function tokenRoutes(router: express.Router, { ctx }: YoutubeSim): void {
  router.post('/token', express.urlencoded({ extended: false }), async (req, res) => {
    if (req.body?.grant_type !== 'refresh_token') {
      res.status(400).json({
        error: 'unsupported_grant_type',
        error_description: `Invalid grant_type: ${req.body?.grant_type ?? ''}`,
      });
      return;
    }
    const token = String(req.body.refresh_token ?? '');
    const channel =
      sandboxTokenAccount(token, 'refresh') ??
      (token.startsWith('sandbox-') && !sandboxTokenAccount(token, 'access') ? token : undefined);
    const account = channel ? await ctx.state.account(channel) : undefined;
    const dead =
      !channel ||
      (account && account.tokens !== 'ok') ||
      (await refreshRefusal(ctx, token)) ||
      (ctx.config.sandboxYoutubeProject === 'testing' &&
        ctx.clock.now() - (await refreshTokenIssuedMs(ctx, channel, token)) > TESTING_REFRESH_TOKEN_MS);
    if (dead) {
      // Google's one answer for a refresh token that expired or was revoked, whatever the cause.
      res.status(400).json({ error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
      return;
    }
    res.json({
      access_token: await issueToken(ctx, 'access', channel, 3599_000, token),
      expires_in: 3599,
      token_type: 'Bearer',
      scope: 'https://www.googleapis.com/auth/youtube.upload https://www.googleapis.com/auth/youtube.readonly',
    });
  });
}
