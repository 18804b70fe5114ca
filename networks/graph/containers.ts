// Publishing through media containers, as Instagram and Threads both do: create the container (after
// its carousel items), wait until the network has processed it, read the publishing limit, publish,
// read the permalink. Exactly once rests on the container: the network publishes a container at most
// once, so an attempt that resumes from a checkpoint reuses its container instead of making another,
// and the container's PUBLISHED state tells a settle that an earlier publish call went through.
import { NetworkError, type Connector, type PublishJob, type Published } from '../connector.ts';
import {
  assertPublishingQuota,
  findOwnPost,
  graphClient,
  insightValues,
  refreshLongLivedToken,
  stillProcessing,
  waitForProcessing,
  type Graph,
  type GraphParams,
} from './client.ts';
import type { Clock } from '../../runtime/clock.ts';
import type { Platform } from '../rules.ts';

export type ContainerState = 'IN_PROGRESS' | 'FINISHED' | 'ERROR' | 'EXPIRED' | 'PUBLISHED';

export interface ContainerStatus {
  state: ContainerState;
  /** The network's words on an ERROR (IG `status`, Threads `error_message`). */
  detail?: string;
}

/** What differs between Instagram and Threads: names, fields and parameters; the flow below is common. */
export interface ContainerNetwork {
  platform: Platform;
  label: string;
  graph: Graph;
  /** The process's clock: when a publish call is made, when a refreshed token expires. */
  clock: Clock;
  /** The versioned API root, e.g. https://graph.threads.com/v1.0. */
  api: string;
  /** Edges of the account: where containers are made, published, and the publishing limit read. */
  edges: { create: string; publish: string; limit: string };
  /** `?fields=` of a container's status, and how its answer reads. */
  statusFields: string;
  status(answer: Record<string, any>): ContainerStatus;
  /** Parameters of the post's container, and of its carousel items when it has them (made first). */
  containerParams(job: PublishJob): Promise<{ post: GraphParams; items: GraphParams[] }>;
  /** The text the container carries, as the account's recent posts show it. */
  caption(job: PublishJob): string;
  /** Where the account lists posts like this one, and the field holding their text. */
  recent(job: PublishJob): { edge: string; textField: string };
  /** A container that ended in ERROR, as the failure to report. */
  processingError(status: ContainerStatus): NetworkError;
  /** `grant_type` of GET /refresh_access_token; none where the account holds a token that never expires. */
  refreshGrant?: string;
  /**
   * The metrics a post is asked for: one list, or one per kind of media, read from the media's `field` first
   * (a metric a kind does not have is refused).
   */
  postMetrics: string | { field: string; byKind: Record<string, string> };
  /** The account's insights edge and parameters. */
  accountInsights: { edge: string; params: GraphParams };
}

/** Creating a container makes the network download the file before it answers. */
const CREATE_TIMEOUT_MS = 180_000;

/** Saved right after the container exists, and again (with publishingAt) right before the publish call. */
interface ContainerCheckpoint {
  containerId?: string;
  publishingAt?: string;
}

const token = (job: PublishJob) => job.account.credentials.accessToken;
const onAccount = (net: ContainerNetwork, job: PublishJob, edge: string) =>
  `${net.api}/${job.account.externalId}/${edge}`;

async function status(net: ContainerNetwork, job: PublishJob, containerId: string): Promise<ContainerStatus> {
  return net.status(
    await net.graph({ url: `${net.api}/${containerId}`, token: token(job), params: { fields: net.statusFields } }),
  );
}

async function processed(net: ContainerNetwork, job: PublishJob, containerId: string): Promise<ContainerStatus> {
  const found = await waitForProcessing(job.sleep, async () => {
    const current = await status(net, job, containerId);
    // Never publish IN_PROGRESS: publishing too early is what made Threads answer "Unknown error".
    return current.state === 'IN_PROGRESS' ? undefined : current;
  });
  if (!found) throw stillProcessing(net.platform, net.label, `container ${containerId}`);
  return found;
}

async function createContainer(net: ContainerNetwork, job: PublishJob): Promise<string> {
  const create = async (params: GraphParams) =>
    (
      await net.graph<{ id: string }>({
        method: 'POST',
        url: onAccount(net, job, net.edges.create),
        token: token(job),
        params,
        timeoutMs: CREATE_TIMEOUT_MS,
      })
    ).id;
  const { post, items } = await net.containerParams(job);
  const children: string[] = [];
  for (const item of items) children.push(await create({ ...item, is_carousel_item: true }));
  // Items process in parallel on the network's side; the carousel needs every one finished.
  for (const child of children) {
    const item = await processed(net, job, child);
    if (item.state !== 'FINISHED') throw net.processingError(item);
  }
  return create(children.length ? { ...post, children: children.join(',') } : post);
}

async function permalink(net: ContainerNetwork, job: PublishJob, mediaId: string): Promise<string> {
  return (
    await net.graph<{ permalink: string }>({
      url: `${net.api}/${mediaId}`,
      token: token(job),
      params: { fields: 'permalink' },
    })
  ).permalink;
}

