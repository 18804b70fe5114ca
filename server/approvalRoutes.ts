// Approvals, session-only (see sessionGuard.ts): only an owner or administrator signed in to the dashboard
// decides, so an approval is a person's confirmation; no API key, OAuth token or MCP tool reaches these routes.
//   GET  /auth/approvals                       the drafts awaiting approval and the queued posts whose change
//                                              waits (`pendingChange`), oldest request first
//   POST /auth/approvals/:postId/approve       {publishAt?, updatedAt?}: queued at the time wanted, or at
//                                              publishAt (a waiting change applied); only as the approver saw it
//                                              (updatedAt), if they say
//   POST /auth/approvals/:postId/reject        {comment?}: stays a draft with the comment (a waiting change is
//                                              dropped, the post stays as it was)
import express from 'express';
import { workspaceData } from '../db/workspaceData.ts';
import { invalidRequest } from '../domain/errors.ts';
import { parseInstant } from '../domain/when.ts';
import { mailRequester } from '../handlers/approvalMail.ts';
import { approvePost, rejectPost } from '../handlers/posts/approvals.ts';
import { wirePost } from '../handlers/posts/wire.ts';
import type { Services } from '../runtime/services.ts';
import { bodyOf, sessionRoute, type SessionCredential } from './sessionGuard.ts';

const decide = { role: 'administrator', action: 'Approving or rejecting posts' } as const;

function checkedBody(body: Record<string, unknown>, ...known: string[]) {
  const unknown = Object.keys(body).find((k) => !known.includes(k));
  if (unknown) throw invalidRequest(`Unknown field ${unknown}; this takes only ${known.join(' and ')}.`);
}

export function approvalRoutes(services: Services): express.Router {
  const router = express.Router();
  const dataOf = (cred: SessionCredential) => workspaceData(services.db, cred.workspace, services.clock, services.jobs);

  router.get(
    '/approvals',
    sessionRoute(services, decide, async (cred) => {
      const posts = await dataOf(cred).posts.pendingApprovals(200);
      return { status: 200, body: { posts: posts.map((p) => wirePost(p, cred.workspace.tz)) } };
    }),
  );

  /** The post's requester and whether a change of a queued post waits, read before the decision changes either. */
  const requestOf = async (cred: SessionCredential, postId: string) => {
    const post = await dataOf(cred).posts.get(postId);
    return { requester: post?.approval?.requestedBy, change: !!post?.pendingChange };
  };

  router.post(
    '/approvals/:postId/approve',
    sessionRoute(services, decide, async (cred, req) => {
      const body = bodyOf(req);
      checkedBody(body, 'publishAt', 'updatedAt');
      const publishAt = body.publishAt === undefined ? undefined : parseInstant(body.publishAt);
      if (body.publishAt !== undefined && !publishAt)
        throw invalidRequest(
          'publishAt must be an ISO 8601 instant with a four-digit year and its offset, such as 2026-11-24T13:30:00Z.',
          'Pick the time again and approve the post at it.',
        );
      const { updatedAt } = body;
      if (updatedAt !== undefined && typeof updatedAt !== 'string')
        throw invalidRequest("updatedAt must be the post's updatedAt as the approver read it.");
      const postId = String(req.params.postId);
      const { requester, change } = await requestOf(cred, postId);
      const post = await approvePost(cred, dataOf(cred), services, postId, { publishAt, seen: updatedAt });
      const answer = wirePost(post, cred.workspace.tz);
      if (requester)
        await mailRequester(services, cred, requester, post, { approved: true, change, statusLine: answer.statusLine });
      return { status: 200, body: answer };
    }),
  );

  router.post(
    '/approvals/:postId/reject',
    sessionRoute(services, decide, async (cred, req) => {
      const body = bodyOf(req);
      checkedBody(body, 'comment');
      const { comment } = body;
      if (comment !== undefined && (typeof comment !== 'string' || comment.length > 1000))
        throw invalidRequest('comment must be text of at most 1000 characters.');
      const postId = String(req.params.postId);
      const { requester, change } = await requestOf(cred, postId);
      const said = comment?.trim() || null;
      const post = await rejectPost(cred, dataOf(cred), services.clock, postId, said);
      const answer = wirePost(post, cred.workspace.tz);
      if (requester)
        await mailRequester(services, cred, requester, post, {
          approved: false,
          change,
          statusLine: answer.statusLine,
          comment: said,
        });
      return { status: 200, body: answer };
    }),
  );

  return router;
}
