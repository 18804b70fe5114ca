// An account's posting times (the posting queue, issue 29) in the dashboard's words.
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
} as const;

/** The "when" choices in compose: a time, the queue, at once, or a draft. */
export const WHEN_LABEL = {
  at: 'At a date and time',
  queue: 'Add to queue',
  now: 'Now',
  draft: 'Save as draft',
} as const;

/** "Add to queue" in compose and the plan table (the posting queue, issue 29). */
export const QUEUE_WORDS = {
  hint: "Each account gets its next free posting time: the plan shows which. Set an account's times on its page.",
  nextFree: 'Its next free posting time',
  noTime: 'No free posting time',
  noSlots: (account: string) => `${account} has no posting times yet.`,
  allTaken: (account: string) => `Every posting time of ${account} in the coming year already has a post.`,
  setTimes: (account: string) => `Set the posting times of ${account}`,
  preview: 'At the next posting time',
} as const;
