// The dashboard's words for every code the API can answer: plan issues, errors, network failures and timeline
// events, one sentence each for people, naming the form's own fields. The API keeps its own words for programs;
// these tables are keyed by the contract's codes, so a code without words fails tsc (the generated enums) or
// words.test.ts (the error codes, which the contract lists in prose).
import type { FailureKind } from '../../../networks/connector.ts';
import type { Platform, Schemas } from '../api.ts';
import { UNIT_LABELS } from '../compose/counters.ts';
import { bytesText } from '../format.ts';
import { labelOf, networkOf } from '../networks.ts';
import { FIELD_LABELS, SETTING_LABELS } from './fieldLabels.ts';
import { rateLimitWords } from './rateLimitWords.ts';
import { TIKTOK_UNAUDITED } from './settingWords.ts';
import { COUNT_PAST_LIMIT, secondsText, sizeTexts } from '../../../networks/rules.ts';
import { speaksApi } from './messageFacts.ts';
import { alreadyMemberWords, downgradeWords, inviteUnusableWords, resetUnusableWords } from './authRefusalWords.ts';

export type IssueCode = Schemas['Issue']['code'];
export type EventKind = Schemas['PostEvent']['kind'];

/** What a plan issue's sentence is made from: the issue's facts, the network's name and the row's account. */
export interface IssueFacts {
  network: string;
  platform: Platform;
  account: string;
  /** The request field at fault (`text`, `mediaIds[1]`, `perPlatform.threads.topicTag`). */
  field: string | undefined;
  limit: number | string | boolean | undefined;
  actual: number | string | boolean | undefined;
  /** The file the field names, as a person counts it ("the first file"). */
  file: string;
  /** The setting the field names (`perPlatform.threads.topicTag` -> `topicTag`). */
  setting: string | undefined;
}

const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);
/** "An Instagram story", "A Threads post". */
const an = (word: string) => `${'AEIOU'.includes(word[0]!) ? 'An' : 'A'} ${word}`;

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];

/** The file a field names by its place in the post (`mediaIds[1]`), as a person counts it. */
function fileNamed(field: string | undefined): string {
  if (field === 'perPlatform.youtube.thumbnailMediaId') return 'the thumbnail';
  if (!field?.startsWith('mediaIds[')) return 'a file of this post';
  const n = Number(field.slice('mediaIds['.length, -1));
  return ORDINALS[n] ? `the ${ORDINALS[n]} file` : `file ${n + 1}`;
}

/** The setting a field names: `perPlatform.bluesky.altTexts[0]` -> `altTexts`. */
function settingNamed(field: string | undefined): string | undefined {
  if (!field?.startsWith('perPlatform.')) return undefined;
  return field.split('.')[2]?.split('[')[0];
}

const number = (value: IssueFacts['limit']) => (typeof value === 'number' ? value : undefined);

/** A count as the server found it: past ten times the limit it stopped counting, "more than" that. */
function countText(actual: number, limit: number): string {
  return actual > COUNT_PAST_LIMIT * limit ? `more than ${COUNT_PAST_LIMIT * limit}` : String(actual);
}

/** "Threads allows 500 characters; this text has 616." when the issue gave both counts. */
function overLimit(f: IssueFacts, what: string, thing: string, fix: string): string {
  const max = number(f.limit);
  const used = number(f.actual);
  if (used === undefined || max === undefined) return `${f.network} allows fewer ${what}. ${fix}`;
  return `${f.network} allows ${max} ${what}; ${thing} has ${countText(used, max)}. ${fix}`;
}

/** The unit of a text limit: the network's own for its text, else (Bluesky's second limit) bytes. */
function textUnit(f: IssueFacts): string {
  const limit = networkOf(f.platform).textLimits.find((l) => l.field === 'text');
  return limit && (f.limit === undefined || limit.max === f.limit) ? UNIT_LABELS[limit.unit] : 'bytes';
}

const settingLabel = (f: IssueFacts) => (SETTING_LABELS as Record<string, string>)[f.setting ?? ''] ?? 'A setting';

