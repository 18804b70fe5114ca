// Refusals of the membership rules (invitations, roles, the one owner), decided inside the data layer's
// transactions, which know no HTTP: a stable code, the fact and what to do. The dashboard's routes give
// each code its status (server/authApi.ts).
import { notFoundWords, type Facts, type Findable } from './errors.ts';

export type MemberRefusalCode =
  | 'invalid_request'
  | 'not_found'
  | 'already_member'
  | 'owner_required'
  | 'invite_unusable';

export class MemberRefused extends Error {
  constructor(
    readonly code: MemberRefusalCode,
    message: string,
    readonly hint: string,
    /** What the dashboard words the refusal from (why an invitation is unusable, the field at fault). */
    readonly facts: Facts = {},
  ) {
    super(message);
  }

  /** No such member, invitation or workspace here, in the words every not_found answer uses. */
  static notFound(what: Findable, id: string): MemberRefused {
    const { message, hint } = notFoundWords(what, id);
    return new MemberRefused('not_found', message, hint);
  }
}
