// One post in the list: a checkbox to select it beside one link (the rest of the row) to the post, holding its
// first file's thumbnail, its own heading, its network, account, time in the workspace zone and state in words.
import type { Post } from '../api.ts';
import { dayTimeText } from '../format.ts';
import { useMediaItem } from '../queries/media.ts';
import { MediaThumb } from '../media/MediaCard.tsx';
import { labelOf } from '../networks.ts';
import { NetworkMark } from '../NetworkMark.tsx';
import { Link } from 'react-router';
import { StatusBadge } from '../ui.tsx';
import { postHeading } from '../words/postWords.ts';

function FirstFile({ id }: { id: string }) {
  const media = useMediaItem(id).data;
  return media ? <MediaThumb media={media} /> : <span className="thumb thumb-empty" aria-hidden="true" />;
}

export function PostRow({
  post,
  accountName,
  zone,
  selected,
  onSelect,
}: {
  post: Post;
  accountName: string | undefined;
  zone: string;
  selected: boolean;
  onSelect: (on: boolean) => void;
}) {
  const heading = postHeading(post);
  const network = labelOf(post.platform);
  const when = post.publishAt ? dayTimeText(post.publishAt, zone) : 'no time set';
  return (
    <li className={`row post-row ${selected ? 'selected' : ''}`}>
      <input
        type="checkbox"
        className="post-select"
        checked={selected}
        onChange={(e) => onSelect(e.target.checked)}
        aria-label={`Select ${heading} (${network})`}
      />
      <Link className="post-link" to={`/posts/${post.id}`}>
        {post.mediaIds[0] ? (
          <FirstFile id={post.mediaIds[0]} />
        ) : (
          <span className="thumb thumb-empty" aria-hidden="true">
            Text
          </span>
        )}
        <span className="post-summary">
          <span className="row-title">{heading}</span>
          <span className="muted small">
            <NetworkMark platform={post.platform} decorative />{' '}
            {[network, accountName, when].filter(Boolean).join(' · ')}
          </span>
        </span>
        <StatusBadge status={post.status} />
      </Link>
    </li>
  );
}
