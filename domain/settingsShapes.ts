// What the dashboard's settings routes answer: members, invitations, workspaces, API keys and audit events.
// The server's repositories return these and the dashboard reads them, so both sides share one definition.
import type { Role, Scope } from './credential.ts';
import type { PlanName } from './plans.ts';

export interface Member {
  userId: string;
  name: string;
  email: string | null;
  role: Role;
  joinedAt: string;
}

export interface Invite {
  id: string;
  email: string;
  role: Role;
  invitedBy: { id: string; name: string };
  createdAt: string;
  expiresAt: string;
}

/** One of the workspaces a person belongs to, with their role there. */
export interface Membership {
  id: string;
  name: string;
  slug: string;
  plan: PlanName;
  role: Role;
}

export interface ApiKeySummary {
  id: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  createdBy: { id: string; name: string };
  createdAt: string;
  lastUsedAt: string | null;
}

export type AuditAction =
  | 'key.created'
  | 'key.revoked'
  | 'member.invited'
  | 'invite.cancelled'
  | 'member.joined'
  | 'member.role_changed'
  | 'member.removed'
  | 'ownership.transferred'
  | 'plan.changed'
  | 'workspace.updated'
  | 'account.connected'
  | 'account.disconnected'
  | 'post.deleted'
  | 'post.approved'
  | 'post.rejected';

export interface AuditEvent {
  id: string;
  at: string;
  /** Null for the operator's command line. */
  actor: { id: string; name: string; email: string | null } | null;
  action: AuditAction;
  detail: Record<string, unknown>;
}
