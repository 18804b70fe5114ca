// The audit trail in words: a workspace setting's change said as what now holds, keyed by the setting's name, and
// runs of one person's same action (a bulk delete: one request per post) read as one line with their count.
import type { Schemas } from '../api.ts';
import type { AuditEvent } from '../settings/settingsApi.ts';
import { APPROVAL_CREATOR_LABEL } from './approvalWords.ts';
import { zoneName } from './zoneWords.ts';

type Creator = keyof typeof APPROVAL_CREATOR_LABEL;
/** The workspace settings the server records a change of (db/workspaceSettings.ts). */
type Setting = keyof Pick<Schemas['Workspace'], 'name' | 'slug' | 'tz' | 'currency' | 'approvalRequiredFor'>;

/** "a", "a and b", "a, b and c". */
const listed = (items: string[]) =>
  items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

/** What holds after a setting changed, by the setting's name: "posts by members now need approval". */
export const SETTING_CHANGE_WORDS: Record<Setting, (to: unknown) => string> = {
  name: (to) => `the workspace is now called “${String(to)}”`,
  slug: (to) => `its short name in links is now ${String(to)}`,
  tz: (to) => `times are now shown in ${zoneName(String(to))}`,
  currency: (to) => `prices are now in ${String(to)}`,
  approvalRequiredFor: (to) => {
    const creators = (Array.isArray(to) ? to : []) as Creator[];
    if (!creators.length) return 'no post needs approval now';
    const labels = creators.map((c) => APPROVAL_CREATOR_LABEL[c].replace(/^P/, 'p'));
    return `${listed(labels)} now need approval`;
  },
};

/** "changed the settings: posts by members now need approval", from a `workspace.updated` event's detail. */
export function settingsChanged(detail: Record<string, unknown>): string {
  const said = Object.entries(detail).map(([setting, change]) => {
    const words = SETTING_CHANGE_WORDS[setting as Setting];
    return words ? words((change as { to?: unknown }).to) : 'another setting changed';
  });
  return `changed the settings: ${said.join('; ')}`;
}

/** Actions done to many things at once (the dashboard's bulk actions send one request per post). */
const RUN_ACTIONS: AuditEvent['action'][] = ['post.deleted', 'post.approved', 'post.rejected'];
/** Events of one run lie at most this far apart. */
const RUN_GAP_MS = 2 * 60_000;

/** One line of the trail: an event, or a run of one person's same action, newest first. */
export type AuditLine = { kind: 'one'; event: AuditEvent } | { kind: 'run'; events: AuditEvent[] };

/** Groups neighbouring events (newest first) of one person's same bulk-able action, each close to the next. */
export function auditLines(events: AuditEvent[]): AuditLine[] {
  const lines: AuditLine[] = [];
  for (const event of events) {
    const last = lines.at(-1);
    const prev = last && (last.kind === 'one' ? last.event : last.events.at(-1)!);
    const joins =
      prev &&
      RUN_ACTIONS.includes(event.action) &&
      event.action === prev.action &&
      event.actor?.id === prev.actor?.id &&
      Date.parse(prev.at) - Date.parse(event.at) <= RUN_GAP_MS;
    if (!joins) lines.push({ kind: 'one', event });
    else if (last!.kind === 'run') last!.events.push(event);
    else lines[lines.length - 1] = { kind: 'run', events: [prev!, event] };
  }
  return lines;
}

const RUN_WORDS: Partial<Record<AuditEvent['action'], (n: number) => string>> = {
  'post.deleted': (n) => `deleted ${n} posts`,
  'post.approved': (n) => `approved ${n} posts`,
  'post.rejected': (n) => `rejected ${n} posts`,
};

/** "deleted 31 posts": a run's line, before its events are shown one by one. */
export const runWords = (events: AuditEvent[]) => RUN_WORDS[events[0]!.action]!(events.length);
