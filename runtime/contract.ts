// The contract as served: generated/openapi.json, made from openapi.yaml by `make generate`.
import fs from 'node:fs';

export const CONTRACT_PATH = new URL('../generated/openapi.json', import.meta.url);

export interface ContractDocument {
  openapi: string;
  info: Record<string, unknown>;
  paths: Record<string, unknown>;
  [key: string]: unknown;
}

let cached: ContractDocument | undefined;

export function loadContract(): ContractDocument {
  cached ??= JSON.parse(fs.readFileSync(CONTRACT_PATH, 'utf8')) as ContractDocument;
  return cached;
}
