// Reads what a file really is from its bytes, never from its name or declared type: the true type
// (magic bytes), then image size (sharp) or video duration, codecs and frame rate (ffprobe); and
// makes a JPEG thumbnail (sharp for images, one ffmpeg frame for videos).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import {
  formatOf,
  isAcceptedVideoCodec,
  unacceptedCodecReason,
  unacceptedFormatReason,
  type FileFacts,
} from '../domain/mediaTypes.ts';
import { loadSharp } from './sharp.ts';

const run = promisify(execFile);
/** ffprobe reads headers and ffmpeg decodes one frame: far below this even for a long 4 GB video. */
const TOOL_TIMEOUT_MS = 120_000;
/** Thumbnails fit in this many pixels each way. */
const THUMBNAIL_EDGE = 480;

export type Inspected = FileFacts & { ok: true };

export type Inspection = Inspected | { ok: false; reason: string };

export async function inspectFile(file: string, declaredMime: string): Promise<Inspection> {
  // file-type loads on first use, as sharp does (media/sharp.ts): 30 ms of CPU at every process's start.
  const { fileTypeFromFile } = await import('file-type');
  const found = await fileTypeFromFile(file);
  const format = found && formatOf(found.mime);
  if (!found || !format) return { ok: false, reason: unacceptedFormatReason(found, declaredMime) };
  try {
    return format.kind === 'image' ? await inspectImage(file, found.mime) : await inspectVideo(file, found.mime);
  } catch (err) {
    // The type's signature was there but the rest could not be decoded: a damaged or truncated file.
    return {
      ok: false,
      reason:
        `The file looks like ${found.mime} but cannot be read: ${damageInWords(err)}. Export it again and ` +
        `upload the new file.`,
    };
  }
}

async function inspectImage(file: string, mime: string): Promise<Inspection> {
  const sharp = await loadSharp();
  const meta = await sharp(file).metadata();
  // As displayed: EXIF orientations 5-8 turn the picture a quarter, which swaps width and height.
  const width = meta.autoOrient?.width ?? meta.width;
  const height = meta.autoOrient?.height ?? meta.pageHeight ?? meta.height;
  if (!width || !height)
    return {
      ok: false,
      reason: `The ${mime} file has no readable dimensions. Export it again and upload the new file.`,
    };
  return {
    ok: true,
    kind: 'image',
    mime,
    width,
    height,
    durationSeconds: null,
    frameRate: null,
    videoCodec: null,
    audioCodec: null,
  };
}

interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  duration?: string;
  tags?: { rotate?: string };
  side_data_list?: { rotation?: number }[];
}

async function inspectVideo(file: string, mime: string): Promise<Inspection> {
  const { stdout } = await run(
    'ffprobe',
    ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file],
    { timeout: TOOL_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 },
  );
  const probe = JSON.parse(stdout) as { streams?: ProbeStream[]; format?: { duration?: string } };
  const video = probe.streams?.find((s) => s.codec_type === 'video');
  const audio = probe.streams?.find((s) => s.codec_type === 'audio');
  if (!video?.codec_name || !video.width || !video.height) {
    return { ok: false, reason: `The ${mime} file holds no video stream. Networks need a video track.` };
  }
  if (!isAcceptedVideoCodec(video.codec_name))
    return { ok: false, reason: unacceptedCodecReason(mime, video.codec_name) };
  const rotation =
    Math.abs(Number(video.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? video.tags?.rotate ?? 0)) %
    180;
  const [width, height] = rotation === 90 ? [video.height, video.width] : [video.width, video.height];
  const duration = Number(probe.format?.duration ?? video.duration);
  return {
    ok: true,
    kind: 'video',
    mime,
    width,
    height,
    durationSeconds: Number.isFinite(duration) ? round(duration, 3) : null,
    frameRate: frameRate(video.avg_frame_rate) ?? frameRate(video.r_frame_rate),
    videoCodec: video.codec_name,
    audioCodec: audio?.codec_name ?? null,
  };
}

/** Writes a JPEG preview of `file` to `out`. */
export async function makeThumbnail(file: string, inspected: Inspected, out: string): Promise<void> {
  if (inspected.kind === 'image') {
    const sharp = await loadSharp();
    await sharp(file)
      .rotate()
      .resize(THUMBNAIL_EDGE, THUMBNAIL_EDGE, { fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 80 })
      .toFile(out);
    return;
  }
  // A frame a second in (the very first is often black), or the first one of a shorter video.
  // Seeking before -i jumps to the nearest keyframe instead of decoding everything before it.
  const at = (inspected.durationSeconds ?? 0) > 2 ? '1' : '0';
  await run(
    'ffmpeg',
    [
      '-v',
      'error',
      '-y',
      '-ss',
      at,
      '-i',
      file,
      '-frames:v',
      '1',
      '-vf',
      `scale=${THUMBNAIL_EDGE}:${THUMBNAIL_EDGE}:force_original_aspect_ratio=decrease`,
      '-f',
      'image2',
      '-c:v',
      'mjpeg',
      out,
    ],
    { timeout: TOOL_TIMEOUT_MS },
  );
}

/** ffprobe's "30000/1001" as 29.97; null for "0/0" (unknown). */
function frameRate(text: string | undefined): number | null {
  const [num, den] = (text ?? '').split('/').map(Number);
  return num && den ? round(num / den, 3) : null;
}

function round(n: number, places: number): number {
  const f = 10 ** places;
  return Math.round(n * f) / f;
}

/**
 * What is wrong with a file, in words a person can act on, from the complaint of the tool that read it
 * (ffprobe, ffmpeg or sharp). The complaint itself names the tool's internals, so it is never shown.
 */
export function damageInWords(err: unknown): string {
  const e = err as { stderr?: string; message?: string };
  const complaint = `${e.stderr ?? ''} ${e.message ?? ''}`.toLowerCase();
  if (complaint.includes('moov atom not found')) {
    return 'it is incomplete: its index is missing, as when a recording, export or copy stopped early';
  }
  if (/premature end|truncat|end of file|unexpected end|partial/.test(complaint))
    return 'it ends early: part of it is missing';
  if (/unsupported|not supported|not implemented/.test(complaint))
    return 'it uses an encoding feature that cannot be read';
  return 'its contents are damaged';
}
