// perPlatform settings checked against the contract's schema of each network's settings. A value of the
// wrong type or outside its choices, or a name the network does not know, is the row issue
// `setting_invalid` naming the field, never a 400 for the whole request (server/api.ts lets settings
// through validation for this); the network's own check then sees only the settings that passed.
import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Issue } from '../domain/issues.ts';
import { loadContract } from '../runtime/contract.ts';
import { PLATFORMS } from './index.ts';
import { issue, type Platform } from './rules.ts';

/** The contract's schema of each network's settings (components.schemas): `YoutubeSettings`, `TiktokSettings`, ... */
export const SETTINGS_SCHEMAS = Object.fromEntries(
  PLATFORMS.map((p) => [p, `${p[0]!.toUpperCase()}${p.slice(1)}Settings`]),
) as Record<Platform, string>;

const validators = new Map<Platform, ValidateFunction>();
/** Ajv, loaded on the first check: a worker never checks settings, and loading it cost its start 50 ms of CPU. */
const loadAjv = () => (createRequire(import.meta.url)('ajv') as typeof import('ajv')).Ajv;

function validator(platform: Platform): ValidateFunction {
  let validate = validators.get(platform);
  if (!validate) {
    const schemas = (loadContract().components as { schemas: Record<string, object> }).schemas;
    const Ajv = loadAjv();
    validate = new Ajv({ allErrors: true, strict: false }).compile(schemas[SETTINGS_SCHEMAS[platform]]!);
    validators.set(platform, validate);
  }
  return validate;
}

/** The setting an error is about; undefined when the settings as a whole are not an object. */
const settingName = (err: ErrorObject): string | undefined =>
  err.keyword === 'additionalProperties'
    ? String((err.params as Record<string, unknown>).additionalProperty)
    : err.instancePath.split('/')[1];

function settingIssue(platform: Platform, err: ErrorObject, known: string[]): Issue {
  const params = err.params as Record<string, unknown>;
  const name = settingName(err);
  const field = name ? `perPlatform.${platform}.${name}` : `perPlatform.${platform}`;
  if (err.keyword === 'additionalProperties') {
    return issue(
      'setting_invalid',
      `${field} is not a ${platform} setting.`,
      `Remove it; ${platform} settings are: ${known.join(', ')}.`,
      { field },
    );
  }
  if (err.keyword === 'enum') {
    const allowed = (params.allowedValues as unknown[]).join(', ');
    return issue('setting_invalid', `${field} must be one of: ${allowed}.`, `Set ${field} to one of: ${allowed}.`, {
      field,
    });
  }
  return issue(
    'setting_invalid',
    `${field} ${err.message}.`,
    name ? `Fix ${field}, or leave it out for the default.` : `Give ${field} as an object of settings.`,
    { field },
  );
}

/** The issues of `settings`, and the settings without the failing ones (for the network's own check). */
export function checkSettingsShape(
  platform: Platform,
  settings: unknown,
): { issues: Issue[]; valid: Record<string, unknown> } {
  const validate = validator(platform);
  if (validate(settings)) return { issues: [], valid: settings as Record<string, unknown> };
  const known = Object.keys((validate.schema as { properties?: object }).properties ?? {});
  const errors = validate.errors ?? [];
  const issues = errors.map((err) => settingIssue(platform, err, known));
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) return { issues, valid: {} };
  const failing = new Set(errors.map(settingName));
  return { issues, valid: Object.fromEntries(Object.entries(settings).filter(([name]) => !failing.has(name))) };
}
