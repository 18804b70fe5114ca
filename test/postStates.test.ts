// The post state table against the spec's "States and transitions": every row of the spec is a move of
// the table, `live` is final, and every refusal is the exact 409 invalid_state text a person gets.
import { describe, expect, it } from 'vitest';
import {
  deletionRefusal,
  nextState,
  POST_TRANSITIONS,
  PostStateRefused,
  refusal,
  storedStatus,
  systemMove,
  type PersonAction,
  type PostState,
} from '../domain/postStates.ts';

const PERSON: PersonAction[] = ['cancel', 'reschedule', 'retry', 'edit', 'awaitApproval'];
const refused = (state: PostState, action: PersonAction) => {
  const r = refusal({ id: 'pst_1', state }, action);
  return r && { message: r.message, hint: r.hint };
};

describe("the spec's state table", () => {
  it("has exactly the spec's four states as stored states, plus publishing stored as queued", () => {
    expect(Object.keys(POST_TRANSITIONS).sort()).toEqual(['draft', 'failed', 'live', 'publishing', 'queued']);
    expect(
      Object.keys(POST_TRANSITIONS)
        .map((s) => storedStatus(s as PostState))
        .sort(),
    ).toEqual(['draft', 'failed', 'live', 'queued', 'queued']);
  });

  it('failed -> retry -> queued', () => expect(nextState({ id: 'pst_1', state: 'failed' }, 'retry')).toBe('queued'));
  it('queued -> cancel -> draft', () => expect(nextState({ id: 'pst_1', state: 'queued' }, 'cancel')).toBe('draft'));
  it('queued -> reschedule -> queued', () => {
    expect(nextState({ id: 'pst_1', state: 'queued' }, 'reschedule')).toBe('queued');
  });
  it('draft -> reschedule (its first time) -> queued', () => {
    expect(nextState({ id: 'pst_1', state: 'draft' }, 'reschedule')).toBe('queued');
  });
  it('an edit keeps the state of a draft, a queued and a failed post', () => {
    for (const state of ['draft', 'queued', 'failed'] as const)
      expect(nextState({ id: 'pst_1', state }, 'edit')).toBe(state);
  });
  it('a change that needs approval makes a draft of a draft and a failed post, never unqueues', () => {
    for (const state of ['draft', 'failed'] as const)
      expect(nextState({ id: 'pst_1', state }, 'awaitApproval')).toBe('draft');
    // A queued post keeps its time and approved content; the change waits beside it.
    expect(nextState({ id: 'pst_1', state: 'queued' }, 'awaitApproval')).toBe('queued');
  });
  it('deleting: a draft or a failed post goes; a queued one is cancelled first; live and publishing stay', () => {
    const deleting = (state: PostState) => deletionRefusal({ id: 'pst_1', state })?.message;
    expect(deleting('draft')).toBeUndefined();
    expect(deleting('failed')).toBeUndefined();
    expect(deletionRefusal({ id: 'pst_1', state: 'queued' })).toMatchObject({
      message: 'Post pst_1 is queued; a queued post is cancelled before it is deleted.',
      hint: 'Cancel it first (POST /posts/{postId}/cancel): it becomes a draft, which can then be deleted.',
      action: 'delete',
    });
    expect(deleting('live')).toBe('Post pst_1 is live; a live post cannot be deleted.');
    expect(deleting('publishing')).toContain('being published right now');
  });

  it('queued -> worker publishes -> live when the network accepts, failed when it rejects', () => {
    expect(systemMove('start')).toEqual({ from: ['queued'], to: 'publishing' });
    expect(systemMove('succeed')).toEqual({ from: ['publishing'], to: 'live' });
    expect(systemMove('fail')).toEqual({ from: ['queued', 'publishing'], to: 'failed' });
  });

  it('a temporary failure stays queued; a reconnected account queues its token-failed posts again', () => {
    expect(systemMove('retryLater')).toEqual({ from: ['publishing'], to: 'queued' });
    expect(systemMove('release')).toEqual({ from: ['queued', 'publishing'], to: 'queued' });
    expect(systemMove('reconnect')).toEqual({ from: ['failed'], to: 'queued' });
  });

  it('live: no way back, whatever a person asks, and the system never moves it', () => {
    for (const action of PERSON) {
      expect(refused('live', action)).toEqual({
        message: 'Post pst_1 is live; a live post cannot be changed.',
        hint: 'Create a new post instead.',
      });
    }
    expect(Object.keys(POST_TRANSITIONS.live).sort()).toEqual([...PERSON].sort());
  });
});

describe('409 invalid_state: what each refused action answers', () => {
  it('cancel is for queued posts only', () => {
    expect(refused('draft', 'cancel')).toEqual({
      message: 'Post pst_1 is draft; only a queued post can be cancelled.',
      hint: 'It is already a draft.',
    });
    expect(refused('failed', 'cancel')).toEqual({
      message: 'Post pst_1 is failed; only a queued post can be cancelled.',
      hint: 'Retry it, or leave it failed.',
    });
  });

  it('retry is for failed posts only', () => {
    const hint = 'Poll the post; a queued post is sent at its time.';
    const message = (state: string) => `Post pst_1 is ${state}; only a failed post can be retried.`;
    expect(refused('queued', 'retry')).toEqual({ message: message('queued'), hint });
    expect(refused('draft', 'retry')).toEqual({ message: message('draft'), hint });
    // A post being published shows as queued, and is refused as one.
    expect(refused('publishing', 'retry')).toEqual({ message: message('queued'), hint });
  });

  it('a failed post is sent again with retry, not reschedule', () => {
    expect(refused('failed', 'reschedule')).toEqual({
      message: 'Post pst_1 failed; a failed post is sent again with retry, not reschedule.',
      hint: 'Use POST /posts/{postId}/retry.',
    });
  });

  it('nothing a person does reaches a post whose attempt started', () => {
    for (const action of ['cancel', 'reschedule', 'edit', 'awaitApproval'] as const) {
      expect(refused('publishing', action)).toEqual({
        message: 'Post pst_1 is being published right now; it cannot be changed until that attempt ends.',
        hint: 'Read the post again in a few seconds: it will be live, or failed and ready to retry.',
      });
    }
    for (const action of PERSON) {
      expect(refusal({ id: 'pst_1', state: 'publishing' }, action)).toBeInstanceOf(PostStateRefused);
    }
  });

  it('nextState throws the refusal, naming the post, its state and the action', () => {
    expect(() => nextState({ id: 'pst_9', state: 'live' }, 'cancel')).toThrow(PostStateRefused);
    try {
      nextState({ id: 'pst_9', state: 'live' }, 'cancel');
    } catch (err) {
      expect(err).toMatchObject({
        postId: 'pst_9',
        state: 'live',
        action: 'cancel',
        message: 'Post pst_9 is live; a live post cannot be changed.',
      });
    }
  });
});
