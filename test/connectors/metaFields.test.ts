// The fields Herald asks Meta's Graph objects for (networks/graph/fields.ts) against the field lists of
// Meta's business SDK (test/fixtures/metaSdkFields.json, written by scripts/metaSdkFields.ts): a field
// renamed on either side fails here, not in production: request and answer shapes are checked against the
// network's machine-readable description.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { META_FIELDS } from '../../networks/graph/fields.ts';

const sdk = JSON.parse(readFileSync(new URL('../fixtures/metaSdkFields.json', import.meta.url), 'utf8')) as {
  source: string;
  fields: Record<string, string[]>;
};

/** The SDK object an entry names: `PagePostAddress` is one use of `PagePost` (the longest name it starts with). */
const objectOf = (key: string) =>
  Object.keys(sdk.fields)
    .filter((name) => key.startsWith(name))
    .sort((a, b) => b.length - a.length)[0];

describe(`Herald's Graph fields against ${sdk.source}`, () => {
  it.each(Object.entries(META_FIELDS))('%s: %s', (key, fields) => {
    const object = objectOf(key);
    expect(object, `${key} names no object of the fixture`).toBeDefined();
    const names = fields.split(',');
    expect(names.filter((name) => !sdk.fields[object!]!.includes(name))).toEqual([]);
  });
});
