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
  emptyHint: 'Posts that need approval, and changes to scheduled posts, appear here when someone asks.',
  approve: 'Approve',
  reject: 'Reject',
  newTime: 'New time (the one asked for has passed)',
  asked: (who: string, when: string) => `Asked by ${who}, ${when}.`,
  /** A new post's interface, after the name of the person whose key or grant asked. */
  via: { api: ' with an API key', mcp: ' through an AI assistant (MCP)', dashboard: '' },
  wanted: (when: string | null) => (when ? `Wanted for ${when}.` : 'Wanted as soon as it is approved.'),
  approved: (n: number) => (n === 1 ? 'Approved: the post is scheduled.' : `Approved ${n} posts: they are scheduled.`),
  rejected: (n: number) => (n === 1 ? 'Rejected: the post stays a draft.' : `Rejected ${n} posts: they stay drafts.`),
  newPost: 'New post',
  changeOf: 'Change to a scheduled post',
  /** A change's time: now, moved, or the post's own. */
  asksNow: (stays: string) => `Asks to publish it now; until it is approved it stays at ${stays}.`,
  asksMove: (from: string, to: string) => `Asks to move it from ${from} to ${to}.`,
  keepsTime: (at: string) => `Keeps its time: ${at}.`,
  whatChanges: 'What changes',
  textChange: 'Text',
  removedText: 'removed',
  addedText: 'added',
  titleChange: (from: string, to: string) => `Title: "${from}" becomes "${to}".`,
  tagsChange: (tags: string) => (tags ? `Tags become: ${tags}.` : 'Tags removed.'),
  settingsChange: (network: string) => `${network} settings change (shown in the preview).`,
  filesAdded: (names: string) => `Files added: ${names}.`,
  filesRemoved: (names: string) => `Files removed: ${names}.`,
  files: (names: string) => `Files: ${names}.`,
  noFiles: 'No files: a text post.',
  previewAfter: 'As it will look once approved',
  comment: 'Comment for the person who asked (optional)',
  changeApproved: 'Approved: the change is applied to the scheduled post.',
  changeRejected: 'Rejected: the change was dropped; the post stays as it was.',
  changeWaits: (who: string) =>
    `A change asked by ${who} waits for approval: the post stays as it is, at its time, until an owner or ` +
    'administrator approves it on the Approvals page.',
  /** The menu's count of what waits, for screen readers. */
  waiting: (n: number) => `${n} waiting`,
} as const;

/**
 * A member's change to a scheduled post that needs approval, in the words of the dialog or button that asks: what is
 * asked, and that the post stays as it is at its time until an owner or administrator approves.
 */
export const ASK_WORDS = {
  publishTitle: 'Ask to publish this post now?',
  publishAction: 'Ask to publish now',
  moveTitle: 'Ask to move this post?',
  moveAction: (time: string) => `Ask to move to ${time}`,
  editAction: 'Ask for approval of the changes',
  stays: (time: string) =>
    `Your changes to scheduled posts need approval: until an owner or administrator approves, the post stays as it ` +
    `is and keeps its time, ${time}.`,
  staysBoth:
    'Your changes to scheduled posts need approval: until an owner or administrator approves, both posts stay as ' +
    'they are, at their times.',
  waiting: (time: string) => `Your change waits for approval; until it is approved the post keeps its time, ${time}.`,
} as const;

/** "today at 14:30 CET" for an instant, or null. */
export const approvalTime = (iso: string | null, zone: string) => (iso ? dayTimeText(iso, zone) : null);
