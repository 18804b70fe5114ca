// The Ajv that checks MCP tool arguments: the same options at `make generate`, which compiles the tools' schemas to
// generated/toolValidators.ts, and at run time, where the SDK validates with it.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { CodeOptions } from 'ajv';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

// The contract is OpenAPI 3.1, whose schemas are JSON Schema 2020-12.
// verbose: validationMessage reads the schema and value of a failed union (server/validationMessage.ts).
export function toolAjv(code?: CodeOptions): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: false, verbose: true, code });
  addFormats(ajv);
  return ajv;
}
