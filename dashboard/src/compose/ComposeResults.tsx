// What compose made: one row per post, each kept current by the post's own query (live updates make it stale when
// the post changes, so "Queued" becomes "Live" without a reload). The heading takes focus when the page appears, so
// a keyboard or screen reader user lands on the result, not on the page body.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import type { Schemas } from '../api.ts';
import { postQuery } from '../queries/posts.ts';
import { Button } from '../ui.tsx';

type Created = Schemas['CreatePostsResponse']['posts'];

function ResultRow({ post }: { post: Created[number] }) {
  const current = useQuery(postQuery(post.id)).data;
  return (
    <li className="row">
      <div className="row-main">
        <p>{current?.statusLine ?? post.statusLine}</p>
      </div>
      <Link className="btn btn-ghost" to={`/posts/${post.id}`}>
        Open<span className="sr-only"> post {post.id}</span>
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
        {posts.map((p) => (
          <ResultRow key={p.id} post={p} />
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