export const ISSUE_WORDS: Record<IssueCode, (f: IssueFacts) => string> = {
  caption_too_long: (f) =>
    f.limit === 0
      ? `${an(f.network)} story carries no text. Empty the text for ${f.network}, or choose another Post type.`
      : overLimit(f, textUnit(f), 'this text', `Shorten it, or write a different text for ${f.network}.`),
  title_too_long: (f) => overLimit(f, 'characters in a Title', 'this title', 'Shorten the Title.'),
  tags_too_long: (f) =>
    overLimit(f, 'characters of Tags together (commas and quotes count)', 'these tags', 'Remove some tags.'),
  story_too_long: (f) => durationWords(f, 'at most', 'Trim the video.'),
  aspect_unsupported: (f) =>
    `${f.network} does not take the shape of ${f.file}` +
    `${typeof f.actual === 'string' ? ` (${f.actual})` : ''} for this kind of post. ` +
    'Crop it, or export it at a shape the network accepts.',
  media_kind: mediaKindWords,
  video_too_long: (f) => durationWords(f, 'at most', 'Trim it, or choose another Post type.'),
  video_too_short: (f) => durationWords(f, 'at least', 'Use a longer video.'),
  image_too_large: (f) => sizeWords(f, 'images', 'Export it smaller.'),
  video_too_large: (f) => sizeWords(f, 'videos', 'Export it with a lower bitrate.'),
  media_not_ready: (f) =>
    f.actual === 'deleted'
      ? `${cap(f.file)} was removed 72 hours after a post with it went live. Upload it again (pin files you reuse).`
      : f.actual === 'failed'
        ? `${cap(f.file)} could not be processed, so it cannot be posted. Choose another file.`
        : `${cap(f.file)} is still being processed. This check runs again by itself when it is ready.`,
  forbidden_chars: (f) =>
    `${f.network} refuses < and > in ${f.field === 'title' ? 'the Title' : 'the text'}. Remove them.`,
  youtube_title_required: () => 'YouTube needs a Title. Write one of at most 100 characters.',
  setting_invalid: settingWords,
  account_not_ok: (f) =>
    `${f.account} is ${f.actual === 'revoked' ? 'disconnected' : 'signed out'} on ${f.network}, so it cannot ` +
    'publish. Reconnect it on the Accounts page.',
  carousel_count: (f) => {
    const bound = number(f.limit) !== undefined && number(f.actual)! > number(f.limit)! ? 'at most' : 'at least';
    return (
      `${an(f.network)} carousel takes ${bound} ${f.limit ?? 'a different number of'} files; this post has ` +
      `${f.actual ?? 'another number'}. Add or remove files, or publish them as separate posts.`
    );
  },
  text_required: (f) => `${f.network} needs a text when a post has no file. Write the text, or add a file.`,
  hashtags_too_many: (f) => overLimit(f, 'hashtags', 'this text', 'Remove some.'),
  mentions_too_many: (f) => overLimit(f, '@ mentions', 'this text', 'Remove some.'),
  links_too_many: (f) => overLimit(f, 'different links', 'this post', 'Remove some.'),
  topic_tags_too_many: (f) =>
    `${f.network} takes one topic per post, and this one has ` +
    `${typeof f.actual === 'number' ? countText(f.actual, 1) : 'more'}: the Topic tag and each ` +
    '#tag in the text count as one. Keep one: either the Topic tag, or a single #tag in the text.',
  network_unavailable: (f) =>
    `Publishing to ${f.network} is not available yet. Remove the ${f.network} account from this post.`,
  time_too_soon: () => 'This time has passed or is less than 2 minutes away. Pick a later time, or publish now.',
  time_too_far: () => 'This time is more than a year ahead. Pick an earlier time, or save a draft.',
  queue_empty: () => 'This account has no free posting time in its queue. Set its posting times, or pick a time.',
  time_nonexistent: () =>
    "This time does not exist in the workspace's time zone: the clocks skip that hour. Pick another time.",
  time_ambiguous: () =>
    "This time happens twice in the workspace's time zone (the clocks go back an hour); the first one is used.",
};

