// The live counters count in each network's own unit, against the limit its server module declares.
import { describe, expect, it } from 'vitest';
import { countText, UNIT_LABELS } from './counters.ts';

describe('live counters', () => {
  it('count Threads emoji by their UTF-8 bytes and Instagram by characters', () => {
    expect(countText('threads', { text: 'Hi 👍', title: '' })).toEqual([
      {
        platform: 'threads',
        field: 'text',
        used: 7,
        max: 500,
        over: false,
        unitLabel: 'characters (emoji count their bytes)',
      },
    ]);
    expect(countText('instagram', { text: 'Hi 👍', title: '' })[0]).toMatchObject({ used: 4, max: 2200 });
  });

  it('count a YouTube title in characters and its description in UTF-8 bytes, and say when one is over', () => {
    const [title, description] = countText('youtube', { text: 'é'.repeat(2501), title: 'x'.repeat(101) });
    expect(title).toMatchObject({ field: 'title', used: 101, max: 100, over: true });
    expect(description).toMatchObject({
      field: 'text',
      used: 5002,
      max: 5000,
      over: true,
      unitLabel: 'characters (accented letters count 2, emoji 4)',
    });
  });

  it('name every unit in characters, saying what counts more', () => {
    expect(countText('tiktok', { text: '👍', title: '' })[0]?.unitLabel).toBe('characters (emoji count 2)');
    for (const label of Object.values(UNIT_LABELS)) expect(label).toMatch(/^characters/);
  });

  it('show nothing for a network without a text limit', () => {
    expect(countText('facebook', { text: 'x'.repeat(100_000), title: '' })).toEqual([]);
  });
});
