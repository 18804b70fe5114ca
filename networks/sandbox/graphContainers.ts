// The media-container lifecycle Instagram and Threads share. A container is IN_PROGRESS while the
// simulator "processes" its video (SimulatorContext.processingMs after the download), FINISHED, ERROR
// when its file could not be fetched or used, PUBLISHED once the publish call made a post of it, and
// EXPIRED when 24 hours passed unpublished. A carousel is as far along as its least ready item.
import { nowIso } from '../../db/rows.ts';
import type { Platform } from '../rules.ts';
import type { StoredFile } from './files.ts';
import { isExpired, publishedToday, type PostPageData } from './graph.ts';
import type { GraphFault } from './graphFaults.ts';
import type { SimulatorContext } from './simulator.ts';
import type { SandboxItem } from './state.ts';

/** A container's status_code (Instagram) or status (Threads). */
export type ContainerState = 'IN_PROGRESS' | 'FINISHED' | 'ERROR' | 'EXPIRED' | 'PUBLISHED';

export type ContainerData = {
  mediaType: string;
  /** Caption or text. */
  text: string;
  isCarouselItem: boolean;
  children: string[];
  files: StoredFile[];
  /** Epoch ms when processing ends. */
  readyAt: number;
  /** Why processing failed, in the words the network's status field carries. */
  error?: string;
  /** Other parameters the post was created with (topic_tag, link_attachment, ...). */
  extra: Record<string, string>;
  /** The post made of it. */
  mediaId?: string;
};

/** A post made of a container: its page, and what the network's list and field endpoints show. */
export interface PublishedData extends PostPageData {
  containerId: string;
  mediaType: string;
  text: string;
  permalink: string;
  extra: Record<string, string>;
}

export const CONTAINER = 'container';

export async function newContainer(
  ctx: SimulatorContext,
  account: string,
  input: Omit<ContainerData, 'readyAt'>,
): Promise<{ id: string }> {
  const processing = input.files.some((f) => f.kind === 'video') ? ctx.processingMs : 0;
  const item = await ctx.state.create<ContainerData>({
    id: ctx.state.newId(),
    account,
    kind: CONTAINER,
    status: 'IN_PROGRESS',
    data: { ...input, readyAt: Date.now() + processing },
  });
  return { id: item.id };
}

export async function containerState(
  ctx: SimulatorContext,
  container: SandboxItem<ContainerData>,
): Promise<{ state: ContainerState; error?: string }> {
  if (container.status === 'PUBLISHED') return { state: 'PUBLISHED' };
  if (isExpired(container)) return { state: 'EXPIRED' };
  if (container.data.error) return { state: 'ERROR', error: container.data.error };
  for (const childId of container.data.children) {
    const child = await ctx.state.get<ContainerData>(childId);
    const state = child
      ? await containerState(ctx, child)
      : { state: 'ERROR' as const, error: `carousel item ${childId} does not exist` };
    if (state.state !== 'FINISHED') return state;
  }
  return { state: Date.now() >= container.data.readyAt ? 'FINISHED' : 'IN_PROGRESS' };
}

/** The account's container, or the network's not-found answer. */
export async function ownContainer(
  ctx: SimulatorContext,
  account: string,
  id: string | undefined,
  notFound: () => GraphFault,
): Promise<SandboxItem<ContainerData>> {
  const container = id ? await ctx.state.get<ContainerData>(id) : undefined;
  if (!container || container.kind !== CONTAINER || container.account !== account) throw notFound();
  return container;
}

/** How a network answers a publish call it refuses. */
export interface PublishRefusals {
  network: Platform;
  notReady: () => GraphFault;
  unusable: (state: ContainerState) => GraphFault;
  limitReached: () => GraphFault;
}

/**
 * The publish call: a finished container becomes a post (`kind`, counted against `dailyLimit` with
 * every kind in `limitKinds`), stamped with the time the call arrived (bench/publish measures lag
 * against it). A container is published at most once.
 */
export async function publishContainer(
  ctx: SimulatorContext,
  container: SandboxItem<ContainerData>,
  options: {
    kind: string;
    limitKinds: string[];
    dailyLimit: number;
    permalink: (id: string) => string;
    refusals: PublishRefusals;
  },
): Promise<{ id: string }> {
  const arrivedMs = Date.now();
  const { state } = await containerState(ctx, container);
  if (state === 'IN_PROGRESS') throw options.refusals.notReady();
  if (state !== 'FINISHED') throw options.refusals.unusable(state);
  if (
    (await publishedToday(ctx, options.refusals.network, container.account, options.limitKinds)) >= options.dailyLimit
  )
    throw options.refusals.limitReached();
  const children = await Promise.all(container.data.children.map((id) => ctx.state.get<ContainerData>(id)));
  const files = [...container.data.files, ...children.flatMap((c) => c?.data.files ?? [])];
  const id = ctx.state.newId();
  const { mediaType, text, extra } = container.data;
  // The container turns PUBLISHED with its post, or neither does: a network never shows one without the other.
  await ctx.db.transaction(async (trx) => {
    // Two publish calls racing for one container (a dead worker's call still in flight): one wins.
    const won = await trx('sandbox_items')
      .where({ id: container.id, network: options.refusals.network })
      .whereNot('status', 'PUBLISHED')
      .update({ status: 'PUBLISHED', data: JSON.stringify({ ...container.data, mediaId: id }), updated_at: nowIso() });
    if (!won) throw options.refusals.unusable('PUBLISHED');
    await ctx.state.create<PublishedData>(
      {
        id,
        account: container.account,
        kind: options.kind,
        status: 'PUBLISHED',
        publishedMs: arrivedMs,
        data: {
          containerId: container.id,
          mediaType,
          text,
          extra,
          permalink: options.permalink(id),
          page: { text, files },
        },
      },
      trx,
    );
  });
  return { id };
}

/** The account's publishing-limit answer (`content_publishing_limit`, `threads_publishing_limit`). */
export async function publishingLimit(
  ctx: SimulatorContext,
  network: Platform,
  account: string,
  kinds: string[],
  total: number,
) {
  return {
    data: [
      {
        quota_usage: await publishedToday(ctx, network, account, kinds),
        config: { quota_total: total, quota_duration: 86_400 },
      },
    ],
  };
}
