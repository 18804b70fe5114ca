// One file of the library: thumbnail, name, size, duration, status (with the fail reason), pin, move, delete.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, call, type Folder, type Media } from '../api.ts';
import { bytesText, durationText } from '../format.ts';
import { accountListQuery } from '../queries/accounts.ts';
import { mediaKeys } from '../queries/media.ts';
import { useRefresh } from '../queries/refresh.ts';
import { whoamiKeys } from '../queries/whoami.ts';
import { Button, Confirm, ErrorNote } from '../ui.tsx';
import { MEDIA_STATUS_WORDS, mediaKindText } from '../words/statusWords.ts';
import { namedInUse } from './inUse.ts';

export function MediaThumb({ media }: { media: Media }) {
  return media.thumbnailUrl ? (
    <img className="thumb" src={media.thumbnailUrl} alt="" loading="lazy" />
  ) : (
    <span className="thumb thumb-empty" aria-hidden="true">
      {mediaKindText(media.kind)}
    </span>
  );
}

export function MediaCard({ media, folders }: { media: Media; folders: { folder: Folder; depth: number }[] }) {
  const refresh = useRefresh();
  const client = useQueryClient();
  const patch = useMutation({
    mutationFn: (body: { pinned?: boolean; folderId?: string }) =>
      call(api.PATCH('/media/{mediaId}', { params: { path: { mediaId: media.id } }, body })),
    onSuccess: () => refresh(mediaKeys.lists, mediaKeys.one(media.id)),
  });
  const change = (body: { pinned?: boolean; folderId?: string }) => patch.mutate(body);
  return (
    <li className="media-card">
      <div className="media-visual">
        <MediaThumb media={media} />
        {media.durationSeconds !== null && <span className="duration">{durationText(media.durationSeconds)}</span>}
        {media.pinned && <span className="pin-flag">Pinned</span>}
      </div>
      <p className="media-name" title={media.filename}>
        {media.filename}
      </p>
      <p className="muted small">
        {bytesText(media.size)}
        {media.width ? ` · ${media.width}×${media.height}` : ''} ·{' '}
        <span className={`status status-${media.status}`}>{MEDIA_STATUS_WORDS[media.status]}</span>
      </p>
      {media.failReason && <p className="small error-text">{media.failReason}</p>}
      {media.bytesDeletedAt && <p className="small muted">Bytes deleted after publishing; the record stays.</p>}
      <ErrorNote error={patch.error} />
      <div className="media-actions">
        <Button tone="ghost" onClick={() => change({ pinned: !media.pinned })} aria-pressed={media.pinned}>
          {media.pinned ? 'Unpin' : 'Pin'}
          <span className="sr-only"> {media.filename}</span>
        </Button>
        <label className="sr-only" htmlFor={`move-${media.id}`}>
          Move {media.filename} to folder
        </label>
        <select id={`move-${media.id}`} value={media.folderId} onChange={(e) => change({ folderId: e.target.value })}>
          {folders.map(({ folder, depth }) => (
            <option key={folder.id} value={folder.id}>
              {'\u00a0\u00a0'.repeat(depth)}
              {folder.name}
            </option>
          ))}
        </select>
        <Confirm
          trigger={
            <Button tone="ghost">
              Delete<span className="sr-only"> {media.filename}</span>
            </Button>
          }
          title={`Delete ${media.filename}?`}
          tone="danger"
          action="Delete file"
          description={
            <p>
              The file and its bytes are removed. A file used by a draft or queued post cannot be deleted until those
              posts are live or changed.
            </p>
          }
          onConfirm={async () => {
            await call(
              api.DELETE('/media/{mediaId}', { params: { path: { mediaId: media.id }, query: { confirm: true } } }),
            ).catch(async (err) => {
              throw await namedInUse(err, media.filename, await client.fetchQuery(accountListQuery()));
            });
            await refresh(mediaKeys.lists, whoamiKeys.all);
          }}
        />
      </div>
    </li>
  );
}
