// A live post's counters in words, keyed by the names the contract gives them (openapi.yaml, Metrics: the names each
// network uses for a post). A name the table lacks is left out and counted, never shown as its code: a number beside
// a made-up or generic label says nothing one could act on, and several would be told apart by nothing.
import type { Platform } from '../api.ts';
import { durationText } from '../format.ts';
import { labelOf } from '../networks.ts';

/** The post metrics the contract names (Metrics' description), network by network. */
type PostMetric =
  // YouTube, TikTok, Threads, Bluesky and Instagram share the plain ones.
  | 'views'
  | 'likes'
  | 'comments'
  | 'shares'
  | 'replies'
  | 'reposts'
  | 'quotes'
  // Instagram (reels add the average watch time; stories add navigation and replies).
  | 'reach'
  | 'saved'
  | 'total_interactions'
  | 'follows'
  | 'profile_visits'
  | 'ig_reels_avg_watch_time'
  | 'navigation'
  // Facebook.
  | 'post_media_view'
  | 'post_total_media_view_unique'
  | 'post_clicks'
  // Every reaction, summed over their types (networks/graph/client.ts, insightValues).
  | 'post_reactions_by_type_total'
  // Facebook's reels and video stories: their video's lifetime counters (the reels' average watch time, whose unit
  // Meta's pages do not state, stays unnamed).
  | 'blue_reels_play_count'
  | 'post_impressions_unique'
  | 'total_video_views'
  | 'total_video_views_unique';

export const POST_METRIC_WORDS: Record<PostMetric, string> = {
  views: 'Views',
  likes: 'Likes',
  comments: 'Comments',
  shares: 'Shares',
  replies: 'Replies',
  reposts: 'Reposts',
  quotes: 'Quotes',
  reach: 'Accounts reached',
  saved: 'Saves',
  total_interactions: 'Interactions',
  follows: 'New followers',
  profile_visits: 'Profile visits',
  ig_reels_avg_watch_time: 'Average watch time',
  navigation: 'Taps forward, back or away',
  post_media_view: 'Views',
  post_total_media_view_unique: 'People who saw it',
  post_clicks: 'Clicks',
  post_reactions_by_type_total: 'Reactions',
  blue_reels_play_count: 'Plays',
  post_impressions_unique: 'People who saw it',
  total_video_views: 'Views',
  total_video_views_unique: 'People who viewed it',
};

/** A counter's value in words where it is not a plain count: the reels' watch time comes in milliseconds. */
const VALUE_WORDS: Partial<Record<PostMetric, (value: number) => string>> = {
  ig_reels_avg_watch_time: (ms) => durationText(ms / 1000),
};

export interface MetricLine {
  name: string;
  label: string;
  value: string;
}

/** The counters the table names, in the order the network gave them, and how many it left out. */
export function postMetricLines(metrics: Record<string, number>): { lines: MetricLine[]; unnamed: number } {
  const lines: MetricLine[] = [];
  let unnamed = 0;
  for (const [name, value] of Object.entries(metrics)) {
    if (!Object.hasOwn(POST_METRIC_WORDS, name)) {
      unnamed++;
      continue;
    }
    const metric = name as PostMetric;
    lines.push({
      name,
      label: POST_METRIC_WORDS[metric],
      value: VALUE_WORDS[metric]?.(value) ?? value.toLocaleString(),
    });
  }
  return { lines, unnamed };
}

/** The counters left out: "Facebook gave 2 more counters that Herald has no words for yet." */
export function unnamedMetricsText(unnamed: number, platform: Platform): string {
  const more = unnamed === 1 ? '1 more counter' : `${unnamed} more counters`;
  return `${labelOf(platform)} gave ${more} that Herald has no words for yet.`;
}
