// Workspace settings and the audit trail.
import { listAudit as readAudit } from '../../db/audit.ts';
import { updateWorkspaceSettings, type WorkspaceSettings } from '../../db/workspaceSettings.ts';
import { APPROVAL_CREATORS } from '../../domain/approvals.ts';
import { ApiError, invalidRequest } from '../../domain/errors.ts';
import { isValidZone, parseInstant } from '../../domain/when.ts';
import type { AuthContext, AuthHandler } from '../../handlers/authTypes.ts';

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));
const SLUG = /^[a-z0-9](?:[a-z0-9-]{1,38})[a-z0-9]$/;

/** The settings beyond what the contract checks: a slug's shape, a real zone and currency. */
function checkedSettings(body: AuthContext<'updateWorkspace'>['body']): Partial<WorkspaceSettings> {
  const out: Partial<WorkspaceSettings> = {};
  if (body.name !== undefined) out.name = body.name.trim();
  if (body.slug !== undefined) {
    if (!SLUG.test(body.slug) || body.slug.includes('--')) {
      throw invalidRequest(
        'slug must be 3 to 40 lowercase letters, digits and single hyphens, starting and ending with a ' +
          'letter or digit.',
      );
    }
    out.slug = body.slug;
  }
  if (body.tz !== undefined) {
    if (!isValidZone(body.tz)) throw invalidRequest('tz must be an IANA time zone such as Europe/Berlin.');
    out.tz = body.tz;
  }
  if (body.currency !== undefined) {
    if (!CURRENCIES.has(body.currency))
      throw invalidRequest('currency must be an ISO 4217 code in capitals, such as EUR or USD.');
    out.currency = body.currency;
  }
  const given = body.approvalRequiredFor;
  if (given !== undefined) out.approvalRequiredFor = APPROVAL_CREATORS.filter((c) => given.includes(c));
  return out;
}

export const updateWorkspace: AuthHandler<'updateWorkspace'> = async ({ cred, body, services }) => {
  const changes = checkedSettings(body);
  const outcome = await updateWorkspaceSettings(services.db, cred.workspace.id, cred.user.id, changes);
  if ('slugTaken' in outcome) {
    const taken = `The slug "${changes.slug}" belongs to another workspace.`;
    throw new ApiError(409, 'slug_taken', taken, 'Choose another slug.');
  }
  const { workspace, queuedPosts } = outcome;
  const notes =
    changes.tz && changes.tz !== cred.workspace.tz
      ? [
          `The time zone is now ${changes.tz}. ${queuedPosts} queued post${queuedPosts === 1 ? '' : 's'} ` +
            `keep their absolute times: ` +
            `each publishes at the same instant as before, now shown in ${changes.tz}.`,
        ]
      : [];
  return { status: 200, body: { workspace: { ...cred.workspace, ...workspace }, queuedPosts, notes } };
};

/** Who did what, newest first; `nextBefore` is the `at` the next page reads before. */
export const listAudit: AuthHandler<'listAudit'> = async ({ cred, query, services }) => {
  const limit = query.limit ?? 50;
  const before = query.before === undefined ? undefined : parseInstant(query.before);
  if (query.before !== undefined && !before)
    throw invalidRequest('before must be the `at` of an event, an ISO 8601 instant.');
  const events = await readAudit(services.db, cred.workspace.id, limit, before?.toUTC().toISO() ?? undefined);
  return { status: 200, body: { events, nextBefore: events.length === limit ? events.at(-1)!.at : null } };
};
