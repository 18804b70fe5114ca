// Threads API: limits and checks. Text is 500 units where each emoji costs its UTF-8 bytes; at most
// 5 unique links, an attached link (text posts only) included; one topic tag per post.
import { codePoints, hashtags, linkKey, links, threadsUnits } from '../../domain/textUnits.ts';
import type { Issue } from '../../domain/issues.ts';
import {
  aspect,
  checkCarousel,
  checkImageSize,
  checkLink,
  checkVideoDuration,
  checkVideoSize,
  COUNT_PAST_LIMIT,
  counted,
  issue,
  type NetworkRules,
  type PostContent,
} from '../rules.ts';

const MB = 1024 * 1024;

export const threadsLimits = {
  textUnits: 500,
  uniqueLinks: 5,
  carousel: { min: 2, max: 20 },
  imageMaxBytes: 8 * MB,
  imageMaxAspect: 10,
  videoMaxSeconds: 5 * 60,
  videoMaxBytes: 1024 * MB,
  topicTagChars: 50,
};

function check(post: PostContent): Issue[] {
  const issues: Issue[] = [];
  const units = threadsUnits(post.text, COUNT_PAST_LIMIT * threadsLimits.textUnits);
  if (units > threadsLimits.textUnits) {
    issues.push(
      issue(
        'caption_too_long',
        `text counts ${counted(units, threadsLimits.textUnits)} on threads (each emoji counts its UTF-8 bytes); ` +
          `threads allows ${threadsLimits.textUnits}.`,
        'Shorten the text, or set overrides.threads.text.',
        { field: 'text', limit: threadsLimits.textUnits, actual: units },
      ),
    );
  }
  const link = post.settings.link;
  const badLink = checkLink(post.settings, 'threads');
  if (badLink) issues.push(badLink);
  if (link !== undefined && post.media.length) {
    issues.push(
      issue(
        'setting_invalid',
        `perPlatform.threads.link is set, but threads attaches a link to text posts only and mediaIds holds ` +
          `${post.media.length} file${post.media.length === 1 ? '' : 's'}.`,
        'Remove the files, or write the address in the text and leave perPlatform.threads.link out.',
        { field: 'perPlatform.threads.link', limit: 0, actual: post.media.length },
      ),
    );
  }
  // Threads counts the attached link with the text's links, the same address once. Each different text is parsed
  // as an address once, and only until the count is told.
  const uniqueLinks = new Set<string>();
  for (const found of new Set([...links(post.text), ...(typeof link === 'string' ? [link] : [])])) {
    uniqueLinks.add(linkKey(found));
    if (uniqueLinks.size > COUNT_PAST_LIMIT * threadsLimits.uniqueLinks) break;
  }
  if (uniqueLinks.size > threadsLimits.uniqueLinks) {
    const where = link === undefined ? 'text has' : 'text and perPlatform.threads.link have';
    issues.push(
      issue(
        'links_too_many',
        `${where} ${counted(uniqueLinks.size, threadsLimits.uniqueLinks)} different links; threads allows ` +
          `${threadsLimits.uniqueLinks}.`,
        'Remove some links.',
        { field: 'text', limit: threadsLimits.uniqueLinks, actual: uniqueLinks.size },
      ),
    );
  }
  const topic = post.settings.topicTag;
  if (topic !== undefined) {
    const text = String(topic);
    if (
      typeof topic !== 'string' ||
      codePoints(text) < 1 ||
      codePoints(text) > threadsLimits.topicTagChars ||
      /[.&]/.test(text)
    ) {
      issues.push(
        issue(
          'setting_invalid',
          `perPlatform.threads.topicTag "${text}" must be 1 to 50 characters without . or &.`,
          'Pick a shorter topic without . or &.',
          { field: 'perPlatform.threads.topicTag', limit: threadsLimits.topicTagChars, actual: text },
        ),
      );
    }
  }
  const topics = (topic === undefined ? 0 : 1) + hashtags(post.text, COUNT_PAST_LIMIT).length;
  if (topics > 1) {
    issues.push(
      issue(
        'topic_tags_too_many',
        `the post has ${counted(topics, 1)} topics (perPlatform.threads.topicTag and #tags in text); threads ` +
          'allows one per post.',
        'Keep a single topic: either perPlatform.threads.topicTag or one #tag in the text.',
        { field: 'text', limit: 1, actual: topics },
      ),
    );
  }
  if (post.media.length > 1) {
    const count = checkCarousel(post.media.length, threadsLimits.carousel.min, threadsLimits.carousel.max, 'threads');
    if (count) issues.push(count);
  }
  if (post.media.length === 0 && !post.text.trim()) {
    issues.push(
      issue(
        'text_required',
        'text is empty and there is no file; a threads post needs one of them.',
        'Write the text or add a file.',
        { field: 'text' },
      ),
    );
  }
  post.media.forEach((media, i) => {
    const field = `mediaIds[${i}]`;
    if (media.kind === 'video') {
      const duration = checkVideoDuration(media, field, 0, threadsLimits.videoMaxSeconds, 'threads');
      if (duration) issues.push(duration);
      const size = checkVideoSize(media, field, threadsLimits.videoMaxBytes, 'threads');
      if (size) issues.push(size);
    } else {
      const size = checkImageSize(media, field, threadsLimits.imageMaxBytes, 'threads');
      if (size) issues.push(size);
      const ratio = aspect(media);
      if (ratio !== undefined && Math.max(ratio, 1 / ratio) > threadsLimits.imageMaxAspect) {
        issues.push(
          issue(
            'aspect_unsupported',
            `${field} is ${media.width}×${media.height}; threads accepts images up to 10:1.`,
            'Crop the image.',
            { field, actual: `${media.width}×${media.height}` },
          ),
        );
      }
    }
  });
  return issues;
}

export const threadsRules: NetworkRules = {
  platform: 'threads',
  label: 'Threads',
  available: true,
  textLimits: [{ field: 'text', unit: 'threadsUnits', max: threadsLimits.textUnits }],
  check,
};
