// What a network connector offers the publishing worker. Each network implements it in its own folder
// (networks/<name>/connector.ts), speaking the network's official API, against the live hosts or the
// network's simulator, which shares the wire format.
import type { Readable } from 'node:stream';
import type { components } from '../generated/api.d.ts';
import type { Issue } from '../domain/issues.ts';
import type { FetchPolicy } from '../media/fromUrl.ts';
import type { Clock } from '../runtime/clock.ts';
import type { Config } from '../runtime/config.ts';
import type { Platform, PostContent } from './rules.ts';

/** The decrypted token bundle of an account (stored sealed; never logged, never returned by the API). */
export interface AccountCredentials {
  accessToken: string;
  refreshToken?: string;
  /** ISO instant when accessToken stops working, when the network says. */
  expiresAt?: string;
  /**
   * The account's own servers, on networks where each account names them (Bluesky: `service`, the server signed in
   * to, which renews sessions; `pds`, the one holding the account's posts).
   */
  servers?: Record<string, string>;
}

/** Sandbox accounts store a bare token; connected accounts store the JSON bundle. */
export function readCredentials(plain: string): AccountCredentials {
  return plain.startsWith('{') ? (JSON.parse(plain) as AccountCredentials) : { accessToken: plain };
}

export interface ConnectorAccount {
  id: string;
  /** The account's id on the network (channel id, IG user id, Page id, Threads user id). */
  externalId: string;
  displayName: string;
  credentials: AccountCredentials;
}

export interface PublishMedia {
  id: string;
  kind: 'image' | 'video';
  mime: string;
  size: number;
  width: number | null;
  height: number | null;
  durationSeconds: number | null;
  filename: string;
  /**
   * A public, signed, expiring address of the bytes, for networks that fetch by URL; `jpeg` converts images,
   * and `within` scales an image larger than the box (either way round) down into it, as a JPEG.
   */
  publicUrl(options?: { format?: 'jpeg'; within?: ImageBox }): Promise<string>;
  /** The bytes from `start` to `end` (inclusive, as fs counts), for networks that take uploads. */
  open(options?: { start?: number; end?: number }): Promise<Readable>;
}

/** The largest picture a network takes: its short and long sides, in pixels, either way round. */
export interface ImageBox {
  short: number;
  long: number;
}

/** Progress an attempt records durably before each step that changes something on the network. */
export type Checkpoint = Record<string, unknown>;

export interface PublishJob {
  postId: string;
  text: string;
  title: string | null;
  tags: string[];
  /** The post's perPlatform entry for this network. */
  settings: Record<string, unknown>;
  /** The post's files in order, then any file a setting names (YouTube's `thumbnailMediaId`). */
  media: PublishMedia[];
  account: ConnectorAccount;
  /** A value unique to this post that the connector leaves where it can find it again (settle). */
  marker: string;
  /** What earlier attempts recorded (null on the first): resume from it, never start over blindly. */
  checkpoint: Checkpoint | null;
  /**
   * Saves progress before the next network call; awaited, so a crash after it is settled correctly. The
   * first save also starts the attempt (until then a person may still change the post): no call before it
   * may make anything visible on the network.
   */
  saveCheckpoint(checkpoint: Checkpoint): Promise<void>;
  /** Waits between polls; tests pass a controllable clock. */
  sleep(ms: number): Promise<void>;
}

/** An attempt's checkpoint as the connector sees it; `record` saves changes before the next network call. */
export interface CheckpointedAttempt<C extends Checkpoint> {
  cp: C;
  record(changes: C): Promise<void>;
}

export function checkpointed<C extends Checkpoint>(job: PublishJob): CheckpointedAttempt<C> {
  const attempt: CheckpointedAttempt<C> = {
    cp: { ...(job.checkpoint ?? {}) } as C,
    async record(changes) {
      attempt.cp = { ...attempt.cp, ...changes };
      await job.saveCheckpoint(attempt.cp);
    },
  };
  return attempt;
}

export interface Published {
  externalId: string;
  externalUrl: string;
  /** Steps that were skipped without failing the post (YouTube thumbnail or playlist), in a sentence each. */
  notes?: string[];
  /**
   * Published, but not as the post chose, in a sentence the post's timeline and status line say: TikTok shows
   * it privately (every post until the app is audited), or has still not named it after a week's review.
   */
  liveNote?: string;
  /** The network shows the post to its account only, whatever was asked (YouTube: an unaudited project's upload). */
  shownPrivately?: boolean;
}