function durationWords(f: IssueFacts, bound: string, fix: string): string {
  const is = number(f.actual);
  const limit = number(f.limit);
  return (
    `${cap(f.file)} is ${is === undefined ? 'too long' : secondsText(is)}; ${f.network} allows ${bound} ` +
    `${limit === undefined ? 'less' : secondsText(limit)} here. ${fix}`
  );
}

function sizeWords(f: IssueFacts, kind: string, fix: string): string {
  const is = number(f.actual);
  const limit = number(f.limit);
  const [size, max] = is !== undefined && limit !== undefined ? sizeTexts(is, limit) : ['too large', 'a smaller size'];
  return `${cap(f.file)} is ${size}; ${f.network} takes ${kind} up to ${max}. ${fix}`;
}

function mediaKindWords(f: IssueFacts): string {
  if (f.setting === 'thumbnailMediaId') return 'The YouTube Thumbnail must be a JPEG or PNG image. Choose another.';
  if (f.actual === 0) return `${f.network} needs a file for this post. Add a photo or video.`;
  if (f.limit === 0) return `This kind of ${f.network} post takes no files. Remove them, or change Post type.`;
  if (f.limit === 'video' && f.actual === 'image')
    return `${f.network} needs a video here, and ${f.file} is an image. Choose a video.`;
  if (f.limit === 'image' && f.actual === 'video')
    return `${f.network} photo posts take images only. Remove the video.`;
  if (typeof f.actual === 'string')
    return `${f.network} does not take the format of ${f.file}. Export it as MP4 (a video) or JPEG (a photo).`;
  const count = number(f.actual);
  return `${f.network} takes one file for this kind of post${count ? `, and this post has ${count}` : ''}. Keep one.`;
}

function settingWords(f: IssueFacts): string {
  const label = settingLabel(f);
  if (f.setting === 'link' && f.actual === undefined) return `${an(f.network)} link post needs a Link. Add one.`;
  if (f.setting === 'link' && typeof f.actual === 'number')
    return `${f.network} adds a Link to text posts only, and this post has files. Remove the Link or the files.`;
  if (f.setting === 'link') return `The Link for ${f.network} must be a full address starting with https://.`;
  if (f.setting === 'topicTag') return `The Topic tag for ${f.network} must be 1 to 50 characters, without “.” or “&”.`;
  if (f.setting === 'thumbnailMediaId') return 'The YouTube Thumbnail is not a file of this workspace. Choose another.';
  if (f.setting === 'privacyLevel' && f.actual === undefined) return 'Choose who can see this TikTok post.';
  if (!f.setting && f.actual === 'public') return TIKTOK_UNAUDITED.accountPublic;
  if (!f.setting && typeof f.limit === 'number') return TIKTOK_UNAUDITED.noPlaceLeft;
  if (f.setting === 'privacyLevel' && f.limit === 'SELF_ONLY')
    return 'TikTok takes only private posts (Only me) until it has reviewed this Herald’s app. Choose Only me.';
  if (f.setting === 'privacyLevel')
    return 'This TikTok account does not offer that audience. Choose another in Who can see it.';
  if (f.limit === true && f.actual === false)
    return 'The TikTok account turned this off in its own settings, so the post keeps it off. Leave it as it is.';
  if (f.setting === 'brandContent') return 'A paid partnership cannot be private on TikTok. Choose a wider audience.';
  if (f.setting === 'altTexts' && f.field?.endsWith(']'))
    return `${f.network} takes an Alt text of at most ${f.limit} characters. Shorten it.`;
  if (f.setting === 'altTexts') return `There are more Alt texts than files for ${f.network}. Remove the extra ones.`;
  return `${label} for ${f.network} has a value ${f.network} does not take. Change it, or leave it for the default.`;
}

/** A plan issue as a sentence for people, naming the form's field, from the facts the server found. */
export function issueWords(issue: Schemas['Issue'], platform: Platform, account = 'This account'): string {
  return ISSUE_WORDS[issue.code]({
    network: labelOf(platform),
    platform,
    account,
    field: issue.field,
    limit: issue.limit,
    actual: issue.actual,
    file: fileNamed(issue.field),
    setting: settingNamed(issue.field),
  });
}

