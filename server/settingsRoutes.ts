// Workspace settings and the audit trail (session-only, see sessionGuard.ts).
//   PATCH /auth/workspace   {name?, slug?, tz?, currency?, approvalRequiredFor?}
//   GET   /auth/audit       ?before=<at>&limit=<n>: who did what, newest first
import express from 'express';
import { listAudit } from '../db/audit.ts';
import { updateWorkspaceSettings, type WorkspaceSettings } from '../db/workspaceSettings.ts';
import { APPROVAL_CREATORS } from '../domain/approvals.ts';
import { ApiError, invalidRequest } from '../domain/errors.ts';
import { isValidZone, parseInstant } from '../domain/when.ts';
import type { Services } from '../runtime/services.ts';
import { bodyOf, sessionRoute } from './sessionGuard.ts';

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));
const SLUG = /^[a-z0-9](?:[a-z0-9-]{1,38})[a-z0-9]$/;

function checkedSettings(body: Record<string, unknown>): Partial<WorkspaceSettings> {
  const known = ['name', 'slug', 'tz', 'currency', 'approvalRequiredFor'];
  const unknown = Object.keys(body).filter((k) => !known.includes(k));
  if (unknown.length) throw invalidRequest(`Unknown field ${unknown[0]}; the settings are ${known.join(', ')}.`);
  const out: Partial<WorkspaceSettings> = {};
  if (body.name !== undefined) {
    const name = typeof body.name === 'string' ? body.name.trim() : '';
    if (!name || name.length > 100) throw invalidRequest('name must be 1 to 100 characters.');
    out.name = name;
  }
  if (body.slug !== undefined) {
    if (typeof body.slug !== 'string' || !SLUG.test(body.slug) || body.slug.includes('--')) {
      throw invalidRequest(
        'slug must be 3 to 40 lowercase letters, digits and single hyphens, starting and ending with a ' +
          'letter or digit.',
      );
    }
    out.slug = body.slug;
  }
  if (body.tz !== undefined) {
    if (typeof body.tz !== 'string' || !isValidZone(body.tz))
      throw invalidRequest('tz must be an IANA time zone such as Europe/Berlin.');
    out.tz = body.tz;
  }
  if (body.currency !== undefined) {
    if (typeof body.currency !== 'string' || !CURRENCIES.has(body.currency)) {
      throw invalidRequest('currency must be an ISO 4217 code in capitals, such as EUR or USD.');
    }
    out.currency = body.currency;
  }
  if (body.approvalRequiredFor !== undefined) {
    const given = body.approvalRequiredFor;
    if (!Array.isArray(given) || given.some((c) => !APPROVAL_CREATORS.includes(c)))
      throw invalidRequest(`approvalRequiredFor must be a list of ${APPROVAL_CREATORS.join(', ')}; empty for none.`);
    out.approvalRequiredFor = APPROVAL_CREATORS.filter((c) => given.includes(c));
  }
  return out;
}

export function settingsRoutes(services: Services): express.Router {
  const { db } = services;
  const router = express.Router();

  router.patch(
    '/workspace',
    sessionRoute(services, { role: 'administrator', action: 'Changing workspace settings' }, async (cred, req) => {
      const changes = checkedSettings(bodyOf(req));
      const outcome = await updateWorkspaceSettings(db, cred.workspace.id, cred.user.id, changes);
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
    }),
  );

  router.get(
    '/audit',
    sessionRoute(services, { role: 'administrator', action: 'Reading the audit trail' }, async (cred, req) => {
      const limit = req.query.limit === undefined ? 50 : Number(req.query.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 200)
        throw invalidRequest('limit must be an integer from 1 to 200.');
      const before = req.query.before === undefined ? undefined : parseInstant(req.query.before);
      if (req.query.before !== undefined && !before)
        throw invalidRequest('before must be the `at` of an event, an ISO 8601 instant.');
      const events = await listAudit(db, cred.workspace.id, limit, before?.toUTC().toISO() ?? undefined);
      return { status: 200, body: { events, nextBefore: events.length === limit ? events.at(-1)!.at : null } };
    }),
  );

  return router;
}
