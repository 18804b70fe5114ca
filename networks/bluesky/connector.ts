// The Bluesky connector: a post is one app.bsky.feed.post record in the account's repository, written through
// @atproto/api. Its text carries the facets (links, mentions, tags) the library's rich-text helper finds; its embed
// is up to 4 images with alt text, one video, or a link card. Exactly once: the record key (a TID) is chosen by
// Herald and saved in the checkpoint before the record is written, so an attempt that stopped midway is settled by
// reading that one key: the record is there, or writing it with the same key cannot make a second post.
// https://docs.bsky.app/docs/advanced-guides/posts, https://atproto.com/specs/record-key#record-key-type-tid
import { createHash } from 'node:crypto';
import type { Agent, BlobRef } from '@atproto/api';
import type { FetchPolicy } from '../../media/fromUrl.ts';
import {
  checkpointed,
  NetworkError,
  type Connector,
  type ConnectorAccount,
  type ConnectorModule,
  type PublishJob,
  type PublishMedia,
  type Published,
} from '../connector.ts';
import { accountAgent, agentOn, refusal, serversOf, statusOf, unanswered } from './api.ts';
import { atproto, isXrpcError } from './atproto.ts';
import { credentialsOf } from './connect.ts';
import { imageWithin, readUpTo } from './images.ts';
import { linkCard } from './linkCard.ts';
import { blueskyLimits, postKind } from './rules.ts';

const POST = 'app.bsky.feed.post';

/** What an attempt records before it writes the record. */
type BlueskyCheckpoint = {
  /** The record's key: a TID of the attempt's start, its clock id taken from the post's id. */
  rkey?: string;
  /** The record's createdAt, the same in every attempt that writes it. */
  createdAt?: string;
};

const S32 = '234567abcdefghijklmnopqrstuvwxyz';

/**
 * A TID (13 characters of base32-sortable: 53 bits of microseconds since 1970, then a 10-bit clock id). The
 * microseconds below the millisecond and the clock id come from the post's id, so two posts started in the same
 * millisecond get different keys.
 */
export function tidFor(postId: string, ms: number): string {
  const hash = createHash('sha256').update(postId).digest();
  let n = ((BigInt(ms) * 1000n + BigInt(hash.readUInt16BE(0) % 1000)) << 10n) | BigInt(hash.readUInt16BE(2) & 1023);
  let out = '';
  for (let i = 0; i < 13; i++) {
    out = S32[Number(n & 31n)]! + out;
    n >>= 5n;
  }
  return out;
}

/** The text with its facets; a mention of a handle that does not resolve stays plain text. */
async function richText(agent: Agent, text: string) {
  const rt = new (atproto().RichText)({ text });
  await rt.detectFacets(agent);
  const facets = (rt.facets ?? [])
    .map((f) => ({ ...f, features: f.features.filter((x) => !('did' in x) || Boolean(x.did)) }))
    .filter((f) => f.features.length);
  return { text: rt.text, facets };
}

/** The file's bytes in memory (images are at most a few MB: the library takes bytes or a stream). */
async function bytesOf(media: PublishMedia, max: number): Promise<Buffer> {
  const bytes = await readUpTo(await media.open(), max);
  if (!bytes)
    throw new NetworkError('bluesky', 'rejected', `${media.filename} is larger than Herald reads for Bluesky.`);
  return bytes;
}

async function upload(agent: Agent, data: Buffer | PublishMedia, mime: string): Promise<BlobRef> {
  // A video goes as a stream (the library sends any async iterable of bytes), an image as its bytes.
  const body = Buffer.isBuffer(data) ? data : ((await data.open()) as unknown as Blob);
  const size = Buffer.isBuffer(data) ? data.length : data.size;
  const { data: out } = await agent.com.atproto.repo.uploadBlob(body, {
    encoding: mime,
    headers: { 'content-length': String(size) },
  });
  return out.blob;
}

interface Embed {
  embed?: Record<string, unknown>;
  notes: string[];
}

async function embedOf(agent: Agent, job: PublishJob, facets: { features: object[] }[], policy: FetchPolicy) {
  const alts = Array.isArray(job.settings.altTexts) ? (job.settings.altTexts as unknown[]) : [];
  const alt = (i: number) => (typeof alts[i] === 'string' ? (alts[i] as string) : '');
  const kind = postKind(job.media);
  const out: Embed = { notes: [] };
  if (kind === 'video') {
    const video = job.media[0]!;
    out.embed = {
      $type: 'app.bsky.embed.video',
      video: await upload(agent, video, video.mime),
      ...(alt(0) ? { alt: alt(0) } : {}),
      ...(video.width && video.height ? { aspectRatio: { width: video.width, height: video.height } } : {}),
    };
  } else if (kind === 'images') {
    const images = [];
    for (const [i, media] of job.media.entries()) {
      const image = await imageWithin(await bytesOf(media, 200 * 1024 * 1024), media.mime, blueskyLimits.imageMaxBytes);
      images.push({
        image: await upload(agent, image.bytes, image.mime),
        alt: alt(i),
        aspectRatio: { width: image.width, height: image.height },
      });
    }
    out.embed = { $type: 'app.bsky.embed.images', images };
  } else if (job.media.length === 0) {
    const link = facets.flatMap((f) => f.features).find((x): x is { uri: string } => 'uri' in x);
    if (link) {
      try {
        const card = await linkCard(link.uri, policy);
        out.embed = {
          $type: 'app.bsky.embed.external',
          external: {
            uri: card.uri,
            title: card.title,
            description: card.description,
            ...(card.picture ? { thumb: await upload(agent, card.picture.bytes, card.picture.mime) } : {}),
          },
        };
      } catch (err) {
        if (isXrpcError(err) || err instanceof NetworkError) throw err;
        out.notes.push(`The link card was left out: ${(err as Error).message}`);
      }
    }
  } else {
    throw new NetworkError('bluesky', 'rejected', 'A Bluesky post takes up to 4 images or one video, not both.');
  }
  return out;
}

