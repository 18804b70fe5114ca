// The previews' rules: the frame each network puts a picture in (from the server's own limits), what that
// frame cuts, where titles and captions are shortened, and which #tag becomes the Threads topic.
import { describe, expect, it } from 'vitest';
import { textParts } from '../../../domain/textUnits.ts';
import {
  aspectText,
  coverFit,
  facebookFrame,
  facebookType,
  instagramFrame,
  instagramType,
  type PreviewMedia,
  shortened,
  threadsParts,
  YOUTUBE_TITLE_SHOWN,
  youtubeShort,
} from './previewRules.ts';

const file = (kind: 'image' | 'video', width: number, height: number, durationSeconds: number | null = null) =>
  ({
    id: `med_${width}x${height}`,
    kind,
    width,
    height,
    durationSeconds,
    thumbnailUrl: null,
    filename: 'f.jpg',
    status: 'ready',
  }) satisfies PreviewMedia;

describe('Instagram frames', () => {
  it('keeps a feed picture inside 4:5 to 1.91:1 its own shape, and cuts one outside that range', () => {
    const square = file('image', 1080, 1080);
    expect(instagramType({}, [square])).toBe('feed');
    expect(instagramFrame('feed', square)).toBe(1);
    expect(coverFit(square, 1)).toEqual({ frame: 1, cutAcross: 0, cutDown: 0 });
    // 1080×1920 is taller than 4:5: the frame is 4:5 and the picture loses 1 - (9/16)/(4/5) of its height.
    const tall = file('image', 1080, 1920);
    expect(aspectText(instagramFrame('feed', tall))).toBe('4:5');
    expect(coverFit(tall, instagramFrame('feed', tall)).cutDown).toBeCloseTo(1 - 9 / 16 / (4 / 5));
    const panorama = file('image', 3000, 1000);
    expect(aspectText(instagramFrame('feed', panorama))).toBe('1.91:1');
    expect(coverFit(panorama, 1.91).cutAcross).toBeCloseTo(1 - 1.91 / 3);
  });

  it('puts a video in a 9:16 reel frame, cutting the sides of a landscape one', () => {
    const landscape = file('video', 1920, 1080, 30);
    expect(instagramType({}, [landscape])).toBe('reel');
    expect(aspectText(instagramFrame('reel', landscape))).toBe('9:16');
    expect(coverFit(landscape, 9 / 16).cutAcross).toBeCloseTo(1 - 9 / 16 / (16 / 9));
  });

  it('gives a carousel its first item’s shape', () => {
    const media = [file('image', 1080, 1350), file('image', 1080, 1080)];
    expect(instagramType({}, media)).toBe('carousel');
    expect(aspectText(instagramFrame('carousel', media[0]))).toBe('4:5');
  });
});

describe('Facebook frames', () => {
  it('shows a 9:16 short video as a reel and other files in their own shape', () => {
    const vertical = file('video', 1080, 1920, 20);
    expect(facebookType({}, [vertical])).toBe('reel');
    expect(aspectText(facebookFrame('reel', vertical))).toBe('9:16');
    const photo = file('image', 1600, 900);
    expect(facebookType({}, [photo])).toBe('photo');
    expect(aspectText(facebookFrame('photo', photo))).toBe('16:9');
    expect(facebookType({ link: 'https://example.com' }, [])).toBe('link');
  });
});

describe('shortened titles and captions', () => {
  it('keeps a title up to YouTube’s 70 characters and cuts a longer one at a word', () => {
    const fits = 'x'.repeat(YOUTUBE_TITLE_SHOWN);
    expect(shortened(fits, YOUTUBE_TITLE_SHOWN)).toEqual({ text: fits, cut: false });
    const long = 'Autumn sale: every jacket, boot and scarf in the shop at half price until Sunday night';
    const shown = shortened(long, YOUTUBE_TITLE_SHOWN);
    expect(shown).toEqual({ text: 'Autumn sale: every jacket, boot and scarf in the shop at half price', cut: true });
  });

  it('counts characters as the networks do (an emoji is one) and cuts a word with no space near', () => {
    expect(shortened('🍂'.repeat(70), 70).cut).toBe(false);
    expect(shortened('a'.repeat(71), 70)).toEqual({ text: 'a'.repeat(70), cut: true });
  });
});

describe('Threads topics', () => {
  it('makes the first #tag the topic and leaves later ones as text', () => {
    const { topic, parts } = threadsParts('Fresh #autumn looks #sale at https://shop.example/a.', undefined);
    expect(topic).toBe('autumn');
    expect(parts.map((p) => [p.kind, p.text])).toEqual([
      ['text', 'Fresh '],
      ['hashtag', '#autumn'],
      ['text', ' looks '],
      ['text', '#sale'],
      ['text', ' at '],
      ['link', 'https://shop.example/a'],
      ['text', '.'],
    ]);
  });

  it('takes the topic tag setting over the text’s #tags', () => {
    const { topic, parts } = threadsParts('New #autumn', 'Fashion');
    expect(topic).toBe('Fashion');
    expect(parts.every((p) => p.kind === 'text')).toBe(true);
  });

  it('keeps a #fragment inside a link part of the link', () => {
    expect(textParts('see https://a.example/#top @mara').map((p) => p.kind)).toEqual([
      'text',
      'link',
      'text',
      'mention',
    ]);
  });
});

describe('YouTube Shorts', () => {
  it('marks a vertical or square video up to 3 minutes as a Short', () => {
    expect(youtubeShort(file('video', 1080, 1920, 180))).toBe(true);
    expect(youtubeShort(file('video', 1080, 1920, 181))).toBe(false);
    expect(youtubeShort(file('video', 1920, 1080, 30))).toBe(false);
  });
});
