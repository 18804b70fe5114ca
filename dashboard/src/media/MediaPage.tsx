// The media library: folders, uploads (drag and drop or picker, progress per file), add from URL,
// the files of a folder, and the storage meter.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../api.ts';
import { bytesText } from '../format.ts';
import { useRefresh } from '../queries/refresh.ts';
import { Button, Empty, ErrorNote, Loading, PageHeader } from '../ui.tsx';
import { DropZone } from './DropZone.tsx';
import { FolderTree } from './FolderTree.tsx';
import { useFolders } from '../queries/folders.ts';
import { mediaKeys, useMediaPages } from '../queries/media.ts';
import { useWhoami, whoamiKeys } from '../queries/whoami.ts';
import { folderTree } from './library.ts';
import { MediaCard } from './MediaCard.tsx';
import { UploadList } from './UploadList.tsx';
import { useUploads } from './uploads.ts';

function StorageMeter() {
  const whoami = useWhoami();
  if (!whoami.data) return null;
  const { usedBytes, limitBytes } = whoami.data.usage.storage;
  return (
    <div className="meter">
      <label htmlFor="storage-meter">
        Storage: {bytesText(usedBytes)} of {bytesText(limitBytes)}
      </label>
      <meter id="storage-meter" min={0} max={limitBytes} value={usedBytes} high={limitBytes * 0.9} />
    </div>
  );
}

function FromUrl({ folderId }: { folderId: string | undefined }) {
  const refresh = useRefresh();
  const add = useMutation({
    mutationFn: (form: HTMLFormElement) =>
      call(
        api.POST('/media/from-url', {
          body: { url: String(new FormData(form).get('url')).trim(), ...(folderId ? { folderId } : {}) },
        }),
      ),
    onSuccess: (_, form) => {
      form.reset();
      return refresh(mediaKeys.lists);
    },
  });
  return (
    <form
      className="from-url"
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate(e.currentTarget);
      }}
    >
      <label htmlFor="from-url">Add from a web address</label>
      <div className="inline">
        <input id="from-url" name="url" type="url" placeholder="https://example.com/photo.jpg" required />
        <Button type="submit" busy={add.isPending}>
          Add
        </Button>
      </div>
      <ErrorNote error={add.error} />
    </form>
  );
}

export function MediaPage() {
  const refresh = useRefresh();
  const folders = useFolders();
  const tree = folderTree(folders.data ?? []);
  const [picked, setPicked] = useState<string>();
  const folderId = picked ?? tree[0]?.folder.id;
  const files = useMediaPages(folderId);
  const { uploads, start, retry } = useUploads(() => void refresh(mediaKeys.lists, whoamiKeys.all));
  const all = files.data?.pages.flatMap((p) => p.media) ?? [];
  const folderName = tree.find((t) => t.folder.id === folderId)?.folder.name;
  return (
    <>
      <PageHeader title="Media">
        <StorageMeter />
      </PageHeader>
      <div className="media-layout">
        <aside className="card">
          {folders.isPending ? (
            <Loading />
          ) : folders.isError ? (
            <ErrorNote error={folders.error} />
          ) : (
            <FolderTree tree={tree} selected={folderId} onSelect={setPicked} />
          )}
        </aside>
        <section className="card" aria-labelledby="files-h">
          <h2 id="files-h">{folderName ?? 'Files'}</h2>
          <DropZone onFiles={(f) => start(f, folderId)} />
          <UploadList uploads={uploads} onRetry={(u) => retry(u, folderId)} />
          <FromUrl folderId={folderId} />
          {files.isPending ? (
            <Loading label="Loading files" />
          ) : files.isError ? (
            <ErrorNote error={files.error} />
          ) : all.length === 0 ? (
            <Empty title="No files in this folder">
              Upload images or videos: they are checked and get a thumbnail in seconds.
            </Empty>
          ) : (
            <ul className="media-grid">
              {all.map((m) => (
                <MediaCard key={m.id} media={m} folders={tree} />
              ))}
            </ul>
          )}
          {files.hasNextPage && (
            <Button onClick={() => files.fetchNextPage()} busy={files.isFetchingNextPage}>
              Load more
            </Button>
          )}
        </section>
      </div>
    </>
  );
}
