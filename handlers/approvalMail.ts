// Mail about approvals: approvers hear that posts wait, requesters hear what was decided. Mail is a
// courtesy after the change committed: a mail that cannot be sent is logged, never a failure of the change.
import { listMembers } from '../db/members.ts';
import type { PostRecord } from '../db/postRecords.ts';
import type { Credential } from '../domain/credential.ts';
import { networkOf } from '../networks/index.ts';
import { sendEach, type Mail } from '../runtime/mailer.ts';
import type { Services } from '../runtime/services.ts';

const approvalsPage = (services: Services) => `${services.config.publicUrl}/app/approvals`;

const describe = (post: PostRecord) => {
  const text = post.text.length > 80 ? `${post.text.slice(0, 80)}…` : post.text;
  return `${networkOf(post.platform).label} · ${post.accountName}: "${text}"`;
};

const send = (services: Services, mails: Mail[]) =>
  sendEach(services.mailer, services.logger, mails, 'an approval mail');

/** Tells each owner and administrator (but the asker) that `posts` wait for approval. */
export async function mailApprovers(services: Services, cred: Credential, posts: PostRecord[]): Promise<void> {
  const approvers = (await listMembers(services.db, cred.workspace.id)).filter(
    (m) => m.role !== 'member' && m.email && m.userId !== cred.user.id,
  );
  // Changes to queued posts (those stay as they are meanwhile) are named so, new posts as posts.
  const changes = posts.every((p) => p.pendingChange);
  const things = changes ? ['A change to a scheduled post', 'changes to scheduled posts'] : ['A post', 'posts'];
  const count = posts.length === 1 ? `${things[0]} waits` : `${posts.length} ${things[1]} wait`;
  const text =
    `${count} for your approval in ${cred.workspace.name}, asked by ${cred.user.name}:\n\n` +
    `${posts.map(describe).join('\n')}\n\nApprove or reject: ${approvalsPage(services)}`;
  await send(
    services,
    approvers.map((m) => ({ to: m.email!, subject: `${count} for approval in ${cred.workspace.name}`, text })),
  );
}

/**
 * Tells who asked (`requesterId`) that `post`, or their `change` to the queued post, was approved or rejected (with
 * the comment), and where the post stands (its `statusLine`).
 */
export async function mailRequester(
  services: Services,
  cred: Credential,
  requesterId: string,
  post: PostRecord,
  decision: { approved: boolean; change: boolean; statusLine: string; comment?: string | null },
): Promise<void> {
  if (requesterId === cred.user.id) return;
  const requester = await services.db('users').where({ id: requesterId }).first('email');
  if (!requester?.email) return;
  const word = decision.approved ? 'approved' : 'rejected';
  const what = decision.change ? 'change to the post' : 'post';
  const outcome =
    decision.approved || decision.change
      ? decision.statusLine
      : `It stays a draft.${decision.comment ? ` Their comment: ${decision.comment}` : ''}`;
  const said = decision.change && decision.comment ? `\n\nTheir comment: ${decision.comment}` : '';
  await send(services, [
    {
      to: requester.email,
      subject: `Your ${what} was ${word} in ${cred.workspace.name}`,
      text:
        `${cred.user.name} ${word} your ${what} ${describe(post)}${said}\n\n${outcome}\n\n` +
        `${services.config.publicUrl}/app/posts/${post.id}`,
    },
  ]);
}
