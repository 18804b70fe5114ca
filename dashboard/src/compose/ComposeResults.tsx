// What compose made: one row per post, each kept current by the post's own query (live updates make it stale when
// the post changes, so "Scheduled" becomes "Published" without a reload). The heading takes focus when the page
// appears, so a keyboard or screen reader user lands on the result, not on the page body.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import type { Schemas } from '../api.ts';
import { labelOf } from '../networks.ts';
import { useAccounts } from '../queries/accounts.ts';
import { postQuery } from '../queries/posts.ts';
import { useSignedIn } from '../session.tsx';
import { Button, FailureText } from '../ui.tsx';
import { postStateText } from '../words/postWords.ts';
import { STATUS_WORDS } from '../words/statusWords.ts';
import { failureWords } from '../words/words.ts';

type Created = Schemas['CreatePostsResponse']['posts'];

/**
 * Each post's state in the dashboard's words (the server's statusLine is a sentence for agents: a failed post's
 * carries the API's error message), a failed one's reason as the post page words it. Each link says which post it
 * opens (its network and account; its place until the post has loaded), no id.
 */
function ResultRow({ post, place }: { post: Created[number]; place: number }) {
  const zone = useSignedIn().workspace.tz;
  const current = useQuery(postQuery(post.id)).data;
  const account = useAccounts().data?.find((a) => a.id === current?.accountId)?.displayName;
  const name = current ? `the ${labelOf(current.platform)} post${account ? ` to ${account}` : ''}` : `post ${place}`;
  const error = current?.status === 'failed' ? current.error : undefined;
  return (
    <li className="row">
      <div className="row-main">
        <p>{current ? postStateText(current, account, zone) : STATUS_WORDS[post.status]}</p>
        {error && (
          <p className="error-text">
            <FailureText words={failureWords({ ...error, status: 0, body: error })} />
          </p>
        )}
      </div>
      <Link className="btn btn-ghost" to={`/posts/${post.id}`}>
        Open<span className="sr-only"> {name}</span>
      </Link>
    </li>
  );
}

export function ComposeResults({ posts, onAgain }: { posts: Created; onAgain: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="card" aria-labelledby="done-h">
      <h2 id="done-h" ref={heading} tabIndex={-1}>
        Done: {posts.length === 1 ? '1 post' : `${posts.length} posts`}
      </h2>
      <ul className="rows" aria-live="polite">
        {posts.map((p, i) => (
          <ResultRow key={p.id} post={p} place={i + 1} />
        ))}
      </ul>
      <div className="actions">
        <Button tone="primary" onClick={onAgain}>
          Compose another
        </Button>
        <Link className="btn btn-secondary" to="/calendar">
          See the calendar
        </Link>
      </div>
    </section>
  );
}