/** An error for people: what happened and what to do; `signIn` offers signing in again, back to this page. */
export interface Words {
  title: string;
  hint?: string;
  signIn?: boolean;
  /** The network's own words, quoted, when they say what to change; shown after `quoteLead`, before the hint. */
  quote?: string;
  /** Who said the quote ("Facebook said:"). */
  quoteLead?: string;
  /** The things the sentence is about (the posts that hold a file), by name, in groups with a heading each. */
  linkGroups?: { heading: string; links: { label: string; href: string }[] }[];
}

/** What an error's words can use besides its code: the server's message, its extra fields, and its status. */
export interface FailureFacts {
  code: string;
  message: string;
  status: number;
  body: Record<string, unknown>;
}

/** A role as the insufficient_role refusal names it: the one needed, and the person's own. */
const ROLE_NEEDED: Record<string, string> = {
  member: 'the member role',
  administrator: 'the administrator role',
  owner: 'the owner',
};
const ROLE_HELD: Record<string, string> = { member: 'a member', administrator: 'an administrator', owner: 'the owner' };

const same = (title: string, hint?: string) => (): Words => ({ title, ...(hint ? { hint } : {}) });

/** What the forms' own fields must be, for a refusal that names one; any other field is named by its label. */
const FIELD_RULES: Record<string, string> = {
  email: 'Email must be an email address.',
  password: 'Password must be 10 to 200 characters.',
  newPassword: 'New password must be 10 to 200 characters.',
  name: 'Name must be 1 to 100 characters.',
  timeZone: 'Time zone must be a time zone such as Europe/Paris.',
  tz: 'Time zone must be a time zone such as Europe/Paris.',
};

/** A validation refusal by the field it names (its `field` fact), or undefined for a field no form has. */
function fieldSentence(field: unknown): string | undefined {
  if (typeof field !== 'string') return undefined;
  const label = FIELD_LABELS[field];
  return FIELD_RULES[field] ?? (label && `${label} is not valid as given.`);
}

/** The first failing row of a checks_failed answer, in the plan's own words. */
function checksFailedWords(f: FailureFacts): Words {
  const rows = (f.body.rows ?? []) as Schemas['PlanRow'][];
  const row = rows.find((r) => !r.ok && r.issues.length);
  const first = row?.issues.find((i) => i.code !== 'time_ambiguous');
  const hint = 'Nothing was changed. Fix what it says, then try again.';
  if (!row || !first) return { title: 'The post no longer passes its network’s checks.', hint };
  return { title: issueWords(first, row.platform), hint };
}

/**
 * A plan limit, from its facts: a file too large or storage full in sizes people read; any other limit in the
 * server's sentence, which names it for people already ("The free plan allows 1 member, and 1 seat is taken…").
 */
function quotaWords(f: FailureFacts): Words {
  const hint = 'Cancel a queued post, disconnect an account or delete files, or see the plans.';
  const { quota, limit, used, actual } = f.body as Partial<Schemas['QuotaError']>;
  if (quota === 'maxFileBytes' && limit !== undefined && used !== undefined)
    return { title: `This file is ${bytesText(used)}; your plan takes files up to ${bytesText(limit)}.`, hint };
  if (quota === 'storageBytes' && limit !== undefined && used !== undefined && actual !== undefined) {
    const title =
      `This file needs ${bytesText(actual)}, and ${bytesText(used)} of your plan’s ${bytesText(limit)} of ` +
      'storage are used or taken by uploads in progress.';
    return { title, hint: 'Delete files you no longer need, or see the plans.' };
  }
  return { title: f.message, hint };
}

