// Who in a workspace may do what. Roles rank member < administrator < owner: members schedule and manage
// posts and media; administrators also connect and disconnect accounts and manage groups, keys and members
// (but not owners); only the owner changes the plan and billing and transfers ownership. API keys carry
// scopes, not roles: these rules bind people signed in to the dashboard.
import type { OperationId } from './operationIds.ts';
import { ApiError } from './errors.ts';
import type { Role } from './credential.ts';

export const ROLES: readonly Role[] = ['member', 'administrator', 'owner'];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function hasRole(role: Role, needed: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(needed);
}

const article = (role: Role) => (role === 'member' ? 'a member' : role === 'owner' ? 'the owner' : 'an administrator');

export function assertRole(role: Role, needed: Role, action: string): void {
  if (hasRole(role, needed)) return;
  throw new ApiError(
    403,
    'insufficient_role',
    `${action} needs ${needed === 'owner' ? 'the owner' : `the ${needed} role`}; ` +
      `you are ${article(role)} of this workspace.`,
    needed === 'owner'
      ? 'Ask the workspace owner to do it.'
      : 'Ask an administrator or the owner to do it, or to change your role.',
    { limit: needed, actual: role },
  );
}

/**
 * The least role each /v1 operation needs when a person calls it with a dashboard session. Every
 * operation has a row (the type makes a missing one a compile error), so a new operation is a decision.
 */
export const OPERATION_ROLES: Record<OperationId, Role> = {
  getWhoami: 'member',
  listAccounts: 'member',
  getAccountAnalytics: 'member',
  getAccountSchedule: 'member',
  // An account's posting times shape everyone's queue: set like groups.
  setAccountSchedule: 'administrator',
  getAccountPostingOptions: 'member',
  listGroups: 'member',
  createGroup: 'administrator',
  updateGroup: 'administrator',
  deleteGroup: 'administrator',
  createUpload: 'member',
  uploadFromUrl: 'member',
  listMedia: 'member',
  getMedia: 'member',
  updateMedia: 'member',
  deleteMedia: 'member',
  listFolders: 'member',
  createFolder: 'member',
  updateFolder: 'member',
  deleteFolder: 'member',
  planPost: 'member',
  listPosts: 'member',
  createPosts: 'member',
  getPost: 'member',
  reschedulePost: 'member',
  swapPostTimes: 'member',
  reschedulePosts: 'member',
  deletePost: 'member',
  retryPost: 'member',
  cancelPost: 'member',
  listPostEvents: 'member',
  listEvents: 'member',
  getPostAnalytics: 'member',
  // Webhooks send the workspace's events outside: a workspace setting, like keys and connected accounts.
  listWebhooks: 'administrator',
  createWebhook: 'administrator',
  getWebhook: 'administrator',
  updateWebhook: 'administrator',
  deleteWebhook: 'administrator',
  rotateWebhookSecret: 'administrator',
  testWebhook: 'administrator',
  listWebhookDeliveries: 'administrator',
  redeliverWebhookDelivery: 'administrator',
  getOpenApi: 'member',
};
