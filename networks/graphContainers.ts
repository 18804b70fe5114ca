// Publishing through media containers, as Instagram and Threads both do: create the container (after
// its carousel items), wait until the network has processed it, read the publishing limit, publish,
// read the permalink. Exactly once rests on the container: the network publishes a container at most
// once, so an attempt that resumes from a checkpoint reuses its container instead of making another,
// and the container's PUBLISHED state tells a settle that an earlier publish call went through.
import { NetworkError, type Published, type PublishJob } from './connector.ts';
import { findOwnPost, stillProcessing, waitForProcessing, type RecentPost } from './graph.ts';
import type { Platform } from './rules.ts';

export type ContainerState = 'IN_PROGRESS' | 'FINISHED' | 'ERROR' | 'EXPIRED' | 'PUBLISHED';

export interface ContainerStatus {
  state: ContainerState;
  /** The network's words on an ERROR (IG `status`, Threads `error_message`). */
  detail?: string;
}

/** What differs between Instagram and Threads; the flow below is common. */
export interface ContainerNetwork {
  platform: Platform;
  label: string;
  /** Creates the post's container and answers its id; `ready` waits until an item container can be used. */
  createContainer(job: PublishJob, ready: (itemId: string) => Promise<void>): Promise<string>;
  status(job: PublishJob, containerId: string): Promise<ContainerStatus>;
  /** Refuses (rate_limited) when the account's publishing limit is used up. */
  assertQuota(job: PublishJob): Promise<void>;
  /** Publishes a finished container; answers the published media's id. */
  publishContainer(job: PublishJob, containerId: string): Promise<string>;
  permalink(job: PublishJob, mediaId: string): Promise<string>;
  /** The text the container carries, as the account's recent posts will show it. */
  caption(job: PublishJob): string;
  /** The account's posts published since `since` (or a little before), newest first. */
  recentPosts(job: PublishJob, since: string): Promise<RecentPost[]>;
  /** A container that ended in ERROR, as the failure to report. */
  processingError(status: ContainerStatus): NetworkError;
}

/** Saved right after the container exists, and again (with publishingAt) right before the publish call. */
interface ContainerCheckpoint {
  containerId?: string;
  publishingAt?: string;
}

async function processed(net: ContainerNetwork, job: PublishJob, containerId: string): Promise<ContainerStatus> {
  const status = await waitForProcessing(job.sleep, async () => {
    const current = await net.status(job, containerId);
    // Never publish IN_PROGRESS: publishing too early is what made Threads answer "Unknown error".
    return current.state === 'IN_PROGRESS' ? undefined : current;
  });
  if (!status) throw stillProcessing(net.platform, net.label, `container ${containerId}`);
  return status;
}

/** The post an earlier publish call made, or undefined when it cannot be told apart from others. */
async function earlierPost(net: ContainerNetwork, job: PublishJob, checkpoint: ContainerCheckpoint): Promise<Published | undefined> {
  if (!checkpoint.publishingAt) return undefined;
  const own = findOwnPost(await net.recentPosts(job, checkpoint.publishingAt), net.caption(job), checkpoint.publishingAt);
  if (typeof own === 'string') return undefined;
  return { externalId: own.id, externalUrl: own.url ?? (await net.permalink(job, own.id)) };
}

export async function publishWithContainer(net: ContainerNetwork, job: PublishJob): Promise<Published> {
  const checkpoint = (job.checkpoint ?? {}) as ContainerCheckpoint;
  let containerId = checkpoint.containerId;
  let recreated = false;
  for (;;) {
    if (!containerId) {
      containerId = await net.createContainer(job, async (itemId) => {
        const item = await processed(net, job, itemId);
        if (item.state !== 'FINISHED') throw net.processingError(item);
      });
      await job.saveCheckpoint({ containerId } satisfies ContainerCheckpoint);
    }
    const status = await processed(net, job, containerId);
    if (status.state === 'FINISHED') break;
    if (status.state === 'ERROR') {
      const error = net.processingError(status);
      if (error.kind !== 'unavailable' || recreated) throw error;
    }
    if (status.state === 'PUBLISHED') {
      // An earlier attempt's publish call went through (its answer was lost): report that post.
      const post = await earlierPost(net, job, checkpoint);
      if (post) return post;
      throw new NetworkError(net.platform, 'rejected', `${net.label} shows container ${containerId} as already published, but the post could not be told apart among the account's recent posts; check the account before publishing again.`);
    }
    // EXPIRED (24 hours unpublished) or a temporary processing error: this container was never
    // published, so one new container cannot make a second post.
    if (recreated) throw new NetworkError(net.platform, 'unavailable', `${net.label} let the new container ${containerId} expire as well.`);
    recreated = true;
    containerId = undefined;
  }
  await net.assertQuota(job);
  await job.saveCheckpoint({ containerId, publishingAt: new Date().toISOString() } satisfies ContainerCheckpoint);
  const mediaId = await net.publishContainer(job, containerId);
  return { externalId: mediaId, externalUrl: await net.permalink(job, mediaId) };
}

/**
 * No container, or one that is not PUBLISHED: the post did not go out, and publishing again resumes
 * with the same container. PUBLISHED: it went out; `unknown` when the post cannot be found again.
 */
export async function settleContainer(net: ContainerNetwork, job: PublishJob): Promise<Published | 'not_published' | 'unknown'> {
  const checkpoint = (job.checkpoint ?? {}) as ContainerCheckpoint;
  if (!checkpoint.containerId) return 'not_published';
  const status = await net.status(job, checkpoint.containerId);
  if (status.state !== 'PUBLISHED') return 'not_published';
  return (await earlierPost(net, job, checkpoint)) ?? 'unknown';
}
