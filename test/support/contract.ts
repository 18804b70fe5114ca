// An independent check of every /v1 response against openapi.yaml, and of every /auth response against auth.yaml
// (the hand-written sources, not the generated copies the server reads; auth.yaml bundled with the openapi.yaml
// components it names): the status must be declared for the operation, and the body and declared headers must
// match it.
import fs from 'node:fs';
import { OpenAPIBackend, type Document } from 'openapi-backend';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';
import { bundleContract } from '../../scripts/bundleContract.ts';

const addFormats = addFormatsModule as unknown as (ajv: unknown) => unknown;
const backends = new Map<string, Promise<OpenAPIBackend>>();
const readYaml = (name: string) => parse(fs.readFileSync(new URL(`../../${name}`, import.meta.url), 'utf8'));
/** The contract of each base path. */
const CONTRACTS: Record<string, () => Document> = {
  '/v1': () => readYaml('openapi.yaml') as Document,
  '/auth': () => bundleContract(readYaml('auth.yaml'), readYaml('openapi.yaml')) as unknown as Document,
};

function contractBackend(base: string): Promise<OpenAPIBackend> {
  let backend = backends.get(base);
  if (backend) return backend;
  backend = (async () => {
    const definition = CONTRACTS[base]!();
    const api = new OpenAPIBackend({
      definition,
      strict: true,
      // Compiles each operation's validators when a response first needs them, not all 70-odd at once: the
      // eager compile blocked a test file's process (and the server inside it) for seconds.
      quick: true,
      ajvOpts: { allErrors: true, strict: false },
      customizeAjv: (ajv) => {
        addFormats(ajv);
        return ajv;
      },
    });
    api.validateDefinition = () => api.document;
    return api.init();
  })();
  backends.set(base, backend);
  return backend;
}

interface Received {
  status: number;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
}

export async function assertMatchesContract(method: string, url: string, res: Received): Promise<void> {
  const { pathname } = new URL(url, 'http://herald.test');
  const base = Object.keys(CONTRACTS).find((b) => pathname.startsWith(`${b}/`));
  if (!base) return;
  const api = await contractBackend(base);
  const operation = api.router.matchOperation({ method, path: pathname.slice(base.length), headers: {} } as never);
  if (!operation) {
    // Unknown routes still answer the shared error shape.
    const body = res.body as Record<string, unknown>;
    if (typeof body?.code !== 'string' || typeof body.message !== 'string' || typeof body.hint !== 'string') {
      throw new Error(
        `${method.toUpperCase()} ${url} (no operation) answered ${res.status} without {code, message, hint}`,
      );
    }
    return;
  }
  const problems: string[] = [];
  if (!operation.responses?.[String(res.status)] && !operation.responses?.default) {
    problems.push(`status ${res.status} is not declared`);
  } else {
    // An answer declared without content (a 204) has no body to check.
    const declaredAnswer = (operation.responses[String(res.status)] ?? operation.responses.default) as {
      content?: object;
    };
    if (declaredAnswer.content) {
      const result = api.validator.validateResponse(res.body, operation, res.status);
      for (const e of result.errors ?? [])
        problems.push(`body${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
    }
    const headers = api.validator.validateResponseHeaders(res.headers, operation, {
      statusCode: res.status,
      setMatchType: 'any' as never,
    });
    for (const e of headers.errors ?? []) problems.push(`headers${e.instancePath} ${e.message}`);
    // A declared header must be there only where the contract says `required: true`, as OpenAPI reads it
    // (`Idempotent-Replayed` is declared on every write and sent on replays only).
    const declared = (operation.responses?.[String(res.status)] as { headers?: object } | undefined)?.headers ?? {};
    for (const [name, header] of Object.entries(declared as Record<string, { required?: boolean }>))
      if (header.required && res.headers[name.toLowerCase()] === undefined) problems.push(`header ${name} is missing`);
  }
  if (problems.length) {
    throw new Error(
      `${method.toUpperCase()} ${url} -> ${res.status} breaks the contract (${operation.operationId}): ` +
        `${problems.join('; ')}\n` +
        `body: ${JSON.stringify(res.body).slice(0, 500)}`,
    );
  }
}
