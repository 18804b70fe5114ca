// Who is calling: every interface (API key, dashboard session, OAuth token) resolves to one Credential.
import type { ApprovalCreator } from './approvals.ts';
import type { PlanName } from './plans.ts';

export type Scope = 'read' | 'write';
export type CredentialKind = 'api_key' | 'session' | 'oauth';
export type Role = 'owner' | 'administrator' | 'member';

export interface Workspace {
  id: string;
  slug: string;
  name: string;
  plan: PlanName;
  currency: string;
  tz: string;
  /** Creators whose posts wait for an owner's or administrator's approval. */
  approvalRequiredFor: ApprovalCreator[];
}

export interface User {
  id: string;
  name: string;
  email: string | null;
}

export interface Credential {
  workspace: Workspace;
  user: User;
  scopes: Scope[];
  via: CredentialKind;
  /** The key's label, or a description of the session or grant. */
  name: string;
  /**
   * The person's role in the workspace now: the signed-in person's, or that of who made the key or gave the
   * grant. Keys and grants act within both their scopes and this role.
   */
  role?: Role;
}

export function parseScopes(text: string): Scope[] {
  const scopes = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const s of scopes) if (s !== 'read' && s !== 'write') throw new Error(`unknown scope ${s}`);
  // write always implies read: the spec offers `read` or `read` plus `write`.
  return scopes.includes('write') ? ['read', 'write'] : ['read'];
}
