// Approvals: a workspace may require an owner's or administrator's approval for the posts of some
// creators. Such a post is a draft carrying its approval: pending (who asked, when, the time they want) until a
// person decides in the dashboard, then gone (approved: the post is queued) or rejected (the draft keeps the comment).
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('workspaces', (t) => {
    // Which creators need approval, as a JSON array of `members`, `apiKeys`, `mcpClients`.
    t.text('approval_required_for').notNullable().defaultTo('[]');
  });
  await db.schema.alterTable('posts', (t) => {
    // null (none), `pending` or `rejected`.
    t.string('approval_state');
    t.string('approval_requested_by');
    t.string('approval_requested_at');
    // The instant the requester wants; null for "now" (as soon as it is approved).
    t.string('approval_wanted_at');
    t.string('approval_decided_by');
    t.string('approval_decided_at');
    t.text('approval_comment');
    // The approvals page lists a workspace's pending posts.
    t.index(['workspace_id', 'approval_state', 'approval_requested_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('posts', (t) => {
    t.dropIndex(['workspace_id', 'approval_state', 'approval_requested_at']);
    for (const c of ['state', 'requested_by', 'requested_at', 'wanted_at', 'decided_by', 'decided_at', 'comment'])
      t.dropColumn(`approval_${c}`);
  });
  await db.schema.alterTable('workspaces', (t) => t.dropColumn('approval_required_for'));
}
