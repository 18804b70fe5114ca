// The post state machine of the spec ("States and transitions") as data: for each state and action,
// the next state or the refusal a person gets. Handlers, the posts repository and the publishing worker
// all move posts by this one table.
import type { PostStatus } from './statusLine.ts';

/**
 * The spec's four states, plus `publishing`: a queued post whose attempt has started (the network may
 * have been called). It is stored and shown as `queued`; only the table tells it apart, because a
 * person can no longer change it.
 */
export type PostState = PostStatus | 'publishing';

/**
 * What a person asks for (API, MCP, dashboard); `edit` changes the content and keeps the state; `awaitApproval` is a
 * change by someone whose posts need approval: a draft or failed post waits as a draft until it is approved, while a
 * queued post keeps its time and approved content and the change waits beside it (never unscheduled unapproved).
 */
export type PersonAction = 'cancel' | 'reschedule' | 'retry' | 'edit' | 'awaitApproval';
/**
 * What the system does: the worker starts an attempt (`start`), which ends live (`succeed`), failed
 * (`fail`), queued for a later try after a temporary failure (`retryLater`), or given back unsent
 * (`release`); a reconnected account sends its token-failed posts again (`reconnect`).
 */
export type SystemAction = 'start' | 'succeed' | 'fail' | 'retryLater' | 'release' | 'reconnect';

/** Why a person's action is refused; `{id}` stands for the post's id. */
export interface Refusal {
  message: string;
  hint: string;
}

type Row = { [A in PersonAction]: PostState | Refusal } & { [A in SystemAction]?: PostState };

const LIVE_IS_FINAL: Refusal = {
  message: 'Post {id} is live; a live post cannot be changed.',
  hint: 'Create a new post instead.',
};
const BEING_PUBLISHED: Refusal = {
  message: 'Post {id} is being published right now; it cannot be changed until that attempt ends.',
  hint: 'Read the post again in a few seconds: it will be live, or failed and ready to retry.',
};
const onlyFailedRetried = (state: PostState): Refusal => ({
  message: `Post {id} is ${state}; only a failed post can be retried.`,
  hint: 'Poll the post; a queued post is sent at its time.',
});

export const POST_TRANSITIONS: Readonly<Record<PostState, Row>> = {
  draft: {
    cancel: { message: 'Post {id} is draft; only a queued post can be cancelled.', hint: 'It is already a draft.' },
    reschedule: 'queued',
    retry: onlyFailedRetried('draft'),
    edit: 'draft',
    awaitApproval: 'draft',
  },
  queued: {
    cancel: 'draft',
    reschedule: 'queued',
    retry: onlyFailedRetried('queued'),
    edit: 'queued',
    awaitApproval: 'queued',
    start: 'publishing',
    // A reservation the worker cannot send (no connector, the account's token gone) fails unstarted.
    fail: 'failed',
    // A worker's reservation made ahead of the due time is given back before it starts.
    release: 'queued',
  },
  publishing: {
    cancel: BEING_PUBLISHED,
    reschedule: BEING_PUBLISHED,
    // Shown as queued, so refused as a queued post is.
    retry: onlyFailedRetried('queued'),
    edit: BEING_PUBLISHED,
    awaitApproval: BEING_PUBLISHED,
    succeed: 'live',
    fail: 'failed',
    retryLater: 'queued',
    release: 'queued',
  },
  live: {
    cancel: LIVE_IS_FINAL,
    reschedule: LIVE_IS_FINAL,
    retry: LIVE_IS_FINAL,
    edit: LIVE_IS_FINAL,
    awaitApproval: LIVE_IS_FINAL,
  },
  failed: {
    cancel: {
      message: 'Post {id} is failed; only a queued post can be cancelled.',
      hint: 'Retry it, or leave it failed.',
    },
    reschedule: {
      message: 'Post {id} failed; a failed post is sent again with retry, not reschedule.',
      hint: 'Use POST /posts/{postId}/retry.',
    },
    retry: 'queued',
    // Changed content is sent with retry: the change itself sends nothing.
    edit: 'failed',
    // Unless no approver saw it: then it waits as a draft, so that no retry sends it unapproved.
    awaitApproval: 'draft',
    reconnect: 'queued',
  },
};

/**
 * Deleting, which ends a post instead of moving it: a draft or a failed post goes (neither is on its way to
 * the network); the others refuse, a queued one pointing at cancel.
 */
const DELETION: Readonly<Record<PostState, Refusal | undefined>> = {
  draft: undefined,
  failed: undefined,
  queued: {
    message: 'Post {id} is queued; a queued post is cancelled before it is deleted.',
    hint: 'Cancel it first (POST /posts/{postId}/cancel): it becomes a draft, which can then be deleted.',
  },
  publishing: BEING_PUBLISHED,
  live: {
    message: 'Post {id} is live; a live post cannot be deleted.',
    hint: 'Remove it on the network itself if it must go; Herald keeps its record.',
  },
};

/** A person's action the table refuses; the handler answers it as `409 invalid_state`. */
export class PostStateRefused extends Error {
  constructor(
    readonly postId: string,
    readonly state: PostState,
    readonly action: PersonAction | 'delete',
    readonly hint: string,
    message: string,
  ) {
    super(message);
  }
}

/** The refusal of a person's action by the table, or undefined where the table allows it. */
export function refusal(post: { id: string; state: PostState }, action: PersonAction): PostStateRefused | undefined {
  const next = POST_TRANSITIONS[post.state][action];
  if (typeof next === 'string') return undefined;
  return new PostStateRefused(post.id, post.state, action, next.hint, next.message.replace('{id}', post.id));
}

/** The refusal of deleting the post, or undefined where it may go. */
export function deletionRefusal(post: { id: string; state: PostState }): PostStateRefused | undefined {
  const refused = DELETION[post.state];
  return (
    refused &&
    new PostStateRefused(post.id, post.state, 'delete', refused.hint, refused.message.replace('{id}', post.id))
  );
}

/** The state a person's action moves the post to; throws the table's refusal where it has one. */
export function nextState(post: { id: string; state: PostState }, action: PersonAction): PostState {
  const refused = refusal(post, action);
  if (refused) throw refused;
  return POST_TRANSITIONS[post.state][action] as PostState;
}

/** The states a system action applies to, and where it leads: what the worker's conditional updates match and set. */
export function systemMove(action: SystemAction): { from: PostState[]; to: PostState } {
  const moves = Object.entries(POST_TRANSITIONS).flatMap(([from, row]) =>
    row[action] ? [{ from: from as PostState, to: row[action] }] : [],
  );
  const targets = new Set(moves.map((m) => m.to));
  if (targets.size !== 1) throw new Error(`The post state table gives ${action} ${targets.size} targets`);
  return { from: moves.map((m) => m.from), to: moves[0]!.to };
}

/** The stored status of a state: `publishing` is stored as `queued`, with its attempt started. */
export const storedStatus = (state: PostState): PostStatus => (state === 'publishing' ? 'queued' : state);
