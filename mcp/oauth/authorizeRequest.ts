// The authorization request (RFC 6749 §4.1.1, PKCE per RFC 7636, resource per RFC 8707), read in the two steps that
// RFC 6749 §4.1.2.1 sets: until the client and its redirect URI are known, a refusal is answered to the browser (never
// sent to an address nobody checked); after that, it goes back to the client's redirect URI. Each refusal is an OAuth
// error code and a sentence that says what to send instead.
import { redirectUriMatches } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js';
import type { Scope } from '../../domain/credential.ts';

export interface OAuthRefusal {
  error: string;
  description: string;
}

export type RequestParams = Record<string, unknown>;

const refusal = (error: string, description: string): OAuthRefusal => ({ error, description });

/** A parameter's one value (absent: undefined); RFC 6749 §3.1 allows no parameter twice. */
function single(params: RequestParams, name: string): string | undefined | OAuthRefusal {
  const value = params[name];
  if (value === undefined || typeof value === 'string') return value;
  return refusal('invalid_request', `${name} must be sent once, as text.`);
}

export const isRefusal = (value: unknown): value is OAuthRefusal =>
  typeof value === 'object' && value !== null && 'error' in value;

/** The client_id asked for, or the refusal to answer directly. */
export function askedClientId(params: RequestParams): string | OAuthRefusal {
  const clientId = single(params, 'client_id');
  if (clientId === undefined || clientId === '')
    return refusal('invalid_request', 'client_id is missing; send the client_id that registration returned.');
  return clientId;
}

/** Step 1: where refusals and the answer may go (one of the client's registered redirect URIs), or a direct refusal. */
export function redirectTarget(params: RequestParams, registered: readonly string[]): string | OAuthRefusal {
  const asked = single(params, 'redirect_uri');
  if (isRefusal(asked)) return asked;
  if (asked === undefined) {
    if (registered.length === 1) return registered[0]!;
    return refusal('invalid_request', 'This client registered several redirect URIs: name one in redirect_uri.');
  }
  if (registered.some((uri) => redirectUriMatches(asked, uri))) return asked;
  return refusal('invalid_request', `redirect_uri ${asked} is not one of the addresses this client registered.`);
}

/** The state to send back with any answer, when the client sent one (once). */
export function askedState(params: RequestParams): string | undefined {
  const state = single(params, 'state');
  return isRefusal(state) ? undefined : state;
}

export interface AskedAccess {
  codeChallenge: string;
  /** The scopes asked for; none named means the client left the choice to the person. */
  scopes: Scope[];
}

// RFC 7636 §4.2: BASE64URL(SHA256(verifier)) is 43 characters; the grammar allows 43 to 128 unreserved ones.
const CODE_CHALLENGE = /^[A-Za-z0-9._~-]{43,128}$/;

/** Step 2: what the client asks for, or the refusal to send back to its redirect URI. */
export function askedAccess(
  params: RequestParams,
  offered: { scopes: readonly Scope[]; resource: string },
): AskedAccess | OAuthRefusal {
  const fields = ['response_type', 'code_challenge', 'code_challenge_method', 'scope', 'resource', 'state'] as const;
  const values: Partial<Record<(typeof fields)[number], string>> = {};
  for (const name of fields) {
    const value = single(params, name);
    if (isRefusal(value)) return value;
    values[name] = value;
  }
  const { response_type: responseType, code_challenge: challenge, code_challenge_method: method } = values;
  if (responseType === undefined)
    return refusal('invalid_request', 'response_type is missing; send response_type=code.');
  if (responseType !== 'code') {
    return refusal(
      'unsupported_response_type',
      `response_type "${responseType}" is not supported: this server gives codes only; send response_type=code.`,
    );
  }
  if (challenge === undefined) {
    return refusal(
      'invalid_request',
      'code_challenge is missing: this server needs PKCE (RFC 7636) with code_challenge_method=S256.',
    );
  }
  if (method !== 'S256') {
    const sent =
      method === undefined ? 'code_challenge_method is missing' : `code_challenge_method "${method}" is not supported`;
    return refusal('invalid_request', `${sent}: this server takes only S256 (the base64url SHA-256 of the verifier).`);
  }
  if (!CODE_CHALLENGE.test(challenge)) {
    return refusal(
      'invalid_request',
      'code_challenge is not a PKCE challenge: send the base64url SHA-256 of the verifier, 43 characters.',
    );
  }
  const asked = (values.scope ?? '').split(' ').filter(Boolean);
  const unknown = asked.filter((scope) => !(offered.scopes as readonly string[]).includes(scope));
  if (unknown.length > 0) {
    return refusal(
      'invalid_scope',
      `The scope ${unknown.map((s) => `"${s}"`).join(', ')} is not offered: ask for ${offered.scopes.join(' or ')}, ` +
        `or "${offered.scopes.join(' ')}", or leave scope out to let the person choose.`,
    );
  }
  const resource = values.resource;
  if (resource !== undefined && (!URL.canParse(resource) || new URL(resource).href !== offered.resource)) {
    return refusal(
      'invalid_target',
      `This server issues tokens only for ${offered.resource}, not ${resource}; send that as resource.`,
    );
  }
  return { codeChallenge: challenge, scopes: asked as Scope[] };
}
