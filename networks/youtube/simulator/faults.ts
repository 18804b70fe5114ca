// YouTube's error bodies, as https://developers.google.com/youtube/v3/docs/errors lists them, and the
// ones the scenarios of `herald sandbox fail` answer.
import type { Response } from 'express';
import type { Scenario } from '../../sandbox/state.ts';
import { youtubeSandboxLimits } from './limits.ts';

export interface Fault {
  status: number;
  reason: string;
  message: string;
  domain: string;
}

export const fault = (status: number, reason: string, message: string, domain = 'youtube.video'): Fault => ({
  status,
  reason,
  message,
  domain,
});

export const FAULTS = {
  authError: fault(
    401,
    'authError',
    'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid ' +
      'authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
    'global',
  ),
  backendError: fault(503, 'backendError', 'Backend Error', 'global'),
  internalError: fault(500, 'internalError', 'Internal error encountered.', 'global'),
  uploadLimitExceeded: fault(400, 'uploadLimitExceeded', 'The user has exceeded the number of videos they may upload.'),
  quotaExceeded: fault(
    403,
    'quotaExceeded',
    'The request cannot be completed because you have exceeded your ' +
      '<a href="/youtube/v3/getting-started#quota">quota</a>.',
    'youtube.quota',
  ),
  uploadsPerDay: fault(
    429,
    'rateLimitExceeded',
    "Quota exceeded for quota metric 'Video Uploads' and limit 'Video Uploads per day' of service " +
      "'youtube.googleapis.com' for consumer 'project_number:0'.",
    'global',
  ),
  insufficientPermissions: fault(
    403,
    'insufficientPermissions',
    'Request had insufficient authentication scopes.',
    'global',
  ),
  invalidVideoMetadata: fault(400, 'invalidVideoMetadata', 'The request metadata is invalid.'),
  invalidTitle: fault(400, 'invalidTitle', 'The request metadata specifies an invalid or empty video title.'),
  invalidDescription: fault(400, 'invalidDescription', 'The request metadata specifies an invalid video description.'),
  invalidTags: fault(400, 'invalidTags', 'The request metadata specifies invalid video keywords.'),
  invalidCategoryId: fault(
    400,
    'invalidCategoryId',
    'The <code>snippet.categoryId</code> property specifies an invalid category ID. ' +
      'Use the <code>videoCategories.list</code> method to retrieve supported categories.',
  ),
  notFound: fault(404, 'notFound', 'Not Found', 'global'),
  videoNotFound: fault(
    404,
    'videoNotFound',
    'The video that you are trying to use cannot be found. Check the value of the videoId parameter.',
  ),
  thumbnailForbidden: fault(
    403,
    'forbidden',
    "The authenticated user doesn't have permissions for uploading and setting custom video thumbnails.",
    'youtube.thumbnail',
  ),
  mediaBodyRequired: fault(
    400,
    'mediaBodyRequired',
    'The request does not include the image content.',
    'youtube.thumbnail',
  ),
  invalidImage: fault(400, 'invalidImage', 'The provided image content is invalid.', 'youtube.thumbnail'),
  uploadTooLarge: fault(
    413,
    'uploadTooLarge',
    `Media larger than: ${youtubeSandboxLimits.thumbnailMaxBytes}`,
    'global',
  ),
  playlistIdRequired: fault(
    400,
    'playlistIdRequired',
    'The request does not specify a value for the required playlistId property.',
    'youtube.playlistItem',
  ),
  playlistNotFound: fault(
    404,
    'playlistNotFound',
    "The playlist identified with the request's playlistId parameter cannot be found.",
    'youtube.playlistItem',
  ),
  playlistItemsNotAccessible: fault(
    403,
    'playlistItemsNotAccessible',
    'The request is not properly authorized to insert the specified playlist item.',
    'youtube.playlistItem',
  ),
  playlistFull: fault(
    403,
    'playlistContainsMaximumNumberOfVideos',
    'The playlist already contains the maximum allowed number of items.',
    'youtube.playlistItem',
  ),
  videoAlreadyInPlaylist: fault(
    409,
    'videoAlreadyInPlaylist',
    'The video is already in the playlist.',
    'youtube.playlistItem',
  ),
  playlistVideoNotFound: fault(
    404,
    'videoNotFound',
    'The video that you are trying to add to the playlist cannot be found.',
    'youtube.playlistItem',
  ),
};

/** How YouTube answers the scenarios of `herald sandbox fail` (`unverified` is not an error body: see above). */
export const SCENARIO_FAULTS: Record<Exclude<Scenario, 'unverified'>, Fault> = {
  unavailable: FAULTS.backendError,
  rate_limited: FAULTS.uploadLimitExceeded,
  token_rejected: FAULTS.authError,
  permission_missing: FAULTS.insufficientPermissions,
  rejected: FAULTS.invalidVideoMetadata,
  quota_exceeded: FAULTS.quotaExceeded,
};

export class YoutubeFault extends Error {
  constructor(
    readonly fault: Fault,
    readonly extra: Record<string, string> = {},
  ) {
    super(fault.message);
  }
}

export function sendFault(
  res: Response,
  { status, reason, message, domain }: Fault,
  extra: Record<string, string> = {},
): void {
  res.status(status).json({ error: { code: status, message, errors: [{ message, domain, reason, ...extra }] } });
}
