// The media library: folders, uploads (drag and drop or picker, progress per file), add from URL,
// the files of a folder, and the storage meter.
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, call } from '../api.ts';
import { bytesText } from '../format.ts';
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
  const client = useQueryClient();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    setBusy(true);
    setError(undefined);
    try {
      await call(
        api.POST('/media/from-url', {
          body: { url: String(new FormData(form).get('url')).trim(), ...(folderId ? { folderId } : {}) },
        }),
      );
      form.reset();
      await client.invalidateQueries({ queryKey: mediaKeys.lists });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="from-url" onSubmit={submit}>
      <label htmlFor="from-url">Add from a web address</label>
      <div className="inline">
        <input id="from-url" name="url" type="url" placeholder="https://example.com/photo.jpg" required />
        <Button type="submit" busy={busy}>
          Add
        </Button>
      </div>
      <ErrorNote error={error} />
    </form>
  );
}

export function MediaPage() {
  const client = useQueryClient();
  const folders = useFolders();
  const tree = folderTree(folders.data ?? []);
  const [picked, setPicked] = useState<string>();
  const folderId = picked ?? tree[0]?.folder.id;
  const files = useMediaPages(folderId);
  const { uploads, start, retry } = useUploads(() => {
    void client.invalidateQueries({ queryKey: mediaKeys.lists });
    void client.invalidateQueries({ queryKey: whoamiKeys.all });
  });
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
