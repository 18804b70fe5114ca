// Turns Ajv's errors for a rejected request into one sentence that names the field.
import type { ErrorObject } from 'ajv';

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
    default:
      return field ? `\`${field}\` ${err.message}${where}.` : `The request body ${err.message}.`;
  }
}

/**
 * Picks the most useful error: a failed oneOf yields one error per branch; the deepest specific one
 * (say, a bad `when.publishAt`) explains more than "no branch matched".
 */
export function validationMessage(errors: ErrorObject[]): string {
  const unions = new Set(
    errors.filter((e) => e.keyword === 'oneOf' || e.keyword === 'anyOf').map((e) => e.instancePath),
  );
  const specific = errors.filter((e) => {
    if (e.keyword === 'oneOf' || e.keyword === 'anyOf') return false;
    // A branch that failed only on its type or enum says nothing about the value the caller meant.
    return !(unions.has(e.instancePath) && (e.keyword === 'type' || e.keyword === 'enum'));
  });
  const depth = (e: ErrorObject) => e.instancePath.split('/').length;
  const best = specific.sort((a, b) => depth(b) - depth(a))[0] ?? errors[0];
  return best ? sentence(best) : 'The request is not valid.';
}
