// Groups: named sets of accounts (Creator plan and above). A post to a group becomes one post per account.
import { invalidRequest, notFound } from '../domain/errors.ts';
import { assertGroupsAllowed } from '../domain/quotas.ts';
import type { WorkspaceData } from '../db/workspaceData.ts';
import type { Handler } from './types.ts';

async function checkAccounts(data: WorkspaceData, accountIds: string[]): Promise<void> {
  if (new Set(accountIds).size !== accountIds.length) throw invalidRequest('`accountIds` lists an account twice.');
  const missing = await data.accounts.missing(accountIds);
  if (missing.length > 0) throw notFound('account', missing[0]!);
}

function checkName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw invalidRequest('`name` must not be blank.');
  return trimmed;
}

export const listGroups: Handler<'listGroups'> = async ({ data }) => ({
  status: 200,
  body: { groups: await data.groups.list() },
});

export const createGroup: Handler<'createGroup'> = async ({ data, body }) => {
  assertGroupsAllowed(data.workspace.plan, await data.groups.count());
  const name = checkName(body.name);
  await checkAccounts(data, body.accountIds);
  return { status: 201, body: await data.groups.create(name, body.accountIds) };
};

export const updateGroup: Handler<'updateGroup'> = async ({ data, params, body }) => {
  if (!(await data.groups.get(params.groupId))) throw notFound('group', params.groupId);
  if (body.accountIds) await checkAccounts(data, body.accountIds);
  const name = body.name === undefined ? undefined : checkName(body.name);
  const group = await data.groups.update(params.groupId, { name, accountIds: body.accountIds });
  if (!group) throw notFound('group', params.groupId);
  return { status: 200, body: group };
};

export const deleteGroup: Handler<'deleteGroup'> = async ({ data, params }) => {
  if (!(await data.groups.remove(params.groupId))) throw notFound('group', params.groupId);
  return { status: 200, body: { id: params.groupId, deleted: true } };
};
