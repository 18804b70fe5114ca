// @vitest-environment happy-dom
// Each preview is a region named for its network, with the frame, alt text, cuts and shortened words the
// network applies.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Media } from '../api.ts';
import { mediaKeys } from '../queries/media.ts';
import { NetworkPreview, type PreviewPost } from './NetworkPreview.tsx';

afterEach(cleanup);

function media(id: string, kind: 'image' | 'video', width: number, height: number, durationSeconds: number | null) {
  return {
    id,
    kind,
    width,
    height,
    durationSeconds,
    filename: `${id}.${kind === 'image' ? 'jpg' : 'mp4'}`,
    thumbnailUrl: 'data:image/gif;base64,R0lGODlhAQABAAAAACw=', // nothing to download
    status: 'ready',
  } as Media;
}

/** Renders the preview with its files already in the cache, as compose's picker leaves them. */
function show(post: Partial<PreviewPost> & Pick<PreviewPost, 'platform'>, files: Media[] = []) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  for (const f of files) client.setQueryData(mediaKeys.one(f.id), f);
  render(
    <QueryClientProvider client={client}>
      <NetworkPreview
        post={{
          accountNames: ['Acme Shop'],
          text: '',
          title: '',
          settings: {},
          mediaIds: files.map((f) => f.id),
          ...post,
        }}
      />
    </QueryClientProvider>,
  );
}

describe('NetworkPreview', () => {
  it('shows a tall Instagram picture in its 4:5 frame and says what is cut', () => {
    show({ platform: 'instagram', text: 'Autumn is here #autumn' }, [media('tall', 'image', 1080, 1920, null)]);
    const region = screen.getByRole('region', { name: 'How it will look on Instagram' });
    expect(within(region).getByRole('img', { name: 'tall.jpg, shown 4:5' })).toBeTruthy();
    expect(region.textContent).toContain('Instagram shows it 4:5: 30% of it, at the top and bottom, is cut');
    expect(region.querySelector('.pv-hashtag')?.textContent).toBe('#autumn');
  });

  it('shows a carousel’s first item with a dot for each', () => {
    const files = [media('a', 'image', 1080, 1080, null), media('b', 'image', 1080, 1350, null)];
    show({ platform: 'instagram' }, files);
    expect(screen.getByRole('img', { name: 'a.jpg, 1 of 2, shown 1:1' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'First of 2' }).querySelectorAll('span')).toHaveLength(2);
    expect(screen.queryByText(/is cut/)).toBeNull();
  });

  it('shortens an Instagram caption after 125 characters with “more”', () => {
    show({ platform: 'instagram', text: 'word '.repeat(40) }, [media('sq', 'image', 1080, 1080, null)]);
    const caption = screen.getByRole('region').querySelector('.pv-text')!.textContent!;
    expect(caption).toMatch(/word… more$/);
    expect(caption.length).toBeLessThan('Acme Shop '.length + 125 + 7);
  });

  it('shows a YouTube video 16:9 with its title cut where YouTube cuts it, and its privacy', () => {
    const title = 'Autumn sale: every jacket, boot and scarf in the shop at half price until Sunday night';
    show({ platform: 'youtube', title, settings: { visibility: 'unlisted' } }, [media('v', 'video', 1920, 1080, 95)]);
    const region = screen.getByRole('region', { name: 'How it will look on YouTube' });
    expect(within(region).getByRole('img', { name: 'v.mp4, shown 16:9' })).toBeTruthy();
    expect(region.querySelector('.pv-title')!.textContent).toBe(
      'Autumn sale: every jacket, boot and scarf in the shop at half price…',
    );
    expect(region.textContent).toContain('Acme Shop · Unlisted');
    expect(region.querySelector('.pv-duration')!.textContent).toBe('1:35');
  });

  it('shows a YouTube thumbnail set for the video instead of its frame, and a vertical short video as a Short', () => {
    const files = [media('clip', 'video', 1080, 1920, 40), media('cover', 'image', 1280, 720, null)];
    const post = { platform: 'youtube' as const, title: 'Ten seconds of autumn' };
    show({ ...post, mediaIds: ['clip'], settings: { thumbnailMediaId: 'cover' } }, files);
    expect(screen.getByRole('img', { name: 'cover.jpg, shown 9:16' })).toBeTruthy();
    expect(screen.getByRole('region').querySelector('.pv-duration')!.textContent).toBe('Short');
  });

  it('shows a Threads post with its topic tag beside the name and links in the text', () => {
    show({ platform: 'threads', text: 'Read https://shop.example/news', settings: { topicTag: 'Autumn' } });
    const region = screen.getByRole('region', { name: 'How it will look on Threads' });
    expect(region.querySelector('.pv-topic')!.textContent).toBe('› Autumn');
    expect(region.querySelector('.pv-link')!.textContent).toBe('https://shop.example/news');
  });

  it('shows a Facebook Page post with its name, text and link card', () => {
    show({ platform: 'facebook', text: 'New arrivals', settings: { link: 'https://www.shop.example/new' } });
    const region = screen.getByRole('region', { name: 'How it will look on Facebook' });
    expect(region.querySelector('.pv-head strong')!.textContent).toBe('Acme Shop');
    expect(region.querySelector('.pv-card-host')!.textContent).toBe('shop.example');
  });
});