/** Every error code of the contract (its Errors table and each operation's answers) and of the session routes. */
export const ERROR_WORDS = {
  access_denied: same('The connection was not allowed on the network.', 'Connect again and allow Herald access.'),
  account_exists: same(
    'We could not sign you in with that password.',
    'If this address already has a Herald account, we sent it a note: sign in, or choose a new password with ' +
      '“Forgot your password?”.',
  ),
  account_mismatch: same(
    'You signed in to the network as a different account than the one being reconnected.',
    'Sign in on the network as that account, then reconnect.',
  ),
  account_not_ok: same(
    'This account is signed out or disconnected on its network, so it cannot publish.',
    'Reconnect it on the Accounts page, then try again.',
  ),
  address_expired: same('This link has expired.', 'Start again from the dashboard.'),
  address_invalid: same('This link is not valid.', 'Start again from the dashboard.'),
  already_member: (f: FailureFacts): Words => alreadyMemberWords(f.body),
  app_password_refused: same(
    'The network did not accept this handle and app password.',
    'Check both, and that the server is the one the account lives on, then connect again.',
  ),
  app_password_required: same(
    'This is the account’s own password; Herald connects with an app password.',
    'Create an app password in the network’s settings (Privacy and security, App passwords) and use it here.',
  ),
  already_uploaded: same('This file was already uploaded.', 'It is being processed; it shows in the library.'),
  checks_failed: checksFailedWords,
  confirm_required: same('Herald needs your confirmation for this.', 'Try again and confirm.'),
  connect_failed: same('The network did not finish connecting the account.', 'Try connecting again.'),
  content_type_mismatch: same(
    'The file’s type is not the one announced for it.',
    'Upload the file again from the media library.',
  ),
  csrf_failed: same('This page is out of date.', 'Reload the page, then try again.'),
  downgrade_blocked: (f: FailureFacts): Words => downgradeWords(f.body),
  folder_not_empty: same('This folder still holds files or folders.', 'Move or delete them first.'),
  idempotency_key_in_use: same('The same change is still being made.', 'Wait a moment; it finishes by itself.'),
  idempotency_key_reused: same('This change clashes with an earlier one.', 'Reload the page, then try again.'),
  insufficient_role: (f: FailureFacts): Words => {
    // The refusal names the role needed (`limit`) and the person's own (`actual`) as facts.
    const needed = ROLE_NEEDED[String(f.body.limit)];
    const own = ROLE_HELD[String(f.body.actual)];
    const hint = 'Ask an administrator or the owner to do it, or to change your role.';
    if (!needed || !own) return { title: 'Your role in this workspace does not allow this.', hint };
    const title = `This needs ${needed}; you are ${own} of this workspace.`;
    return { title, hint: f.body.limit === 'owner' ? 'Ask the workspace owner to do it.' : hint };
  },
  insufficient_scope: same('This key may only read.', 'Use a key that may write.'),
  insufficient_storage: same(
    'The server’s disk is full, so this was not saved.',
    'Try again later; tell whoever runs this Herald to free space.',
  ),
  internal: same('Something went wrong in Herald.', 'Try again; if it goes on, tell whoever runs this Herald.'),
  invalid_request: (f: FailureFacts): Words => {
    const sentence = fieldSentence(f.body.field);
    return sentence
      ? { title: sentence }
      : { title: 'Herald could not take what was sent.', hint: 'Check the form’s fields, then try again.' };
  },
  approval_time_passed: same(
    'The time asked for this post has passed.',
    'Pick a new time for it on the approvals page, then approve it.',
  ),
  invalid_state: (f: FailureFacts): Words =>
    // The refusal names the post's state as `actual` (domain/postStates.ts); two of them people can be told.
    f.body.actual === 'publishing'
      ? {
          title: 'This post is being published right now.',
          hint: 'Look again in a few seconds: it will be published, or failed and ready to retry.',
        }
      : f.body.actual === 'live'
        ? { title: 'This post is already published, and stays as it is.', hint: 'Create a new post instead.' }
        : {
            title: 'The post is no longer in a state that allows this.',
            hint: 'Reload the page to see where it stands now.',
          },
  invite_for_someone_else: same(
    'This invitation was sent to another email address.',
    'Sign in with the address it was sent to, or ask for a new invitation.',
  ),
  invite_unusable: (f: FailureFacts): Words => inviteUnusableWords(f.body),
  media_in_use: (f: FailureFacts): Words => {
    // media/inUse.ts adds the file's and the posts' names; without them the sentence still names no id.
    const groups = (f.body.groups ?? []) as { account: string; posts: { name: string; href: string }[] }[];
    const count = groups.reduce((n, g) => n + g.posts.length, 0);
    const file = typeof f.body.file === 'string' ? f.body.file : 'This file';
    const which = count === 1 ? '1 post that is a draft or queued' : 'posts that are drafts or queued';
    const accounts = groups.length > 1 ? ` on ${groups.length} accounts` : '';
    return {
      title: `${file} is used by ${count > 1 ? `${count} ` : ''}${which}${accounts}.`,
      hint: 'Change or cancel those posts, or wait until they are live, then delete the file.',
      linkGroups: groups.map((g) => ({
        heading: `${g.account} · ${g.posts.length === 1 ? '1 post' : `${g.posts.length} posts`}`,
        links: g.posts.map((p) => ({ label: p.name, href: p.href })),
      })),
    };
  },
  method_not_allowed: same('The dashboard asked for something Herald does not do.', 'Reload the page.'),
  // Bluesky lacks a server only in a sandbox without SANDBOX_PDS: the operator starts one, no app keys needed.
  network_not_configured: (f: FailureFacts): Words =>
    f.body.platform === 'bluesky'
      ? {
          title: 'Bluesky in this sandbox has no test server to connect to.',
          hint:
            'Whoever runs this Herald starts one with npx tsx scripts/blueskyPds.ts, sets SANDBOX_PDS to the ' +
            'address it prints and restarts Herald.',
        }
      : {
          title: 'This network is not set up on this Herald.',
          hint: 'Whoever runs this Herald adds the network’s app keys first.',
        },
  network_unavailable: same('Publishing to this network is not available yet.'),
  not_found: same('This is no longer here.', 'It may have been deleted; go back and reload the list.'),
  not_implemented: same('Herald does not do this yet.'),
  nothing_to_connect: same('The network offered no account to connect.', 'Check the account on the network.'),
  offline: same('Herald could not be reached.', 'Check your connection, then try again.'),
  owner_required: same('A workspace always keeps one owner.', 'Make someone else owner first.'),
  payload_too_large: same('This is too large to send.', 'Send less at once.'),
  quota_exceeded: quotaWords,
  rate_limited: (f: FailureFacts): Words => rateLimitWords(f.body),
  request_timeout: same('Sending took too long.', 'Check your connection, then try again.'),
  reset_unusable: (f: FailureFacts): Words => resetUnusableWords(f.body),
  service_unavailable: same(
    'Herald was briefly out of reach, so this may not have been saved.',
    'Try again in a moment.',
  ),
  server_not_allowed: same(
    'Herald connects only to a server at a public https:// address.',
    'Check the server’s address; most accounts live on https://bsky.social.',
  ),
  sign_up_closed: same(
    'New accounts on this Herald are by invitation only.',
    "Ask your workspace's owner for an invitation. If you have an account, sign in.",
  ),
  sign_in_refused: same('The email or password is wrong.', 'Check both and try again.'),
  size_mismatch: same('The upload did not arrive whole.', 'Upload the file again.'),
  slug_taken: same('Another workspace already uses this Slug.', 'Choose another.'),
  state_expired: same('The connection took too long.', 'Connect the account again.'),
  state_invalid: same('The connection could not be matched to this session.', 'Connect the account again.'),
  state_mismatch: same('The connection could not be matched to this session.', 'Connect the account again.'),
  // The dashboard's own: a time not filled in (the sentence is WhenInput's) and an upload cut short.
  time_missing: (f: FailureFacts): Words => ({ title: f.message, hint: 'Fill in the date and time above.' }),
  too_many_streams: same(
    'Herald is open in too many tabs to keep them all up to date.',
    'Close the dashboard tabs you do not need, then reload this one.',
  ),
  upload_cut: same('The upload was cut before the file arrived.', 'Check your connection, then try again.'),
  unauthenticated: () => ({ title: 'Your session ended: sign in again.', signIn: true }),
  unexpected: same('Herald gave an answer the dashboard did not expect.', 'Reload the page and try again.'),
  unsupported_encoding: same('Herald could not read what was sent.', 'Reload the page and try again.'),
  upload_failed: same('The upload did not finish.', 'Try again.'),
  upload_interrupted: same('The upload was interrupted.', 'Try again.'),
  upload_too_slow: same('The upload was too slow to finish.', 'Try again on a faster connection.'),
  url_fetch_failed: same('Herald could not download the file from that address.', 'Check the address, then try again.'),
  url_not_allowed: same(
    'Herald does not download from that address.',
    'Use a public https:// address of an image or video.',
  ),
  // The dashboard's own: the same refusal for a webhook's address, which Herald sends to instead of downloading.
  webhook_url_not_allowed: same(
    'Herald sends events only to a public https:// address.',
    'Give the address of your server that accepts POST requests, not one on a local or private network.',
  ),
  wrong_password: same('The current password is wrong; nothing was changed.', 'Type your current password again.'),
} satisfies Record<string, (f: FailureFacts) => Words>;

