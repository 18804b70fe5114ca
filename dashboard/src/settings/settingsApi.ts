// The answers of the session-only routes under /auth, named from auth.yaml's generated types for the queries of
// dashboard/src/queries/ and the settings pages. Also the words of roles and plans the settings pages share.
import { hasRole } from '../../../domain/roles.ts';
import type { AuthAnswer, AuthSchemas } from '../api.ts';

export type Role = AuthSchemas['Role'];
export type Member = AuthSchemas['Member'];
export type Invite = AuthSchemas['Invite'];
export type ApiKey = AuthSchemas['ApiKey'];
export type AuditEvent = AuthSchemas['AuditEvent'];
export type Plan = AuthSchemas['PlanOffer'];
export type Billing = AuthSchemas['Billing'];
/** An MCP client the signed-in person let in through the MCP server's OAuth consent. */
export type McpGrant = AuthSchemas['McpGrant'];
/** What an invitation offers (GET /auth/invite?token=…). */
export type InviteOffer = AuthSchemas['InviteOffer'];
export type MemberList = AuthAnswer<'/members', 'get'>;
export type KeyList = AuthAnswer<'/keys', 'get'>;
export type Workspaces = AuthAnswer<'/workspaces', 'get'>;
export type AuditTrailPage = AuthAnswer<'/audit', 'get'>;
export type SignUpState = AuthAnswer<'/sign-up', 'get'>;
/** How many queued posts disconnecting an account sends back to draft. */
export type DisconnectPreview = AuthAnswer<'/accounts/{accountId}/disconnect', 'get'>;
export type ApprovalList = AuthAnswer<'/approvals', 'get'>;

export const ROLE_LABEL: Record<Role, string> = { owner: 'Owner', administrator: 'Administrator', member: 'Member' };
/** The server decides; this only hides what a role cannot open. */
export const atLeast = (role: Role | undefined, needed: Role) => hasRole(role ?? 'member', needed);

export const planLabel = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);
