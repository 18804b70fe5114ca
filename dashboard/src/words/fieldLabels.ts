// The labels people see on the dashboard's forms, by the API's field or setting name: sentences name a field
// the way the form does, and the forms take their labels from here so the two cannot part.

/** A network setting (perPlatform.<network>.<name>) as compose labels it. */
export const SETTING_LABELS = {
  contentType: 'Post type',
  link: 'Link',
  topicTag: 'Topic tag',
  visibility: 'Visibility',
  category: 'Category',
  madeForKids: 'Made for kids',
  thumbnailMediaId: 'Thumbnail',
  playlistId: 'Playlist',
  privacyLevel: 'Who can see it',
  disableComment: 'Turn off comments',
  disableDuet: 'Turn off duets (videos)',
  disableStitch: 'Turn off stitches (videos)',
  brandOrganic: 'Promotes your own business (labelled “Promotional content”)',
  brandContent: 'Promotes another brand in exchange for something (labelled “Paid partnership”)',
  isAigc: 'Made with AI (labelled “AI-generated”)',
  autoAddMusic: 'Add recommended music (photos)',
  coverTimestampMs: 'Cover frame',
  altTexts: 'Alt text',
} as const satisfies Record<string, string>;

/** A request field as the forms label it (sign-up, sign-in, settings, compose, media). */
export const FIELD_LABELS: Record<string, string> = {
  email: 'Email',
  password: 'Password',
  identifier: 'Handle or email',
  server: 'Server',
  currentPassword: 'Current password',
  newPassword: 'New password',
  name: 'Name',
  timeZone: 'Time zone',
  tz: 'Time zone',
  url: 'Web address',
  events: 'Events',
  role: 'Role',
  slug: 'Slug',
  currency: 'Currency',
  plan: 'Plan',
  text: 'Text',
  title: 'Title',
  tags: 'Tags',
  'when.publishAt': 'When',
};