/** The post an earlier publish call made, or undefined when it cannot be told apart from others. */
async function earlierPost(
  net: ContainerNetwork,
  job: PublishJob,
  checkpoint: ContainerCheckpoint,
): Promise<Published | undefined> {
  if (!checkpoint.publishingAt) return undefined;
  const { edge, textField } = net.recent(job);
  const listed = await net.graph<{ data: Record<string, string | undefined>[] }>({
    url: onAccount(net, job, edge),
    token: token(job),
    params: { fields: `id,${textField},timestamp,permalink`, limit: 25 },
  });
  const posts = listed.data.map((m) => ({ id: m.id!, text: m[textField] ?? '', time: m.timestamp!, url: m.permalink }));
  const own = findOwnPost(posts, net.caption(job), checkpoint.publishingAt);
  if (typeof own === 'string') return undefined;
  return { externalId: own.id, externalUrl: own.url ?? (await permalink(net, job, own.id)) };
}

async function publish(net: ContainerNetwork, job: PublishJob): Promise<Published> {
  const checkpoint = (job.checkpoint ?? {}) as ContainerCheckpoint;
  let containerId = checkpoint.containerId;
  let recreated = false;
  for (;;) {
    if (!containerId) {
      containerId = await createContainer(net, job);
      await job.saveCheckpoint({ containerId } satisfies ContainerCheckpoint);
    }
    const current = await processed(net, job, containerId);
    if (current.state === 'FINISHED') break;
    if (current.state === 'ERROR') {
      const error = net.processingError(current);
      if (error.kind !== 'unavailable' || recreated) throw error;
    }
    if (current.state === 'PUBLISHED') {
      // An earlier attempt's publish call went through (its answer was lost): report that post.
      const post = await earlierPost(net, job, checkpoint);
      if (post) return post;
      throw new NetworkError(
        net.platform,
        'rejected',
        `${net.label} shows container ${containerId} as already published, but the post could not be told ` +
          `apart among the account's recent posts; check the account before publishing again.`,
      );
    }
    // EXPIRED (24 hours unpublished) or a temporary processing error: this container was never
    // published, so one new container cannot make a second post.
    if (recreated)
      throw new NetworkError(
        net.platform,
        'unavailable',
        `${net.label} could not use the new container ${containerId} either.`,
      );
    recreated = true;
    containerId = undefined;
  }
  await assertPublishingQuota(
    net.graph,
    { url: onAccount(net, job, net.edges.limit), token: token(job) },
    net.platform,
    net.label,
  );
  await job.saveCheckpoint({
    containerId,
    publishingAt: new Date(net.clock.now()).toISOString(),
  } satisfies ContainerCheckpoint);
  const { id } = await net.graph<{ id: string }>({
    method: 'POST',
    url: onAccount(net, job, net.edges.publish),
    token: token(job),
    params: { creation_id: containerId },
  });
  return { externalId: id, externalUrl: await permalink(net, job, id) };
}

/**
 * No container, or one that is not PUBLISHED: the post did not go out, and publishing again resumes
 * with the same container. PUBLISHED: it went out; `unknown` when the post cannot be found again.
 */
async function settle(net: ContainerNetwork, job: PublishJob): Promise<Published | 'not_published' | 'unknown'> {
  const checkpoint = (job.checkpoint ?? {}) as ContainerCheckpoint;
  if (!checkpoint.containerId) return 'not_published';
  if ((await status(net, job, checkpoint.containerId)).state !== 'PUBLISHED') return 'not_published';
  return (await earlierPost(net, job, checkpoint)) ?? 'unknown';
}

/** A whole connector for a container network; its host (`graph`) also serves /refresh_access_token. */
export function containerConnector(spec: Omit<ContainerNetwork, 'graph'>, refreshUrl: string): Connector {
  const net: ContainerNetwork = { ...spec, graph: graphClient(spec.platform, spec.label) };
  return {
    platform: net.platform,
    publish: (job) => publish(net, job),
    settle: (job) => settle(net, job),
    ...(net.refreshGrant
      ? {
          refresh: (account) =>
            refreshLongLivedToken(
              net.graph,
              net.clock,
              refreshUrl,
              net.refreshGrant!,
              account,
              net.platform,
              net.label,
            ),
        }
      : {}),
    postInsights: async (account, mediaId) => {
      const read = <T>(url: string, params: GraphParams) =>
        net.graph<T>({ url, token: account.credentials.accessToken, params });
      const metrics = net.postMetrics;
      const metric =
        typeof metrics === 'string'
          ? metrics
          : metrics.byKind[
              (await read<Record<string, string>>(`${net.api}/${mediaId}`, { fields: metrics.field }))[metrics.field]!
            ];
      if (!metric) return {};
      return insightValues(await read(`${net.api}/${mediaId}/insights`, { metric }));
    },
    accountInsights: async (account) =>
      insightValues(
        await net.graph({
          url: `${net.api}/${account.externalId}/${net.accountInsights.edge}`,
          token: account.credentials.accessToken,
          params: net.accountInsights.params,
        }),
      ),
  };
}
