// perPlatform settings against the contract's schema of each network's settings: a wrong value is the
// row issue setting_invalid naming the field, and the network's own check sees only the settings that passed.
import { describe, expect, it } from 'vitest';
import { checkSettingsShape, SETTINGS_SCHEMAS } from '../../networks/settingsCheck.ts';
import { loadContract } from '../../runtime/contract.ts';

describe('perPlatform settings keyed by network identifier, checked against the contract', () => {
  it('has a settings schema in the contract for every network', () => {
    const schemas = (loadContract().components as { schemas: Record<string, unknown> }).schemas;
    for (const [platform, name] of Object.entries(SETTINGS_SCHEMAS)) expect(schemas[name], platform).toBeDefined();
  });

  it('passes valid settings through unchanged', () => {
    const settings = { visibility: 'unlisted', category: '22' };
    expect(checkSettingsShape('youtube', settings)).toEqual({ issues: [], valid: settings });
  });

  it('names each failing setting and hands on only the others', () => {
    const { issues, valid } = checkSettingsShape('youtube', { visibility: 5, category: '22', colour: 'red' });
    expect(issues.map((i) => [i.code, i.message])).toEqual([
      ['setting_invalid', 'perPlatform.youtube.colour is not a youtube setting.'],
      ['setting_invalid', 'perPlatform.youtube.visibility must be string.'],
    ]);
    expect(issues[0]!.hint).toMatch(/^Remove it; youtube settings are: .*visibility/);
    expect(valid).toEqual({ category: '22' });
  });

  it.each([
    ['a string', 'public'],
    ['a list', ['public']],
    ['null', null],
  ])('refuses %s in place of the settings object', (_what, settings) => {
    const { issues, valid } = checkSettingsShape('youtube', settings);
    expect(issues.map((i) => i.code)).toEqual(['setting_invalid']);
    expect(issues[0]!.message).toMatch(/^perPlatform\.youtube /);
    expect(issues[0]!.hint).toBe('Give perPlatform.youtube as an object of settings.');
    expect(valid).toEqual({});
  });
});
