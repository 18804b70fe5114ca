// Settings, audit trail: who did what and when, newest first (owners and administrators). A run of one person's
// same action (a bulk delete) is one line with its count, opened to show each.
import { useInfiniteQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { NETWORKS } from '../networks.ts';
import { auditTrailQuery } from '../queries/audit.ts';
import { timeText } from '../format.ts';
import { useSignedIn } from '../session.tsx';
import { Button, Empty, ErrorNote, Loading } from '../ui.tsx';
import { auditLines, runWords, settingsChanged } from '../words/auditWords.ts';
import { STATUS_WORDS } from '../words/statusWords.ts';
import { ROLE_LABEL, planLabel, type AuditEvent, type Role } from './settingsApi.ts';

const str = (v: unknown) => String(v ?? '');
/** The network's name ("Instagram") for the platform a detail records. */
const network = (v: unknown) => NETWORKS.find((n) => n.platform === v)?.label ?? 'a network';
/** A post's state as the dashboard says it ("scheduled"), for the status a detail records. */
const state = (v: unknown) => (STATUS_WORDS as Record<string, string>)[str(v)]?.toLowerCase() ?? '';

/** " and revoked their 2 API key(s) and 1 …" for the counts above zero; '' when none. */
function revoked(counts: [unknown, string][]): string {
  const parts = counts.filter(([n]) => Number(n) > 0).map(([n, what]) => `${str(n)} ${what}`);
  return parts.length ? ` and revoked their ${parts.join(' and ')}` : '';
}

/** One sentence per action, from the event's detail. */
export function describeEvent(e: AuditEvent): string {
  const d = e.detail;
  switch (e.action) {
    case 'key.created':
      return (
        `created the API key ${str(d.name)} (${str(d.prefix)}…, ` +
        `${(d.scopes as string[] | undefined)?.join(' and ')})`
      );
    case 'key.revoked':
      return `revoked the API key ${str(d.name)} (${str(d.prefix)}…)`;
    case 'member.invited':
      return `invited ${str(d.email)} as ${ROLE_LABEL[d.role as Role] ?? str(d.role)}`;
    case 'invite.cancelled':
      return `withdrew the invitation of ${str(d.email)}`;
    case 'member.joined':
      return `joined as ${ROLE_LABEL[d.role as Role] ?? str(d.role)}`;
    case 'member.role_changed':
      return `changed the role of ${str(d.name)} from ${str(d.from)} to ${str(d.to)}`;
    case 'member.removed':
      return `removed ${str(d.name)}${revoked([
        [d.keysRevoked, 'API key(s)'],
        [d.grantsRevoked, 'connected MCP client(s)'],
      ])}`;
    case 'ownership.transferred':
      return `made ${str(d.name)} the owner`;
    case 'plan.changed':
      return `changed the plan from ${planLabel(str(d.from))} to ${planLabel(str(d.to))}`;
    case 'workspace.updated':
      return settingsChanged(d);
    case 'account.connected':
      return (
        `${d.reconnected ? 'reconnected' : 'connected'} ${network(d.platform)}: ` +
        `${(d.accounts as string[] | undefined)?.join(', ')}`
      );
    case 'account.disconnected':
      return `disconnected ${network(d.platform)} account ${str(d.name)}`;
    case 'post.approved':
    case 'post.rejected': {
      const what = d.change ? 'a change' : 'a post';
      return (
        `${e.action === 'post.approved' ? 'approved' : 'rejected'} ${what} by ${str(d.requestedBy)} to ` +
        `${str(d.account)} (${network(d.platform)}): "${str(d.text)}"` +
        (d.comment ? `, saying "${str(d.comment)}"` : '')
      );
    }
    case 'post.deleted':
      return `deleted a ${state(d.status)} post to ${str(d.account)} (${network(d.platform)}): "${str(d.text)}"`;
    default:
      return e.action;
  }
}

/** One line of the trail: who, what, when (a run's newest time), and what a run holds. */
function AuditRow({
  event,
  what,
  zone,
  children,
}: {
  event: AuditEvent;
  what: string;
  zone: string;
  children?: ReactNode;
}) {
  return (
    <li className="row">
      <div className="row-main">
        <p>
          <strong>{event.actor?.name ?? 'The operator'}</strong> {what}
        </p>
        <p className="muted">
          <time dateTime={event.at}>{timeText(event.at, zone)}</time>
        </p>
        {children}
      </div>
    </li>
  );
}

export function AuditPage() {
  const { workspace } = useSignedIn();
  const trail = useInfiniteQuery(auditTrailQuery());
  if (trail.isPending) return <Loading label="Loading the audit trail" />;
  if (trail.isError) return <ErrorNote error={trail.error} />;
  const events = trail.data.pages.flatMap((p) => p.events);
  return (
    <section className="card" aria-labelledby="audit-title">
      <h2 id="audit-title">Audit trail</h2>
      {events.length === 0 ? (
        <Empty title="Nothing recorded yet">Keys, members, plan and account changes appear here.</Empty>
      ) : (
        <ul className="rows">
          {auditLines(events).map((line) =>
            line.kind === 'one' ? (
              <AuditRow key={line.event.id} event={line.event} what={describeEvent(line.event)} zone={workspace.tz} />
            ) : (
              <AuditRow
                key={line.events[0]!.id}
                event={line.events[0]!}
                what={runWords(line.events)}
                zone={workspace.tz}
              >
                <details>
                  <summary>Show each of the {line.events.length}</summary>
                  <ul>
                    {line.events.map((e) => (
                      <li key={e.id}>{describeEvent(e)}</li>
                    ))}
                  </ul>
                </details>
              </AuditRow>
            ),
          )}
        </ul>
      )}
      {trail.hasNextPage && (
        <Button onClick={() => trail.fetchNextPage()} busy={trail.isFetchingNextPage}>
          Older events
        </Button>
      )}
    </section>
  );
}
