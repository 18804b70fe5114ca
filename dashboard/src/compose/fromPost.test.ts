// Compose from a post: the form an edit or a duplicate starts from, the edit's body (a time only where it
// changes), and drafts that save whatever their plan says.
import { describe, expect, it } from 'vitest';
import type { Post, Schemas } from '../api.ts';
import { editBody, editModes, editPlan, formFromPost } from './fromPost.ts';
import { blockedByIssues } from './plan.ts';

const zone = 'Europe/Berlin';
const post: Post = {
  id: 'pst_1',
  accountId: 'acc_1',
  platform: 'instagram',
  status: 'queued',
  statusLine: 'Queued. Instagram · Acme Shop · 24 November, 14:30 (CET).',
  publishAt: '2026-11-24T13:30:00.000Z',
  text: 'Autumn sale',
  title: null,
  tags: ['autumn', 'sale'],
  mediaIds: ['med_1'],
  perPlatform: { contentType: 'feed' },
  batchId: 'bat_1',
  createdVia: 'dashboard',
  createdAt: '2026-11-21T09:12:44.318Z',
  updatedAt: '2026-11-21T09:12:44.318Z',
};
const request = (when: Schemas['When']): Schemas['PlanRequest'] => ({
  targets: { accountIds: ['acc_1'] },
  mediaIds: ['med_1'],
  text: 'Autumn sale, last days',
  tags: ['autumn'],
  when,
  perPlatform: { instagram: { contentType: 'feed' } },
  overrides: {},
});

describe('compose from a post', () => {
  it('fills an edit with the post, its time in the workspace zone', () => {
    const form = formFromPost(post, zone, 'edit');
    expect(form).toMatchObject({
      accountIds: ['acc_1'],
      mediaIds: ['med_1'],
      text: 'Autumn sale',
      tags: 'autumn, sale',
      settings: { instagram: { contentType: 'feed' } },
      when: { mode: 'at', date: '2026-11-24', time: '14:30' },
    });
    expect(formFromPost({ ...post, status: 'draft', publishAt: null }, zone, 'edit').when.mode).toBe('draft');
  });

  it('starts a duplicate at a new time, never the old one', () => {
    expect(formFromPost(post, zone, 'duplicate').when.date).not.toBe('2026-11-24');
  });

  it('sends a time only when it changes: a queued post keeps its own, a draft gets its first', () => {
    const original = formFromPost(post, zone, 'edit').when;
    const kept = editBody(post, request({ publishAt: '2026-11-24T14:30', timezone: zone }), original, original);
    expect(kept).toEqual({
      text: 'Autumn sale, last days',
      tags: ['autumn'],
      mediaIds: ['med_1'],
      perPlatform: { instagram: { contentType: 'feed' } },
      confirm: true,
    });
    const later = { ...original, time: '16:00' };
    expect(editBody(post, request({ publishAt: '2026-11-24T16:00', timezone: zone }), later, original).when).toEqual({
      publishAt: '2026-11-24T16:00',
      timezone: zone,
    });
    const draft = { ...post, status: 'draft' as const, publishAt: null };
    const draftForm = formFromPost(draft, zone, 'edit').when;
    expect(editBody(draft, request('draft'), draftForm, draftForm)).not.toHaveProperty('when');
    expect(editBody(draft, request('now'), { ...draftForm, mode: 'now' }, draftForm).when).toBe('now');
    expect(editBody(draft, request('queue'), { ...draftForm, mode: 'queue' }, draftForm).when).toBe('queue');
  });

  it('offers a failed post no time: it is sent again by retry', () => {
    expect(editModes({ status: 'failed' })).toEqual([]);
    expect(editModes({ status: 'queued' })).toEqual(['at', 'now']);
    expect(editModes({ status: 'draft' })).toEqual(['draft', 'at', 'queue', 'now']);
  });

  it('counts an edit toward the month only when it schedules a draft', () => {
    const plan = { quota: { used: 3, limit: 20, requested: 1 } };
    expect(editPlan(plan, { status: 'queued' }, 'at').quota.requested).toBe(0);
    expect(editPlan(plan, { status: 'failed' }, 'now').quota.requested).toBe(0);
    expect(editPlan(plan, { status: 'draft' }, 'at').quota.requested).toBe(1);
  });

  it("saves a draft whatever its plan's problems; only what is sent is blocked by them", () => {
    expect(blockedByIssues({ ok: false }, true)).toBe(false);
    expect(blockedByIssues({ ok: false }, false)).toBe(true);
    expect(blockedByIssues({ ok: true }, false)).toBe(false);
  });
});
