// The session-only settings routes (server/memberRoutes.ts, keyRoutes.ts, billingRoutes.ts, settingsRoutes.ts):
// their answers' shapes and the queries that read them.
import { useQuery } from '@tanstack/react-query';
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
import { auth } from '../api.ts';

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
  };
}

export interface Workspaces {
  workspaces: Membership[];
  currentWorkspaceId: string;
}

export const useMembers = () =>
  useQuery({ queryKey: ['settings', 'members'], queryFn: () => auth<MemberList>('GET', '/members') });
export const useKeys = () => useQuery({ queryKey: ['settings', 'keys'], queryFn: () => auth<KeyList>('GET', '/keys') });
export const useBilling = () =>
  useQuery({ queryKey: ['settings', 'billing'], queryFn: () => auth<Billing>('GET', '/billing'), retry: false });
export const useWorkspaces = () =>
  useQuery({ queryKey: ['workspaces'], queryFn: () => auth<Workspaces>('GET', '/workspaces') });

export const planLabel = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);
