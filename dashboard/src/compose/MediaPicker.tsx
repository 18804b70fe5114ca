// The files of a post: picked from the library (a dialog) or uploaded here, in the order they will appear.
import { useState } from 'react';
import type { Media } from '../api.ts';
import { DropZone } from '../media/DropZone.tsx';
import { useMediaItem, useMediaPages } from '../queries/media.ts';
import { MediaThumb } from '../media/MediaCard.tsx';
import { UploadList } from '../media/UploadList.tsx';
import { useUploads } from '../media/uploads.ts';
import { Button, Dialog, Empty, ErrorNote, Loading, opening } from '../ui.tsx';
import { MEDIA_STATUS_WORDS } from '../words/statusWords.ts';

/**
 * A picked file by its name; never by its id, while it loads or once it cannot be read (deleted since a draft kept
 * in the tab picked it).
 */
function Picked({ id, onRemove }: { id: string; onRemove: () => void }) {
  const item = useMediaItem(id);
  const media = item.data;
  const name = media?.filename ?? (item.isError ? 'A file no longer in the library' : 'A file (loading)');
  return (
    <li className="picked">
      {media ? <MediaThumb media={media} /> : <span className="thumb thumb-empty" aria-hidden="true" />}
      <span className="small">
        {name}
        {media && media.status !== 'ready' ? ` · ${MEDIA_STATUS_WORDS[media.status]}` : ''}
      </span>
      <Button tone="ghost" onClick={onRemove}>
        Remove<span className="sr-only"> {name}</span>
      </Button>
    </li>
  );
}

function Library({ chosen, onChoose }: { chosen: string[]; onChoose: (m: Media) => void }) {
  const pages = useMediaPages(undefined);
  const all = pages.data?.pages.flatMap((p) => p.media).filter((m) => m.status !== 'failed' && !m.bytesDeletedAt) ?? [];
  if (pages.isPending) return <Loading label="Loading files" />;
  if (pages.isError) return <ErrorNote error={pages.error} />;
  if (all.length === 0)
    return <Empty title="The library is empty">Upload files from the compose page or the Media page.</Empty>;
  return (
    <>
      <ul className="media-grid pick-grid">
        {all.map((m) => (
          <li key={m.id}>
            <button type="button" className="pick" aria-pressed={chosen.includes(m.id)} onClick={() => onChoose(m)}>
              <MediaThumb media={m} />
              <span className="small">{m.filename}</span>
            </button>
          </li>
        ))}
      </ul>
      {pages.hasNextPage && <Button onClick={() => pages.fetchNextPage()}>Load more</Button>}
    </>
  );
}

export function MediaPicker({ value, onChange }: { value: string[]; onChange: (ids: string[]) => void }) {
  // Open: the button that opened it, where focus goes back on close.
  const [opener, setOpener] = useState<HTMLElement>();
  const { uploads, start, retry } = useUploads((id) => onChange([...value.filter((v) => v !== id), id]));
  const toggle = (m: Media) => onChange(value.includes(m.id) ? value.filter((v) => v !== m.id) : [...value, m.id]);
  return (
    <fieldset className="media-picker">
      <legend>Media</legend>
      {value.length > 0 && (
        <ol className="picked-list">
          {value.map((id) => (
            <Picked key={id} id={id} onRemove={() => onChange(value.filter((v) => v !== id))} />
          ))}
        </ol>
      )}
      <div className="inline wrap">
        {opening(<Button>Choose from library</Button>, Boolean(opener), setOpener)}
        {opener && (
          <Dialog
            title="Choose files"
            description="Pick files in the order they should appear; pick again to remove."
            wide
            opener={opener}
            onClose={() => setOpener(undefined)}
          >
            <Library chosen={value} onChoose={toggle} />
            <div className="dialog-actions">
              <Button tone="primary" onClick={() => setOpener(undefined)}>
                Done
              </Button>
            </div>
          </Dialog>
        )}
      </div>
      <DropZone compact onFiles={(f) => start(f)} />
      <UploadList uploads={uploads} onRetry={(u) => retry(u)} />
    </fieldset>
  );
}