function blueskyConnector(ctx: Parameters<ConnectorModule['create']>[0]): Connector {
  const policy: FetchPolicy = ctx.outbound ?? { allowHosts: [] };
  const now = () => ctx.clock.now();

  /** The record's address: Bluesky's app when live, the record itself on the account's server in the sandbox. */
  function published(account: ConnectorAccount, rkey: string, notes: string[] = []): Published {
    const did = account.externalId;
    const pds = serversOf(account.credentials).pds;
    const externalUrl = ctx.hosts.web
      ? `${ctx.hosts.web}/profile/${did}/post/${rkey}`
      : `${pds}/xrpc/com.atproto.repo.getRecord?${new URLSearchParams({ repo: did, collection: POST, rkey })}`;
    return { externalId: `at://${did}/${POST}/${rkey}`, externalUrl, ...(notes.length ? { notes } : {}) };
  }

  /** Whether the record with this key exists in the account's repository. */
  async function exists(agent: Agent, account: ConnectorAccount, rkey: string): Promise<boolean> {
    try {
      await agent.com.atproto.repo.getRecord({ repo: account.externalId, collection: POST, rkey });
      return true;
    } catch (err) {
      if (isXrpcError(err) && statusOf(err) === 400 && err.error === 'RecordNotFound') return false;
      throw refusal(err, now());
    }
  }

  async function publish(job: PublishJob): Promise<Published> {
    const agent = accountAgent(job.account, policy);
    const attempt = checkpointed<BlueskyCheckpoint>(job);
    // An earlier attempt chose the key: if its record is there, this post is out already.
    if (attempt.cp.rkey && (await exists(agent, job.account, attempt.cp.rkey)))
      return published(job.account, attempt.cp.rkey);
    if (!attempt.cp.rkey)
      await attempt.record({ rkey: tidFor(job.postId, now()), createdAt: new Date(now()).toISOString() });
    const { rkey, createdAt } = attempt.cp as Required<BlueskyCheckpoint>;
    try {
      const { text, facets } = await richText(agent, job.text);
      const { embed, notes } = await embedOf(agent, job, facets, policy);
      const record = {
        $type: POST,
        text,
        createdAt,
        ...(facets.length ? { facets } : {}),
        ...(embed ? { embed } : {}),
      };
      try {
        await agent.com.atproto.repo.createRecord({ repo: job.account.externalId, collection: POST, rkey, record });
      } catch (err) {
        // No answer, or a refusal because the key is taken: the record may be there all the same.
        if (!(unanswered(err) || /already exists/i.test((err as Error).message))) throw err;
        if (!(await exists(agent, job.account, rkey))) throw err;
      }
      return published(job.account, rkey, notes);
    } catch (err) {
      throw refusal(err, now());
    }
  }

  /** A post's counters from the AppView the account's server uses; a server without one has none to give. */
  async function fromAppView<T>(account: ConnectorAccount, read: (agent: Agent) => Promise<T>): Promise<T> {
    try {
      return await read(accountAgent(account, policy));
    } catch (err) {
      if (isXrpcError(err) && /no service configured/i.test(err.message))
        throw new NetworkError(
          'bluesky',
          'unavailable',
          `${serversOf(account.credentials).pds} has no Bluesky AppView, so no likes, reposts, replies or quotes ` +
            `are counted for this account (${err.message}).`,
          undefined,
          'Counters are not available for accounts on a server without an AppView; accounts on bsky.social have them.',
        );
      throw refusal(err, now());
    }
  }

  return {
    platform: 'bluesky',
    publish,

    async settle(job) {
      const rkey = (job.checkpoint as BlueskyCheckpoint | null)?.rkey;
      if (!rkey) return 'not_published';
      return (await exists(accountAgent(job.account, policy), job.account, rkey))
        ? published(job.account, rkey)
        : 'not_published';
    },

    async refresh(account) {
      const refreshToken = account.credentials.refreshToken;
      if (!refreshToken)
        throw new NetworkError('bluesky', 'token_rejected', 'No session is stored for this account: connect it again.');
      const servers = serversOf(account.credentials);
      try {
        const agent = agentOn(servers.service, policy, { token: refreshToken });
        const { data } = await agent.com.atproto.server.refreshSession();
        return credentialsOf(data, servers);
      } catch (err) {
        throw refusal(err, now());
      }
    },

    async postInsights(account, externalId) {
      const { posts } = (await fromAppView(account, (agent) => agent.app.bsky.feed.getPosts({ uris: [externalId] })))
        .data;
      const post = posts[0];
      if (!post) throw new NetworkError('bluesky', 'rejected', `Bluesky has no post ${externalId}: it was deleted.`);
      return {
        likes: post.likeCount ?? 0,
        reposts: post.repostCount ?? 0,
        replies: post.replyCount ?? 0,
        quotes: post.quoteCount ?? 0,
      };
    },

    async accountInsights(account) {
      const { data } = await fromAppView(account, (agent) =>
        agent.app.bsky.actor.getProfile({ actor: account.externalId }),
      );
      return { followers: data.followersCount ?? 0, follows: data.followsCount ?? 0, posts: data.postsCount ?? 0 };
    },
  };
}

export const blueskyConnectorModule: ConnectorModule = {
  create: blueskyConnector,
  // Each account names its own server (stored with its session); `web` is where a post is shown.
  liveHosts: { web: 'https://bsky.app' },
  sandboxHosts: () => ({ web: '' }),
};
