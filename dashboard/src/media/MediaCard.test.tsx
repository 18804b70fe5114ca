// @vitest-environment happy-dom
// A file of the library says its state in words ("could not be processed"), never the contract's status code, and
// its kind as a word ("Photo") where it has no thumbnail yet, never the contract's `image` or `video`.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Folder, Media } from '../api.ts';
import { MediaCard, MediaThumb } from './MediaCard.tsx';

afterEach(cleanup);

const folder = { id: 'fld_1', name: 'All files', parentId: null } as unknown as Folder;
const file = (status: Media['status']) =>
  ({
    id: 'med_1',
    status,
    kind: 'video',
    filename: 'teaser.mp4',
    size: 2_000_000,
    folderId: 'fld_1',
    pinned: false,
    width: null,
    height: null,
    durationSeconds: null,
    thumbnailUrl: null,
    bytesDeletedAt: null,
  }) as unknown as Media;

describe('a file of the library', () => {
  it.each([
    ['processing', 'being processed'],
    ['failed', 'could not be processed'],
    ['uploading', 'uploading'],
  ] as const)('says a %s file is %s', (status, words) => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <ul>
          <MediaCard media={file(status)} folders={[{ folder, depth: 0 }]} />
        </ul>
      </QueryClientProvider>,
    );
    const state = document.querySelector('.status')!;
    expect(state.textContent).toBe(words);
  });
});

describe("a file's thumbnail", () => {
  it.each([
    ['image', 'Photo'],
    ['video', 'Video'],
    [null, 'File'],
  ] as const)('says a file of kind %s is a %s until its thumbnail exists', (kind, words) => {
    render(<MediaThumb media={{ ...file('processing'), kind } as Media} />);
    expect(document.querySelector('.thumb-empty')!.textContent).toBe(words);
  });
});
