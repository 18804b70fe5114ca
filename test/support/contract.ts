// An independent check of every /v1 response against openapi.yaml (the hand-written source, not the
// generated copy the server reads): the status must be declared for the operation, and the body and
// declared headers must match it.
import fs from 'node:fs';
import { OpenAPIBackend, type Document } from 'openapi-backend';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';

const addFormats = addFormatsModule as unknown as (ajv: unknown) => unknown;
let backend: Promise<OpenAPIBackend> | undefined;

function contractBackend(): Promise<OpenAPIBackend> {
  backend ??= (async () => {
    const definition = parse(fs.readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8')) as Document;
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
  return backend;
}

interface Received {
  status: number;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
}

export async function assertMatchesContract(method: string, url: string, res: Received): Promise<void> {
  const { pathname } = new URL(url, 'http://herald.test');
  if (!pathname.startsWith('/v1/')) return;
  const api = await contractBackend();
  const operation = api.router.matchOperation({ method, path: pathname.slice(3), headers: {} } as never);
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
    const result = api.validator.validateResponse(res.body, operation, res.status);
    for (const e of result.errors ?? [])
      problems.push(`body${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
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
