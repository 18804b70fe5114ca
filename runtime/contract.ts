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

let served: { publicUrl: string; document: ContractDocument } | undefined;

/** The contract as this instance serves it: `servers` names its own `$PUBLIC_URL/v1`. */
export function servedContract(publicUrl: string): ContractDocument {
  if (served?.publicUrl !== publicUrl) {
    served = {
      publicUrl,
      document: { ...loadContract(), servers: [{ url: `${publicUrl}/v1`, description: 'This Herald instance.' }] },
    };
  }
  return served.document;
}

export const AUTH_CONTRACT_PATH = new URL('../generated/auth.json', import.meta.url);
let authCached: ContractDocument | undefined;

/** The session-only contract of the /auth routes: generated/auth.json, made from auth.yaml by `make generate`. */
export function loadAuthContract(): ContractDocument {
  authCached ??= JSON.parse(fs.readFileSync(AUTH_CONTRACT_PATH, 'utf8')) as ContractDocument;
  return authCached;
}
