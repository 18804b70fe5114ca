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
