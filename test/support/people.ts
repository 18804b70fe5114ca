// People in a workspace for tests: invited and joined through the real member code, and signed in with
// real sessions (a session row and its CSRF token, without spending an argon2 hash on each).
import { createSession } from '../../db/identity.ts';
import { acceptInvite, createInvite } from '../../db/members.ts';
import { findWorkspace, workspaceOwner } from '../../db/identity.ts';
import type { Role } from '../../domain/credential.ts';
import { randomBase62 } from '../../domain/ids.ts';
import { call, type TestEnv } from './harness.ts';

export interface Person {
  userId: string;
  email: string;
  cookie: string;
  csrf: string;
}

export async function signedIn(env: TestEnv, userId: string, workspaceId: string, email = ''): Promise<Person> {
  const session = await createSession(env.services.db, userId, workspaceId);
  return {
    userId,
    email,
    cookie: `herald_session=${session.token}`,
    csrf: env.services.keyring.sign(session.id, 'csrf'),
  };
}

/** A new person who joined the workspace with `role` through an invitation from its owner. */
export async function addPerson(env: TestEnv, workspaceId: string, role: Exclude<Role, 'owner'>): Promise<Person> {
  const { db } = env.services;
  const workspace = (await findWorkspace(db, workspaceId))!;
  const owner = (await workspaceOwner(db, workspaceId))!;
  const email = `${role}-${randomBase62(8).toLowerCase()}@example.com`;
  const invite = await createInvite(db, workspace, { userId: owner.id, role: 'owner' }, email, role);
  const { userId } = await acceptInvite(db, invite.id, { newUser: { name: `A ${role}`, passwordHash: 'unused' } });
  return signedIn(env, userId, workspaceId, email);
}

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

/** A dashboard request as `person`, with the CSRF token unless `csrf: false`. */
export function asPerson(
  env: TestEnv,
  person: Person,
  method: Method,
  url: string,
  body?: object,
  opts: { csrf?: boolean } = {},
) {
  const headers: Record<string, string> = { Cookie: person.cookie };
  if (opts.csrf !== false) headers['X-CSRF-Token'] = person.csrf;
  return call(env, method, url, { headers, body });
}
