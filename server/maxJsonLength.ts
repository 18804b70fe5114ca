// A validation keyword for an object whose shape is checked elsewhere (perPlatform settings, checked per plan row):
// its size as JSON, so that a draft, which keeps its settings as given, cannot carry a megabyte in them.
import type { FuncKeywordDefinition, SchemaValidateFunction } from 'ajv';

export const MAX_JSON_LENGTH = 'x-maxJsonLength';
/**
 * A network's settings as JSON, in characters: room for Bluesky's four alt texts of 10,000 characters (the most any
 * network's settings hold), written as emoji; a post's text bound (65,536) twice.
 */
export const SETTINGS_MAX_JSON = 131_072;

const check: SchemaValidateFunction = (max: number, data: unknown) => {
  const length = JSON.stringify(data)?.length ?? 0;
  if (length <= max) return true;
  check.errors = [
    { keyword: MAX_JSON_LENGTH, message: `must take at most ${max} characters as JSON`, params: { limit: max } },
  ];
  return false;
};

export const maxJsonLength: FuncKeywordDefinition = { keyword: MAX_JSON_LENGTH, schemaType: 'number', validate: check };
