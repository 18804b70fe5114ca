// @vitest-environment happy-dom
// Compose's draft in the tab's session storage: kept per person, per workspace and per thing composed while it holds
// a change, given back whole, forgotten once it matches the opened form or is saved, and an edit knows when its post
// changed since it was filled.
import { afterEach, describe, expect, it } from 'vitest';
import { changedSince, differs, draftKey, forgetDraft, keepDraft, readDraft, restoredForm } from './composeDraft.ts';
import { composeReducer, emptyForm } from './composeForm.ts';

const zone = 'Europe/Berlin';
const opened = emptyForm(zone);
const fresh = { userId: 'usr_1', workspaceId: 'ws_1', purpose: 'new' } as const;
const edit = { userId: 'usr_1', workspaceId: 'ws_1', purpose: 'edit', postId: 'pst_1' } as const;

afterEach(() => sessionStorage.clear());

function typed() {
  let form = composeReducer(opened, { type: 'toggleAccount', accountId: 'acc_1' });
  form = composeReducer(form, { type: 'toggleAccount', accountId: 'acc_2' });
  form = composeReducer(form, { type: 'set', values: { text: 'Autumn menu', mediaIds: ['med_1'], tags: 'soup' } });
  form = composeReducer(form, { type: 'override', platform: 'bluesky', text: 'Autumn menu, short' });
  return composeReducer(form, { type: 'set', values: { when: { ...form.when, mode: 'queue' } } });
}

describe("compose's kept draft", () => {
  it('gives back the typed form whole after the page is left, and only to the same thing composed', () => {
    const form = typed();
    keepDraft(sessionStorage, fresh, { form }, opened);
    expect(readDraft(sessionStorage, fresh)).toEqual({ form });
    expect(readDraft(sessionStorage, edit)).toBeUndefined();
    expect(readDraft(sessionStorage, { ...fresh, workspaceId: 'ws_2' })).toBeUndefined();
    // Another person signed in on this tab, in the same workspace, does not get what the first one typed.
    expect(readDraft(sessionStorage, { ...fresh, userId: 'usr_2' })).toBeUndefined();
    expect(restoredForm(readDraft(sessionStorage, fresh), opened, ['acc_1', 'acc_2'])).toEqual(form);
  });

  it('keeps nothing while the form is as it opened, and forgets a draft typed back to it', () => {
    keepDraft(sessionStorage, fresh, { form: opened }, opened);
    expect(sessionStorage.length).toBe(0);
    keepDraft(sessionStorage, fresh, { form: typed() }, opened);
    expect(sessionStorage.length).toBe(1);
    keepDraft(sessionStorage, fresh, { form: { ...opened } }, opened);
    expect(readDraft(sessionStorage, fresh)).toBeUndefined();
    expect(differs(typed(), opened)).toBe(true);
    expect(differs(JSON.parse(JSON.stringify(opened)), opened)).toBe(false);
  });

  it('forgets a saved or discarded draft, and one that cannot be read', () => {
    keepDraft(sessionStorage, fresh, { form: typed() }, opened);
    keepDraft(sessionStorage, edit, { form: typed(), base: '2026-11-29T10:00:00.000Z' }, opened);
    forgetDraft(sessionStorage, fresh);
    expect(readDraft(sessionStorage, fresh)).toBeUndefined();
    expect(readDraft(sessionStorage, edit)?.base).toBe('2026-11-29T10:00:00.000Z');
    sessionStorage.setItem(draftKey(fresh), '{"form": {"text": "cut sh');
    expect(readDraft(sessionStorage, fresh)).toBeUndefined();
    expect(sessionStorage.getItem(draftKey(fresh))).toBeNull();
  });

  it('drops accounts no longer connected from a restored draft, and opens as new without a draft', () => {
    const kept = { form: typed() };
    expect(restoredForm(kept, opened, ['acc_2', 'acc_3']).accountIds).toEqual(['acc_2']);
    expect(restoredForm(kept, opened, ['acc_2']).text).toBe('Autumn menu');
    expect(restoredForm(undefined, opened, ['acc_1'])).toBe(opened);
  });

  it("says when an edit's post changed after the form was filled from it", () => {
    const base = '2026-11-29T10:00:00.000Z';
    expect(changedSince({ base }, base)).toBeUndefined();
    expect(changedSince({ base }, '2026-11-29T10:05:00.000Z')).toBe('2026-11-29T10:05:00.000Z');
    expect(changedSince({}, '2026-11-29T10:05:00.000Z')).toBeUndefined();
  });
});