/** Kinds of network failure, each with the spec's retry guidance. */
export type FailureKind =
  | 'token_rejected'
  | 'permission_missing'
  | 'rate_limited'
  | 'quota_exceeded'
  | 'unverified'
  | 'unavailable'
  | 'rejected';

/** A network's refusal: `code` is the spec's (`instagram_token_rejected`, ...), `message` quotes the network. */
export class NetworkError extends Error {
  readonly code: string;
  constructor(
    readonly platform: Platform,
    readonly kind: FailureKind,
    message: string,
    /** Seconds the network asked us to wait, when it said. */
    readonly retryAfterSeconds?: number,
    /** What to do, where the kind's usual guidance (failureGuidance.ts) does not fit this refusal. */
    readonly hint?: string,
  ) {
    super(message);
    this.code = `${platform}_${kind}`;
  }
}

/**
 * Not a failure: the network took the post and is still working on it (TikTok's moderation can take
 * hours). The post stays queued with `note` in its timeline, and the worker asks again in `checkAgainInMs`
 * with the attempt's checkpoint, from which the connector asks the network and never sends again.
 */
export class NotYetPublished extends Error {
  constructor(
    readonly platform: Platform,
    readonly note: string,
    readonly checkAgainInMs: number,
  ) {
    super(note);
  }
}

/** An account's own posting options (TikTok's creator_info), in the contract's words. */
export type PostingOptions = Omit<components['schemas']['PostingOptions'], 'accountId' | 'platform'>;

/** What Herald's own records say about the operator's app at a network, across every workspace. */
export interface AppUsage {
  /** The external ids of the network's accounts that posted (or began to) through Herald in the last 24 hours. */
  recentPosters(platform: Platform): Promise<string[]>;
  /** Whether the network's latest upload through Herald came back shown privately (YouTube's unaudited project). */
  latestShownPrivately(platform: Platform): Promise<boolean>;
}

export interface Connector {
  platform: Platform;
  /**
   * Publishes one post, resuming from job.checkpoint; throws NetworkError for the network's refusals and
   * NotYetPublished while the network still reviews a post it took.
   */
  publish(job: PublishJob): Promise<Published>;
  /**
   * After an attempt died midway (job.checkpoint says how far it got): did the post go out?
   * `unknown` only when the network offers no way to tell; the worker then fails the post rather
   * than risk publishing twice.
   */
  settle(job: PublishJob): Promise<Published | 'not_published' | 'unknown'>;
  /**
   * Plan findings that depend on the account as the network reports it now (TikTok's creator_info: the
   * privacy levels it offers, its longest video); throws NetworkError when the network cannot be asked.
   */
  accountIssues?(account: ConnectorAccount, post: PostContent, config: Config, usage: AppUsage): Promise<Issue[]>;
  /**
   * What the account may post now as the network reports it, from the same cache as accountIssues
   * (GET /accounts/{id}/posting-options); absent on networks without per-account options.
   */
  postingOptions?(account: ConnectorAccount, config: Config, usage: AppUsage): Promise<PostingOptions>;
  /** New credentials before the access token expires, keeping the refresh token when none is returned. */
  refresh?(account: ConnectorAccount): Promise<AccountCredentials>;
  postInsights(account: ConnectorAccount, externalId: string): Promise<Record<string, number>>;
  accountInsights(account: ConnectorAccount): Promise<Record<string, number>>;
}

/** Where a connector sends its requests: the network's hosts, or the sandbox simulator's paths. */
export interface ConnectorContext {
  /** Base URL per host name the connector uses (e.g. `api`, `upload`, `oauth` for YouTube). */
  hosts: Record<string, string>;
  /** Client id and secret of the app on the network (live mode), for token refresh. */
  client?: { id: string; secret: string };
  /** YouTube's calls, whose uploads stream a file; the Graph networks' short calls go through httpExchange. */
  fetch: typeof fetch;
  /** The process's clock: token lifetimes and the attempt times a settle compares with the network's. */
  clock: Clock;
  /**
   * How to reach addresses a person named rather than the network's own hosts (a Bluesky account's server, the page
   * a post links to): through the public-address guard of media/fromUrl.ts, with these exemptions. Absent: none.
   */
  outbound?: FetchPolicy;
}

/** A network's connector as the registry holds it: how to make one, and where its requests go. */
export interface ConnectorModule {
  create(ctx: ConnectorContext): Connector;
  /** The network's hosts by the names the connector uses. */
  liveHosts: Record<string, string>;
  /** The same names pointing into the network's simulator. */
  sandboxHosts(base: string): Record<string, string>;
  /** Environment variables holding the app's client id and secret on the network, and which ones they are. */
  clientEnv?: { id: string; secret: string; what?: string };
}
