// The audit trail's sentences name networks and a post's state in words, as the rest of the dashboard does: never
// the codes the events' details carry (`instagram`, `queued`).
import { describe, expect, it } from 'vitest';
import { describeEvent } from './AuditPage.tsx';
import type { AuditEvent } from './settingsApi.ts';

const event = (action: AuditEvent['action'], detail: Record<string, unknown>): AuditEvent => ({
  id: 'aud_1',
  at: '2026-11-21T09:12:44.318Z',
  actor: { id: 'usr_1', name: 'Maya Lund', email: 'maya@acme.test' },
  action,
  detail,
});

describe('audit trail sentences', () => {
  it('says networks and post states in words', () => {
    const connected = { platform: 'instagram', accounts: ['Acme Shop'], reconnected: false };
    expect(describeEvent(event('account.connected', connected))).toBe('connected Instagram: Acme Shop');
    const disconnected = { accountId: 'acc_1', platform: 'facebook', name: 'Acme Café' };
    expect(describeEvent(event('account.disconnected', disconnected))).toBe('disconnected Facebook account Acme Café');
    const deleted = { postId: 'pst_1', status: 'queued', platform: 'threads', account: 'Acme', text: 'Hi' };
    expect(describeEvent(event('post.deleted', deleted))).toBe('deleted a scheduled post to Acme (Threads): "Hi"');
    const approved = { requestedBy: 'Ola', account: 'Acme', platform: 'bluesky', text: 'Hi', change: false };
    expect(describeEvent(event('post.approved', approved))).toBe('approved a post by Ola to Acme (Bluesky): "Hi"');
  });
});