export type ErrorCode = keyof typeof ERROR_WORDS;

/** A network's refusal of a post (`<network>_<kind>`), as the worker records it. */
export const NETWORK_FAILURE_WORDS: Record<FailureKind | 'outcome_unknown', (network: string) => Words> = {
  token_rejected: (n) => ({
    title: `${n} no longer accepts this account’s sign-in.`,
    hint: 'Reconnect the account on the Accounts page; the post is then sent again by itself.',
  }),
  permission_missing: (n) => ({
    title: `${n} took back a permission Herald needs.`,
    hint: 'Reconnect the account on the Accounts page and grant every permission asked for.',
  }),
  rate_limited: (n) => ({
    title: `${n} asked Herald to slow down for this account.`,
    hint: 'Herald tries again by itself; if it still fails, retry the post tomorrow.',
  }),
  quota_exceeded: (n) => ({
    title: `${n}’s daily allowance for Herald is spent.`,
    hint: 'Herald tries again after it resets; otherwise retry the post then.',
  }),
  unverified: (n) => ({ title: `${n} asks for a verified channel.`, hint: `Verify the channel by phone on ${n}.` }),
  unavailable: (n) => ({
    title: `${n} had a problem on its side.`,
    hint: 'Herald tries again after 1, 5 and 15 minutes; otherwise retry the post later.',
  }),
  rejected: (n) => ({ title: `${n} refused the post.`, hint: `Change the post to meet ${n}’s rules, then retry it.` }),
  outcome_unknown: (n) => ({
    title: `Publishing stopped midway, and ${n} cannot tell whether the post went out.`,
    hint: `Look on ${n}; retry only if it is not there.`,
  }),
};

