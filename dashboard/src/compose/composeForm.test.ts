// Compose's form model: each change gives a new form and leaves the rest as it was, and a form survives JSON whole
// (a form kept in the tab's storage comes back as it was left).
import { describe, expect, it } from 'vitest';
import { composeReducer, emptyForm } from './composeForm.ts';

const zone = 'Europe/Berlin';

describe('the compose form', () => {
  it('picks and unpicks accounts, and keeps a network text apart from the main text until it is dropped', () => {
    const start = { ...emptyForm(zone), text: 'Autumn sale' };
    let form = composeReducer(start, { type: 'toggleAccount', accountId: 'acc_1' });
    form = composeReducer(form, { type: 'toggleAccount', accountId: 'acc_2' });
    form = composeReducer(form, { type: 'toggleAccount', accountId: 'acc_1' });
    expect(form.accountIds).toEqual(['acc_2']);
    form = composeReducer(form, { type: 'override', platform: 'bluesky', text: 'Autumn sale, 20% off' });
    form = composeReducer(form, { type: 'set', values: { text: 'Winter sale' } });
    expect(form.overrides).toEqual({ bluesky: 'Autumn sale, 20% off' });
    expect(form.text).toBe('Winter sale');
    form = composeReducer(form, { type: 'dropOverride', platform: 'bluesky' });
    expect(form.overrides).toEqual({});
    expect(start.accountIds).toEqual([]);
  });

  it('comes back from JSON as it was', () => {
    let form = composeReducer(emptyForm(zone), { type: 'set', values: { mediaIds: ['med_1'], tags: 'autumn, sale' } });
    form = composeReducer(form, { type: 'override', platform: 'youtube', text: 'Long description' });
    expect(JSON.parse(JSON.stringify(form))).toEqual(form);
  });
});
