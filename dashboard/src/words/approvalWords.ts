// Approvals in the dashboard's words: whose posts wait, and what a decision did.
import type { Schemas } from '../api.ts';
import { dayTimeText } from '../format.ts';

export const APPROVAL_CREATOR_LABEL: Record<Schemas['Workspace']['approvalRequiredFor'][number], string> = {
  members: 'Posts by members',
  apiKeys: 'Posts made with API keys',
  mcpClients: 'Posts made by AI assistants (MCP)',
};

export const APPROVAL_WORDS = {
  title: 'Approvals',
  settingLegend: 'Posts that need approval',
  settingHint:
    'These posts wait as drafts until an owner or administrator approves them here in the dashboard; nothing is ' +
    'published before.',
  empty: 'Nothing waits for approval.',
  emptyHint: 'Posts that need approval appear here when someone creates them.',
  approve: 'Approve',
  reject: 'Reject',
  approveSelected: (n: number) => `Approve ${n} selected`,
  rejectSelected: (n: number) => `Reject ${n} selected`,
  comment: 'Comment for the person who asked (optional)',
  newTime: 'New time (the one asked for has passed)',
  asked: (who: string, when: string) => `Asked by ${who}, ${when}.`,
  wanted: (when: string | null) => (when ? `Wanted for ${when}.` : 'Wanted as soon as it is approved.'),
  approved: (n: number) => (n === 1 ? 'Approved: the post is scheduled.' : `Approved ${n} posts: they are scheduled.`),
  rejected: (n: number) => (n === 1 ? 'Rejected: the post stays a draft.' : `Rejected ${n} posts: they stay drafts.`),
  select: (account: string) => `Select the post to ${account}`,
} as const;

/** "today at 14:30 CET" for an instant, or null. */
export const approvalTime = (iso: string | null, zone: string) => (iso ? dayTimeText(iso, zone) : null);
