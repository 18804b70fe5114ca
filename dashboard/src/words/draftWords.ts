// The words of typing that is kept: compose's draft kept in the tab, and the question before a form with changes
// is left.

/** The question asked before leaving a form with changes, and its button that leaves. */
export interface LeaveWords {
  title: string;
  description: string;
  action: string;
}

export const LOSE_WORDS: LeaveWords = {
  title: 'Leave without saving?',
  description: 'What you typed here is not saved yet and will be lost.',
  action: 'Leave and lose it',
};

export const COMPOSE_LEAVE_WORDS: LeaveWords = {
  title: 'Leave this post unsaved?',
  description:
    'It stays in this tab: come back to compose to finish it, or discard it there. Closing the tab loses it.',
  action: 'Leave for now',
};

export const DRAFT_WORDS = {
  discard: 'Discard what I typed',
  discardTitle: 'Discard what you typed?',
  discardBody: (editing: boolean) =>
    editing
      ? 'The form goes back to the post as it is saved. Nothing is sent.'
      : 'The form starts empty again. Nothing is sent.',
  changedSince: (when: string) =>
    `Someone changed this post ${when}, after you began editing it. Saving replaces their change with what is ` +
    'here; start again from the saved post to keep it.',
  startAgain: 'Start again from the saved post',
  keptAfterRefusal: 'Nothing was saved, and everything you typed is still here: send it again with the button.',
};
