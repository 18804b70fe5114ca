// @vitest-environment happy-dom
// A failed post's page says why in the network's own words, quoted from the error's networkMessage.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { WhyItFailed } from './PostDetailPage.tsx';

afterEach(cleanup);

describe('why a post failed', () => {
  it('quotes the network’s own words from the post’s error', () => {
    const error = {
      code: 'threads_rejected',
      message: 'Threads answered: "The text is too long for a post."',
      hint: 'Change the post to meet Threads’s rules, then retry it.',
      networkMessage: 'The text is too long for a post.',
    };
    render(<WhyItFailed error={error} />);
    const note = screen.getByRole('alert');
    expect(note.querySelector('blockquote')?.textContent).toBe('The text is too long for a post.');
    expect(note.textContent).toContain('Why it failed');
    expect(note.textContent).not.toContain('threads_rejected');
  });
});
