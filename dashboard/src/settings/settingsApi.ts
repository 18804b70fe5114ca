// The answers of the session-only routes under /auth (server/*Routes.ts), in one place: the queries of
// dashboard/src/queries/ read them through auth<T>. Also the words of roles and plans the settings pages share.
import type { Role } from '../../../domain/credential.ts';
import type { Plan } from '../../../domain/plans.ts';
import type {
  ApiKeySummary as ApiKey,
  AuditEvent,
  Invite,
  Member,
  Membership,
} from '../../../domain/settingsShapes.ts';
import { hasRole } from '../../../domain/roles.ts';
import type { Post } from '../api.ts';

export type { ApiKey, AuditEvent, Invite, Member, Plan, Role };
export const ROLE_LABEL: Record<Role, string> = { owner: 'Owner', administrator: 'Administrator', member: 'Member' };
/** The server decides; this only hides what a role cannot open. */
export const atLeast = (role: Role | undefined, needed: Role) => hasRole(role ?? 'member', needed);

export interface MemberList {
  members: Member[];
  invites: Invite[];
  seats: { used: number; limit: number };
  you: { userId: string; role: Role };
}

export interface KeyList {
  keys: ApiKey[];
  access: { rest: boolean; mcp: 'read' | 'full' };
}

export interface Billing {
  plan: string;
  provider: string;
  canChange: boolean;
  plans: Plan[];
  usage: {
    period: string;
    posts: { used: number; limit: number };
    accounts: { used: number; limit: number };
    storage: { usedBytes: number; limitBytes: number };
    members: { used: number; limit: number };
    /** The workspace's new posts of the last hour (all keys and people), and when a spent hour returns. */
    newPostsThisHour: {
      used: number;
      limit: number;
      spentBy: { keys: number; people: number };
      retryAt: string | null;
    };
  };
}

export interface Workspaces {
  workspaces: Membership[];
  currentWorkspaceId: string;
}

/** An MCP client the signed-in person let in through the MCP server's OAuth consent. */
export interface McpGrant {
  id: string;
  clientName: string;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
}

export interface AuditTrailPage {
  events: AuditEvent[];
  nextBefore: string | null;
}

/** What an invitation offers (GET /auth/invite?token=…). */
export interface InviteOffer {
  email: string;
  role: Role;
  workspace: { id: string; name: string };
  expiresAt: string;
}

export interface SignUpState {
  open: boolean;
  firstUser: boolean;
}

/** How many queued posts disconnecting an account sends back to draft. */
export interface DisconnectPreview {
  queuedPosts: number;
}

export interface ApprovalList {
  posts: Post[];
}

export const planLabel = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);
