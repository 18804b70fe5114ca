// Each network's declared textLimits (what the dashboard's live counters show) are the limits its
// check() applies, in the same unit: a text at the limit passes and one unit more is refused; likewise the
// choices it offers for settings are the values check() accepts.
import { describe, expect, it } from 'vitest';
import * as units from '../domain/textUnits.ts';
import { NETWORKS } from '../networks/index.ts';
import type { PostContent, TextLimit } from '../networks/rules.ts';

/** Exactly `n` units: mostly 👍, which every unit counts differently, padded with a. */
function textOf(unit: TextLimit['unit'], n: number): string {
  const thumb = units[unit]('👍');
  const text = '👍'.repeat(Math.floor(n / thumb)) + 'a'.repeat(n % thumb);
  expect(units[unit](text)).toBe(n);
  return text;
}

const post = (field: TextLimit['field'], text: string): PostContent => ({
  text: field === 'text' ? text : 'Hello',
  title: field === 'title' ? text : 'A title',
  tags: [],
  media: [],
  settings: {},
  settingFiles: {},
});

const tooLong = (limit: TextLimit, text: string, check: (p: PostContent) => { code: string }[]) =>
  check(post(limit.field, text)).some(
    (i) => i.code === (limit.field === 'title' ? 'title_too_long' : 'caption_too_long'),
  );

describe('text limits shown by the dashboard', () => {
  for (const { rules: network } of Object.values(NETWORKS)) {
    for (const limit of network.textLimits) {
      it(`${network.platform} ${limit.field}: ${limit.max} ${limit.unit}, as its check counts`, () => {
        expect(tooLong(limit, textOf(limit.unit, limit.max), network.check)).toBe(false);
        expect(tooLong(limit, textOf(limit.unit, limit.max + 1), network.check)).toBe(true);
      });
    }
  }
});

describe('setting choices offered by the dashboard', () => {
  const refused = (check: (p: PostContent) => { code: string; message: string }[], name: string, value: string) =>
    check({ ...post('text', 'Hello'), settings: { [name]: value } }).some(
      (i) => i.code === 'setting_invalid' && i.message.includes(`.${name} "${value}"`),
    );

  for (const { rules: network } of Object.values(NETWORKS)) {
    for (const [name, values] of Object.entries(network.choices ?? {})) {
      it(`${network.platform} ${name}: ${values.join(', ')}, as its check accepts`, () => {
        for (const value of values) expect(refused(network.check, name, value), value).toBe(false);
        expect(refused(network.check, name, 'not-a-choice')).toBe(true);
      });
    }
  }
});
