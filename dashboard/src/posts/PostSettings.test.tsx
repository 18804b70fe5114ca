// @vitest-environment happy-dom
// A post's network settings read as compose wrote them: YouTube's category by name, never its id, and no file id.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Post } from '../api.ts';
import { PostSettings } from './PostSettings.tsx';

afterEach(cleanup);

const post = (perPlatform: Record<string, unknown>) => ({ platform: 'youtube', perPlatform }) as unknown as Post;

describe('post settings', () => {
  it('names the YouTube category and says the rest in words', () => {
    render(
      <PostSettings
        post={post({ visibility: 'unlisted', category: '22', madeForKids: false, thumbnailMediaId: 'med_9Zx' })}
      />,
    );
    const shown = Object.fromEntries(
      screen.getAllByRole('term').map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]),
    );
    expect(shown).toEqual({ Visibility: 'Unlisted', Category: 'People & Blogs', 'Made for kids': 'No' });
    expect(document.body.textContent).not.toMatch(/22|med_/);
  });

  it('names a category the list lacks by its number, and a TikTok audience in words', () => {
    render(<PostSettings post={post({ category: '44', privacyLevel: 'PUBLIC_TO_EVERYONE' })} />);
    expect(document.body.textContent).toBe('CategoryCategory 44Who can see itPublic to everyone');
  });
});
