// One post: a preview as its network will show it, its state in words, its link once live,
// the error with its hint, the timeline of events, analytics counters, and the actions.
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { Failure, type Post, type Schemas } from '../api.ts';
import { dayTimeText } from '../format.ts';
import { labelOf } from '../networks.ts';
import { useAccounts } from '../queries/accounts.ts';
import { postAnalyticsQuery, postEventsQuery, postQuery } from '../queries/posts.ts';
import { NetworkPreview, previewOfPost } from '../previews/NetworkPreview.tsx';
import { useSignedIn } from '../session.tsx';
import { ErrorNote, FailureText, Loading, PageHeader, StatusBadge } from '../ui.tsx';
import { eventWords } from '../words/eventWords.ts';
import { postMetricLines, unnamedMetricsText } from '../words/metricWords.ts';
import { APPROVAL_WORDS } from '../words/approvalWords.ts';
import { PREVIEW_WORDS } from '../words/previewWords.ts';
import { postStateText, shownPrivatelyText } from '../words/postWords.ts';
import { failureWords } from '../words/words.ts';
import { PostActions } from './postActions.tsx';
import { PostSettings } from './PostSettings.tsx';

function Timeline({ postId, platform, zone }: { postId: string; platform: Post['platform']; zone: string }) {
  const events = useQuery(postEventsQuery(postId));
  if (events.isPending) return <Loading label="Loading the timeline" />;
  if (events.isError) return <ErrorNote error={events.error} />;
  return (
    <ol className="timeline">
      {events.data.map((e) => (
        <li key={e.id} className={`event event-${e.kind}`}>
          <p>
            <strong>{eventWords(e, platform, zone)}</strong>{' '}
            <time dateTime={e.at} className="muted">
              {dayTimeText(e.at, zone)}
            </time>
          </p>
          {e.error && <EventError error={e.error} />}
          {e.notes?.map((n, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: an event's notes have no id and never reorder.
            <p key={i} className="muted small">
              {n}
            </p>
          ))}
        </li>
      ))}
    </ol>
  );
}

/** A failure on the timeline, in the same words as the post's own error. */
function EventError({ error }: { error: NonNullable<Schemas['PostEvent']['error']> }) {
  const words = failureWords({ ...error, status: 0, body: error });
  return (
    <p className="error-text">
      <FailureText words={words} />
    </p>
  );
}

/** A failed post's error, quoting the network's own words (its `networkMessage`) as the timeline does. */
export function WhyItFailed({ error }: { error: NonNullable<Post['error']> }) {
  return <ErrorNote error={new Failure(error.code, error.message, error.hint, 0, error)} title="Why it failed" />;
}

/** A live post's counters, named from the contract's metric names (metricWords.ts); one without words is counted. */
function Analytics({ postId, platform }: { postId: string; platform: Post['platform'] }) {
  const stats = useQuery(postAnalyticsQuery(postId));
  if (stats.isPending) return <Loading label="Loading counters" />;
  if (stats.isError) return <ErrorNote error={stats.error} />;
  const { lines, unnamed } = postMetricLines(stats.data.metrics as Record<string, number>);
  if (lines.length === 0 && unnamed === 0) return <p className="muted">No counters yet.</p>;
  return (
    <>
      {lines.length > 0 && (
        <dl className="metrics">
          {lines.map((line) => (
            <div key={line.name}>
              <dt>{line.label}</dt>
              <dd>{line.value}</dd>
            </div>
          ))}
        </dl>
      )}
      {unnamed > 0 && <p className="muted small">{unnamedMetricsText(unnamed, platform)}</p>}
    </>
  );
}

export function PostDetailPage() {
  const { postId = '' } = useParams();
  const { workspace } = useSignedIn();
  const accounts = useAccounts();
  const post = useQuery(postQuery(postId));
  if (post.isPending) return <Loading />;
  if (post.isError)
    return (
      <>
        <PageHeader title="Post" />
        <ErrorNote error={post.error} />
        <p>
          <Link to="/posts">Back to posts</Link>
        </p>
      </>
    );
  const p = post.data;
  const account = accounts.data?.find((a) => a.id === p.accountId)?.displayName;
  const accountName = account ?? labelOf(p.platform);
  return (
    <>
      <PageHeader title={`Post to ${accountName}`}>
        <StatusBadge status={p.status} />
      </PageHeader>
      <div className="detail">
        <div className="stack">
          <section className="card" aria-labelledby="status-h">
            <h2 id="status-h">Status</h2>
            {/* Not the server's statusLine: a sentence for agents, a failed post's carrying the API's error message.
                A failed post's reason is its error's words, below (WhyItFailed). */}
            <p className="status-line">{postStateText(p, account, workspace.tz)}</p>
            {p.shownPrivately && <p className="warning-text">{shownPrivatelyText(p.platform)}</p>}
            {p.pendingChange && (
              <p className="note" role="status">
                {APPROVAL_WORDS.changeWaits(p.pendingChange.requestedBy)}
              </p>
            )}
            <PostSettings post={p} />
            {p.externalUrl && (
              <p>
                <a href={p.externalUrl} target="_blank" rel="noreferrer">
                  Open on {labelOf(p.platform)}
                </a>
              </p>
            )}
            {p.error && <WhyItFailed error={p.error} />}
            <PostActions post={p} zone={workspace.tz} />
          </section>
          <section className="card" aria-labelledby="timeline-h">
            <h2 id="timeline-h">Timeline</h2>
            <Timeline postId={p.id} platform={p.platform} zone={workspace.tz} />
          </section>
          {p.status === 'live' && (
            <section className="card" aria-labelledby="stats-h">
              <h2 id="stats-h">Counters</h2>
              <Analytics postId={p.id} platform={p.platform} />
            </section>
          )}
        </div>
        <section aria-labelledby="preview-h">
          <h2 id="preview-h" className="sr-only">
            Preview
          </h2>
          <NetworkPreview
            live={p.status === 'live'}
            post={previewOfPost(
              p,
              accountName,
              p.publishAt ? dayTimeText(p.publishAt, workspace.tz) : PREVIEW_WORDS.when.draft,
            )}
          />
        </section>
      </div>
    </>
  );
}
