// Which files Herald accepts: the image and video formats that the networks' publishing documentation
// lists, named once so reservation, processing and messages agree.

export type MediaKind = 'image' | 'video';

/** What processing reads from a file's bytes; network checks run against these. */
export interface FileFacts {
  kind: MediaKind;
  /** The type the bytes really are. */
  mime: string;
  /** As displayed (rotation applied). */
  width: number;
  height: number;
  durationSeconds: number | null;
  frameRate: number | null;
  videoCodec: string | null;
  audioCodec: string | null;
}

interface Format {
  kind: MediaKind;
  /** How a person names it in a message. */
  label: string;
}

/**
 * Every type here is taken by at least one network: JPEG everywhere (Instagram takes nothing else),
 * PNG by Threads, Facebook and YouTube thumbnails, GIF by Facebook, WebP by TikTok photos; MP4 and
 * MOV by every video network, WebM by YouTube. Herald reads each of them with sharp or ffprobe.
 */
const FORMATS: Record<string, Format> = {
  'image/jpeg': { kind: 'image', label: 'JPEG image' },
  'image/png': { kind: 'image', label: 'PNG image' },
  'image/gif': { kind: 'image', label: 'GIF image' },
  'image/webp': { kind: 'image', label: 'WebP image' },
  'video/mp4': { kind: 'video', label: 'MP4 video' },
  'video/quicktime': { kind: 'video', label: 'MOV video' },
  'video/webm': { kind: 'video', label: 'WebM video' },
};

/**
 * Video codecs (ffprobe's names) that some network takes: H.264 and
 * HEVC everywhere, VP8/VP9/AV1 on YouTube and Facebook.
 */
const VIDEO_CODECS = new Set(['h264', 'hevc', 'vp8', 'vp9', 'av1']);

export const ACCEPTED_MIMES = Object.keys(FORMATS);
export const ACCEPTED_SUMMARY =
  'JPEG, PNG, GIF or WebP images, and MP4, MOV or WebM videos with H.264, HEVC, VP8, VP9 or AV1 video';

/** The lower-case media type without parameters: `Video/MP4; codecs=x` -> `video/mp4`. */
export function normalizeMime(value: string): string {
  return value.split(';')[0]!.trim().toLowerCase();
}

export function formatOf(mime: string): Format | undefined {
  return FORMATS[normalizeMime(mime)];
}

export function isAcceptedVideoCodec(codec: string): boolean {
  return VIDEO_CODECS.has(codec);
}

/** Why a file is refused, in words a person can act on: what its bytes are, what was declared, what networks take. */
export function unacceptedFormatReason(found: { ext: string; mime: string } | undefined, declaredMime: string): string {
  const what = found
    ? `The file's bytes are ${found.ext.toUpperCase()} (${found.mime})`
    : "The file's bytes are not an image or video format";
  return `${what}; it was sent as ${declaredMime}. Networks accept ${ACCEPTED_SUMMARY}.`;
}

export function unacceptedCodecReason(mime: string, codec: string): string {
  return (
    `The file is ${FORMATS[mime]?.label ?? mime} whose video codec is ${codec}. Networks accept ` +
    `${ACCEPTED_SUMMARY}.`
  );
}
