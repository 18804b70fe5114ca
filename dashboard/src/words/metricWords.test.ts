// A live post's counters are named in words from the contract's metric names, never by the code; one the table
// lacks is left out and counted.
import { describe, expect, it } from 'vitest';
import { POST_METRIC_WORDS, postMetricLines, unnamedMetricsText } from './metricWords.ts';

describe('post metric words', () => {
  it('names each counter in words, in the order the network gave them', () => {
    const { lines, unnamed } = postMetricLines({ views: 1843, reach: 1502, total_interactions: 270, saved: 31 });
    expect(lines.map((l) => [l.label, l.value])).toEqual([
      ['Views', (1843).toLocaleString()],
      ['Accounts reached', (1502).toLocaleString()],
      ['Interactions', '270'],
      ['Saves', '31'],
    ]);
    expect(unnamed).toBe(0);
  });

  it("says a reel's average watch time (milliseconds) as a duration", () => {
    expect(postMetricLines({ ig_reels_avg_watch_time: 12_400 }).lines[0]).toMatchObject({
      label: 'Average watch time',
      value: '0:12',
    });
  });

  it('leaves out a counter the table lacks, and says how many', () => {
    const { lines, unnamed } = postMetricLines({ post_clicks: 4, total_video_impressions: 90, video_thruplay: 3 });
    expect(lines.map((l) => l.label)).toEqual(['Clicks']);
    expect(unnamed).toBe(2);
    expect(unnamedMetricsText(2, 'facebook')).toBe('Facebook gave 2 more counters that Herald has no words for yet.');
    expect(unnamedMetricsText(1, 'instagram')).toBe('Instagram gave 1 more counter that Herald has no words for yet.');
  });

  it('has words, not codes, for every metric', () => {
    for (const words of Object.values(POST_METRIC_WORDS)) expect(words).not.toMatch(/_|^[a-z]/);
  });
});
