// An account's posting times (the posting queue) in the dashboard's words.
export const DAY_LABEL = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
} as const;

export const SCHEDULE_WORDS = {
  title: 'Posting times',
  intro: (zone: string) =>
    `Each week at these times, in ${zone}. "Add to queue" gives a post the next time no other post of this ` +
    'account has.',
  empty: 'No posting times yet.',
  slot: (day: string, time: string) => `${day} at ${time}`,
  remove: (day: string, time: string) => `Remove ${day} at ${time}`,
  day: 'Day',
  time: 'Time',
  add: 'Add time',
  save: 'Save posting times',
  next: 'Next free times',
  noNext: 'None: add posting times first.',
  queue: 'See the queue',
} as const;

/** The "when" choices in compose: a time, the queue, at once, or a draft. */
export const WHEN_LABEL = {
  at: 'At a date and time',
  queue: 'Add to queue',
  now: 'Now',
  draft: 'Save as draft',
} as const;

/** "Add to queue" in compose and the plan table (the posting queue). */
export const QUEUE_WORDS = {
  hint: "Each account gets its next free posting time: the plan shows which. Set an account's times on its page.",
  nextFree: 'Its next free posting time',
  noTime: 'No free posting time',
  noSlots: (account: string) => `${account} has no posting times yet.`,
  allTaken: (account: string) => `Every posting time of ${account} in the coming year already has a post.`,
  setTimes: (account: string) => `Set the posting times of ${account}`,
  preview: 'At the next posting time',
} as const;

/** An account's queue page: its coming posts on their times and the free times between. */
export const QUEUE_PAGE_WORDS = {
  title: (account: string) => `Queue of ${account}`,
  link: 'Queue',
  linkFor: (account: string) => ` of ${account}`,
  intro: (zone: string, days: number, drag: boolean) =>
    `The next ${days / 7} weeks, in ${zone}. ` +
    (drag
      ? "Drag a post onto another post's time to swap the two, or onto a free time to move it there; " +
        'Move earlier and Move later do the same one step at a time.'
      : "Move earlier and Move later change a post's place one step at a time."),
  postingTimes: 'Posting times',
  noSlots: 'No posting times yet',
  noSlotsHint: 'Set the weekly posting times of this account: "Add to queue" in compose gives posts the next free one.',
  nothing: 'Nothing in the coming weeks.',
  free: 'Free posting time',
  earlier: 'Move earlier',
  later: 'Move later',
  publishNow: 'Publish now',
  /** The post a control acts on, for screen readers: the row's time. */
  which: (time: string) => `, the post at ${time}`,
  swapTitle: 'Swap the times of these two posts?',
  swapAction: 'Swap the times',
  swapBody: (first: string, firstTime: string, second: string, secondTime: string) =>
    `"${first}" moves to ${secondTime}, and "${second}" moves to ${firstTime}. Both change together, or neither does.`,
  moveTitle: 'Move this post to a free time?',
  moveAction: (time: string) => `Move to ${time}`,
  moveBody: (post: string, from: string, to: string) => `"${post}" moves from ${from} to ${to}.`,
  publishTitle: 'Publish this post now?',
  publishAction: 'Publish now',
  publishBody: (post: string) => `"${post}" is sent to its network now instead of at its time; its time becomes free.`,
} as const;
