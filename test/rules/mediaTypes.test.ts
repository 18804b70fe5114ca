// The file formats Herald accepts, and the reason a person reads when a file is refused.
import { describe, expect, it } from 'vitest';
import {
  ACCEPTED_MIMES,
  formatOf,
  isAcceptedVideoCodec,
  normalizeMime,
  unacceptedCodecReason,
  unacceptedFormatReason,
} from '../../domain/mediaTypes.ts';

describe('a media item is an image or a video in a format some network takes', () => {
  it('accepts JPEG, PNG, GIF and WebP images and MP4, MOV and WebM videos', () => {
    expect(ACCEPTED_MIMES.map((mime) => [mime, formatOf(mime)?.kind])).toEqual([
      ['image/jpeg', 'image'],
      ['image/png', 'image'],
      ['image/gif', 'image'],
      ['image/webp', 'image'],
      ['video/mp4', 'video'],
      ['video/quicktime', 'video'],
      ['video/webm', 'video'],
    ]);
  });
  it('reads a media type without case or parameters', () => {
    expect(normalizeMime(' Video/MP4; codecs="avc1.42E01E"')).toBe('video/mp4');
    expect(formatOf('IMAGE/JPEG;q=1')?.label).toBe('JPEG image');
    expect(formatOf('image/heic')).toBeUndefined();
  });
  it('accepts H.264, HEVC, VP8, VP9 and AV1 video only', () => {
    expect(['h264', 'hevc', 'vp8', 'vp9', 'av1', 'mpeg4', 'prores'].filter(isAcceptedVideoCodec)).toEqual([
      'h264',
      'hevc',
      'vp8',
      'vp9',
      'av1',
    ]);
  });
});

describe('failReason: usually an unaccepted format, in words a person can act on', () => {
  it('says what the bytes are, what was declared, and what networks take', () => {
    expect(unacceptedFormatReason({ ext: 'heic', mime: 'image/heic' }, 'image/jpeg')).toBe(
      "The file's bytes are HEIC (image/heic); it was sent as " +
        'image/jpeg. Networks accept JPEG, PNG, GIF or WebP images, ' +
        'and MP4, MOV or WebM videos with H.264, HEVC, VP8, VP9 or AV1 video.',
    );
    expect(unacceptedFormatReason(undefined, 'video/mp4')).toMatch(
      /^The file's bytes are not an image or video format; it was sent as video\/mp4\./,
    );
    expect(unacceptedCodecReason('video/quicktime', 'prores')).toMatch(
      /^The file is MOV video whose video codec is prores\. Networks accept /,
    );
  });
});
