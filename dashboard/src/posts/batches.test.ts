// The posts of one create call are shown together even when the list interleaves them with others.
import { describe, expect, it } from 'vitest';
import { batchLabel, groupByBatch } from './batches.ts';

describe('groupByBatch', () => {
  it('groups by batch in the order of each group’s first post, keeping the list order inside a group', () => {
    const posts = [
      { id: '1', batchId: 'a' },
      { id: '2', batchId: 'b' },
      { id: '3', batchId: 'a' },
      { id: '4', batchId: 'c' },
      { id: '5', batchId: 'b' },
    ];
    expect(groupByBatch(posts).map((g) => g.map((p) => p.id))).toEqual([['1', '3'], ['2', '5'], ['4']]);
    expect(groupByBatch([])).toEqual([]);
  });
});

describe('batchLabel', () => {
  it('gives the count as the group’s size once every page is loaded, and as those shown before', () => {
    expect(batchLabel(10, false)).toBe('Created together · 10 posts');
    expect(batchLabel(7, true)).toBe('Created together · 7 posts shown, more may follow');
  });
});
