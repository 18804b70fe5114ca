// What both contracts' dispatchers share (api.ts for /v1, authApi.ts for the session-only /auth): openapi-backend
// loaded with a contract, its operations as routes matched by path template, and a request's input validated
// against the operation (Ajv, compiled once per operation), with one sentence naming the field when it fails.
import { OpenAPIBackend, type Document, type Operation } from 'openapi-backend';
import addFormatsModule from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { invalidRequest } from '../domain/errors.ts';
import { KEY_HEADER } from './idempotency.ts';
import { maxJsonLength } from './maxJsonLength.ts';
import { fieldWithNul, nulRefused } from './requestFaults.ts';
import { validationFacts, validationMessage } from './validationMessage.ts';

const addFormats = addFormatsModule as unknown as (ajv: unknown) => unknown;

/** A contract operation as a dispatcher matches it: by its path template, compiled once. */
export interface Route {
  op: Operation;
  /** The template as a RegExp, each {parameter} one path segment (captured), the rest literal. */
  pattern: RegExp;
  names: string[];
  /** Needs a credential: the operation (or the contract) names security requirements. */
  secured: boolean;
  /** Takes the `Idempotency-Key` header (the contract's mutating operations). */
  keyed: boolean;
}

function toRoute(op: Operation): Route {
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const pattern = new RegExp(
    `^${op.path
      .split(/\{[^}]+\}/)
      .map(literal)
      .join('([^/]+)')}$`,
  );
  const keyed = Boolean(
    op.parameters?.some((p) => 'in' in p && p.in === 'header' && p.name.toLowerCase() === KEY_HEADER),
  );
  return { op, pattern, names, secured: Boolean(op.security?.length), keyed };
}

/** How specific a path template is: the length of its literal parts. */
const specificity = (path: string) => path.replace(/\{.*?\}/g, '').length;

type Schema = { properties?: Record<string, Schema>; items?: Schema; 'x-message'?: string };

/**
 * The contract's own sentence for a wrong value in the body (`x-message` on its schema, or on the schema of a list
 * it is an item of), for a precise rule the generic sentences would blur: `/requestBody/scopes/0` reads scopes.
 */
function bodySentence(op: Operation, instancePath: string): string | undefined {
  const [, where, ...steps] = instancePath.split('/');
  if (where !== 'requestBody') return undefined;
  const content = (op.requestBody as { content?: Record<string, { schema?: Schema }> } | undefined)?.content;
  let schema = content?.['application/json']?.schema;
  let sentence = schema?.['x-message'];
  for (const step of steps) {
    schema = /^\d+$/.test(step) ? schema?.items : schema?.properties?.[step.replace(/~1/g, '/').replace(/~0/g, '~')];
    sentence = schema?.['x-message'] ?? sentence;
  }
  return sentence;
}

/** A request as validation reads it. */
export interface ContractInput {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  query?: Record<string, unknown>;
  body?: unknown;
}

/** openapi-backend over `definition` (which it dereferences in place: give it a copy), with its routes. */
export async function contractBackend(definition: Document) {
  const api = new OpenAPIBackend({
    definition,
    // Quick: each operation's validators are compiled on its first request rather than all at startup, and
    // (as below) openapi-backend skips its own definition check; the contracts have only local references.
    quick: true,
    coerceTypes: true,
    // One Ajv per operation: validating each schema against the meta-schema would compile the meta-schema
    // in every one of them; `redocly lint` validates the contracts instead.
    // verbose: validationMessage reads the schema and value of a failed union (./validationMessage.ts).
    ajvOpts: { allErrors: true, strict: false, validateSchema: false, verbose: true },
    customizeAjv: (ajv) => {
      addFormats(ajv);
      // RFC 3339 admits a leap second (23:59:60), which no clock or database here can hold.
      const rfc3339 = fullFormats['date-time'] as { validate: (text: string) => boolean };
      ajv.addFormat('date-time', (text: string) => rfc3339.validate(text) && !/:60(\.\d+)?([zZ]|[+-]|$)/.test(text));
      ajv.addKeyword(maxJsonLength);
      return ajv;
    },
  });
  // openapi-backend checks documents against the 3.0 meta-schema, which a 3.1 contract fails;
  // `redocly lint` validates the contracts instead.
  api.validateDefinition = () => api.document;
  await api.init();
  // The most specific template first: an exact path before any template that also matches it.
  const routes = api.router
    .getOperations()
    .map(toRoute)
    .sort((a, b) => specificity(b.op.path) - specificity(a.op.path));

  /**
   * The operation for a method and a path relative to the contract's base, with its decoded path parameters;
   * `pathKnown` when only the method matched no operation.
   */
  function match(
    method: string,
    path: string,
  ): { route: Route; params: Record<string, string> } | { pathKnown: boolean } {
    let relative = path.split('?')[0]!.trim() || '/';
    while (relative.length > 1 && relative.endsWith('/')) relative = relative.slice(0, -1);
    const asked = method.trim().toLowerCase();
    // HEAD is GET without the body (RFC 9110 §9.3.2): node's response leaves the body out of a HEAD answer.
    const verb = asked === 'head' ? 'get' : asked;
    let pathKnown = false;
    for (const candidate of routes) {
      const found = candidate.pattern.exec(relative);
      if (!found) continue;
      pathKnown = true;
      if (candidate.op.method !== verb) continue;
      const params: Record<string, string> = {};
      candidate.names.forEach((name, i) => (params[name] = decodeURIComponent(found[i + 1]!)));
      return { route: candidate, params };
    }
    return { pathKnown };
  }

  /**
   * The request's input checked against the operation: a 400 naming the field when it does not match, or when
   * a text holds a NUL character; the query as validation coerced it otherwise.
   */
  function checkedInput(op: Operation, req: ContractInput, params: Record<string, string>): Record<string, unknown> {
    let query = req.query ?? {};
    // An operation without parameters or body has nothing to validate unless a query string came (which it
    // refuses): the hot reads (whoami, accounts) skip the validator.
    if (op.parameters?.length || op.requestBody || Object.keys(query).length) {
      const validation = api.validator.validateRequest(req as never, op);
      if (validation.errors) {
        const message = validationMessage(validation.errors, (at) => bodySentence(op, at));
        throw invalidRequest(message, undefined, validationFacts(validation.errors));
      }
      query = (validation.coerced?.query as Record<string, unknown> | undefined) ?? query;
    }
    // jsonBody (requestFaults.ts) refused bodies nested deeper than this walk can go.
    const nul = fieldWithNul({ ...params, ...query }) ?? fieldWithNul(req.body);
    if (nul) throw nulRefused(nul);
    return query;
  }

  return { api, routes, match, checkedInput };
}
