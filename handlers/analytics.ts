// Insight counters of live posts and of accounts, read from the network on `refresh=true` (at most
// once per 15 minutes per post or account) and served from the cache otherwise.
import { ApiError, notFound, rateLimited } from '../domain/errors.ts';
import type { Clock } from '../runtime/clock.ts';
import { askNetwork } from './networkAccount.ts';
import type { Handler } from './types.ts';

const REFRESH_EVERY_MS = 15 * 60_000;

type Cached = { metrics: Record<string, number>; fetchedAt: string } | undefined;

function assertRefreshAllowed(cached: Cached, what: string, clock: Clock): void {
  if (!cached) return;
  const wait = Date.parse(cached.fetchedAt) + REFRESH_EVERY_MS - clock.now();
  if (wait > 0)
    throw rateLimited(
      clock.now() + wait,
      clock.now(),
      `The counters of this ${what} were read from the network less than 15 minutes ago.`,
    );
}

export const getPostAnalytics: Handler<'getPostAnalytics'> = async ({ data, params, query, services }) => {
  const post = await data.posts.get(params.postId);
  if (!post) throw notFound('post', params.postId);
  if (post.status !== 'live' || !post.externalId) {
    throw new ApiError(
      409,
      'invalid_state',
      `Post ${post.id} is ${post.status}; only a live post has analytics.`,
      'Ask again once the post is live.',
    );
  }
  let cached: Cached = await data.analytics.get('post', post.id);
  if (query.refresh) {
    assertRefreshAllowed(cached, 'post', services.clock);
    const metrics = await askNetwork(
      services,
      data,
      post.platform,
      { id: post.accountId, displayName: post.accountName },
      'counters',
      (connector, account) => connector.postInsights(account, post.externalId!),
    );
    cached = await data.analytics.put('post', post.id, metrics);
  }
  return {
    status: 200,
    body: {
      postId: post.id,
      platform: post.platform,
      fetchedAt: cached?.fetchedAt ?? null,
      metrics: cached?.metrics ?? {},
    },
  };
};

export const getAccountAnalytics: Handler<'getAccountAnalytics'> = async ({ data, params, query, services }) => {
  const account = await data.accounts.get(params.accountId);
  if (!account) throw notFound('account', params.accountId);
  let cached: Cached = await data.analytics.get('account', account.id);
  if (query.refresh) {
    assertRefreshAllowed(cached, 'account', services.clock);
    const metrics = await askNetwork(services, data, account.platform, account, 'counters', (connector, acc) =>
      connector.accountInsights(acc),
    );
    cached = await data.analytics.put('account', account.id, metrics);
  }
  return {
    status: 200,
    body: {
      accountId: account.id,
      platform: account.platform,
      fetchedAt: cached?.fetchedAt ?? null,
      metrics: cached?.metrics ?? {},
    },
  };
};