const GENERIC: Words = { title: 'Something went wrong.', hint: 'Reload the page and try again.' };

/** The network's own words in a refusal (its `networkMessage`), when they are a sentence for people. */
function networkQuote(body: FailureFacts['body']): string | undefined {
  const quoted = body.networkMessage;
  return typeof quoted === 'string' && quoted && !speaksApi(quoted) ? quoted : undefined;
}

/** Any error the dashboard shows, in its words; a code it does not know gets a general sentence, never the raw one. */
export function failureWords(f: FailureFacts): Words {
  const own = (ERROR_WORDS as Record<string, ((f: FailureFacts) => Words) | undefined>)[f.code];
  if (own) return own(f);
  const m = /^([a-z]+)_([a-z_]+)$/.exec(f.code);
  const kind = m?.[2] as keyof typeof NETWORK_FAILURE_WORDS | undefined;
  const network = m && networkOf(m[1] as Platform);
  if (network && kind && NETWORK_FAILURE_WORDS[kind]) {
    const words = NETWORK_FAILURE_WORDS[kind](network.label);
    const quote = kind === 'rejected' || kind === 'unverified' ? networkQuote(f.body) : undefined;
    if (!quote) return words;
    // Read in order: the refusal, who said what, then what to change.
    const hint = kind === 'rejected' ? `Change the post as ${network.label} asks, then retry it.` : words.hint;
    return { ...words, quoteLead: `${network.label} said:`, quote, hint };
  }
  return GENERIC;
}
