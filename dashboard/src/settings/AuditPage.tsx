// Settings, audit trail: who did what and when, newest first (owners and administrators).
import { useInfiniteQuery } from '@tanstack/react-query';
import { auditTrailQuery } from '../queries/audit.ts';
import { timeText } from '../format.ts';
import { useSignedIn } from '../session.tsx';
import { Button, Empty, ErrorNote, Loading } from '../ui.tsx';
import { ROLE_LABEL, planLabel, type AuditEvent, type Role } from './settingsApi.ts';

const str = (v: unknown) => String(v ?? '');

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
      return `changed ${Object.entries(d)
        .map(([f, c]) => `${f} to ${str((c as { to?: unknown }).to)}`)
        .join(', ')}`;
    case 'account.connected':
      return (
        `${d.reconnected ? 'reconnected' : 'connected'} ${str(d.platform)}: ` +
        `${(d.accounts as string[] | undefined)?.join(', ')}`
      );
    case 'account.disconnected':
      return `disconnected ${str(d.platform)} account ${str(d.name)}`;
    case 'post.approved':
    case 'post.rejected': {
      const what = d.change ? 'a change' : 'a post';
      return (
        `${e.action === 'post.approved' ? 'approved' : 'rejected'} ${what} by ${str(d.requestedBy)} to ` +
        `${str(d.account)} (${str(d.platform)}): "${str(d.text)}"` +
        (d.comment ? `, saying "${str(d.comment)}"` : '')
      );
    }
    case 'post.deleted':
      return `deleted a ${str(d.status)} post to ${str(d.account)} (${str(d.platform)}): "${str(d.text)}"`;
    default:
      return e.action;
  }
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
          {events.map((e) => (
            <li key={e.id} className="row">
              <div className="row-main">
                <p>
                  <strong>{e.actor?.name ?? 'The operator'}</strong> {describeEvent(e)}
                </p>
                <p className="muted">
                  <time dateTime={e.at}>{timeText(e.at, workspace.tz)}</time>
                </p>
              </div>
            </li>
          ))}
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
