// Turns Ajv's errors for a rejected request into one sentence that names the field.
import type { ErrorObject } from 'ajv';
import type { Facts } from '../domain/errors.ts';

const LOCATIONS: Record<string, string> = {
  requestBody: 'body',
  query: 'query parameter',
  path: 'path parameter',
  headers: 'header',
};

/** `/requestBody/targets/accountIds/0` -> `targets.accountIds[0]` (in body). */
function describe(instancePath: string): { field: string; location: string } {
  const [, first = '', ...rest] = instancePath.split('/');
  const field = rest
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part.replace(/~1/g, '/').replace(/~0/g, '~')}`))
    .join('')
    .replace(/^\./, '');
  return { field, location: LOCATIONS[first] ?? first };
}

/** The contract's patterns in words; a pattern not listed here is quoted as Ajv says it. */
const PATTERN_WORDS: Record<string, string> = {
  '^[\\x20-\\x7E]+$': 'must hold only printable ASCII characters (letters, digits, punctuation and spaces)',
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}$': 'must be a local date and time written like 2026-11-26T09:30',
};

function join(parent: string, child: string): string {
  return parent ? `${parent}.${child}` : child;
}

function sentence(err: ErrorObject): string {
  const { field, location } = describe(err.instancePath);
  const params = err.params as Record<string, any>;
  const where = location === 'body' ? '' : ` (${location})`;
  switch (err.keyword) {
    case 'required':
      return `\`${join(field, params.missingProperty)}\` is required${where}.`;
    case 'additionalProperties':
      return `\`${join(field, params.additionalProperty)}\` is not a known field${where}.`;
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ');
      return `\`${field}\` must be one of: ${allowed}${where}.`;
    }
    case 'minProperties':
    case 'maxProperties':
      return field === 'targets'
        ? '`targets` must hold exactly one of `accountIds` or `groupId`.'
        : `\`${field || 'body'}\` ${err.message}${where}.`;
    case 'oneOf':
    case 'anyOf':
      return `\`${field}\` does not match any accepted form${where}.`;
    case 'pattern':
      return `\`${field}\` ${PATTERN_WORDS[params.pattern] ?? err.message}${where}.`;
    default:
      return field ? `\`${field}\` ${err.message}${where}.` : `The request body ${err.message}.`;
  }
}

/**
 * Values a caller may well expect a field to take where it does not, with the way to get what they meant: a
 * post is made a draft again by cancelling it, not by rescheduling it to `draft` (which creating accepts).
 */
const NOT_TAKEN: Record<string, Record<string, string>> = {
  when: {
    draft: 'a queued post becomes a draft again only by cancelling it (`POST /posts/{postId}/cancel`)',
  },
};

/** One branch of a union, as the words for what it accepts. */
function accepted(err: ErrorObject): string {
  const params = err.params as Record<string, any>;
  if (err.keyword === 'enum') return (params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(' or ');
  const required = (err.parentSchema as { required?: string[] } | undefined)?.required ?? [];
  if (params.type === 'object' && required.length)
    return `an object with ${required.map((name) => `\`${name}\``).join(' and ')}`;
  return /^[aeiou]/.test(String(params.type)) ? `an ${params.type}` : `a ${params.type}`;
}

/**
 * A value that no branch of a union takes even by its type or enum: what each branch accepts, and for a value
 * a caller may expect to work, what to do instead (parentSchema and data come from Ajv's `verbose` option).
 */
function unionSentence(union: ErrorObject, branches: ErrorObject[]): string {
  const { field, location } = describe(union.instancePath);
  const where = location === 'body' ? '' : ` (${location})`;
  const options = branches.filter((e) => e.keyword === 'enum' || e.keyword === 'type').map(accepted);
  const note = typeof union.data === 'string' ? NOT_TAKEN[field]?.[union.data] : undefined;
  return `\`${field}\` must be ${options.join(' or ')}${where}${note ? `; ${note}` : ''}.`;
}

/**
 * Picks the most useful error: a failed oneOf yields one error per branch; the deepest specific one
 * (say, a bad `when.publishAt`) explains more than "no branch matched".
 */
function choose(errors: ErrorObject[]): { error: ErrorObject; siblings?: ErrorObject[] } | undefined {
  const unions = errors.filter((e) => e.keyword === 'oneOf' || e.keyword === 'anyOf');
  const unionPaths = new Set(unions.map((e) => e.instancePath));
  const specific = errors.filter((e) => {
    if (e.keyword === 'oneOf' || e.keyword === 'anyOf') return false;
    // A branch that failed only on its type or enum says nothing about the value the caller meant.
    return !(unionPaths.has(e.instancePath) && (e.keyword === 'type' || e.keyword === 'enum'));
  });
  const depth = (e: ErrorObject) => e.instancePath.split('/').length;
  const best = specific.sort((a, b) => depth(b) - depth(a))[0];
  if (best) return { error: best };
  const union = unions[0];
  if (union)
    return { error: union, siblings: errors.filter((e) => e !== union && e.instancePath === union.instancePath) };
  return errors[0] && { error: errors[0] };
}

/**
 * The sentence of a refusal. `ownSentence` gives the contract's own sentence for a value at an instance path (a
 * schema's `x-message`), which says more than any generic one.
 */
export function validationMessage(
  errors: ErrorObject[],
  ownSentence: (instancePath: string) => string | undefined = () => undefined,
): string {
  const own = errors.map((e) => ownSentence(e.instancePath)).find(Boolean);
  if (own) return own;
  const chosen = choose(errors);
  if (!chosen) return 'The request is not valid.';
  return chosen.siblings ? unionSentence(chosen.error, chosen.siblings) : sentence(chosen.error);
}

const BOUNDS = new Set(['minLength', 'maxLength', 'minimum', 'maximum', 'minItems', 'maxItems']);

/** The facts of the message: the field it names and, for a length or size bound, the bound. */
export function validationFacts(errors: ErrorObject[]): Facts {
  const chosen = choose(errors);
  if (!chosen) return {};
  const { error } = chosen;
  const params = error.params as Record<string, unknown>;
  const { field } = describe(error.instancePath);
  const named =
    error.keyword === 'required'
      ? join(field, String(params.missingProperty))
      : error.keyword === 'additionalProperties'
        ? join(field, String(params.additionalProperty))
        : field;
  return {
    ...(named ? { field: named } : {}),
    ...(BOUNDS.has(error.keyword) && typeof params.limit === 'number' ? { limit: params.limit } : {}),
  };
}
