// The words of the previews that show a post as its network will: the region's name, what a frame cuts,
// and the networks' own small labels (kept as the networks write them).
import { durationText } from '../format.ts';

export const PREVIEW_WORDS = {
  region: (network: string) => `How it will look on ${network}`,
  regionLive: (network: string) => `How it looks on ${network}`,
  heading: 'Previews',
  intro: 'Each network shows the post its own way: its frame, where it shortens the text, its tags.',
  empty: 'Choose accounts, then write the text or add media: each network’s preview shows here.',
  none: (networks: string[]) =>
    `${networks.join(' and ')} ${networks.length > 1 ? 'have' : 'has'} no preview here yet: ` +
    'the plan checks the post all the same.',
  alsoFor: (names: string[]) => `The same post goes to ${names.join(', ')}.`,
  noMedia: (network: string) => `${network} needs a picture or video: add one to see it here.`,
  processing: 'Still processing',
  /** The picture's alt text: its file name, where it sits in a carousel, and the frame it is shown in. */
  alt: (filename: string, frame: string, index?: { at: number; of: number }) =>
    `${filename}${index ? `, ${index.at} of ${index.of}` : ''}, shown ${frame}`,
  cut: (network: string, frame: string, across: number, down: number) => {
    const share = Math.round((across || down) * 100);
    const where = across ? 'left and right' : 'top and bottom';
    return `${network} shows it ${frame}: ${share}% of it, at the ${where}, is cut (the faded part).`;
  },
  carouselPosition: (of: number) => `First of ${of}`,
  more: 'more',
  duration: (seconds: number) => durationText(seconds),
  short: 'Short',
  visibility: { public: 'Public', unlisted: 'Unlisted', private: 'Private' } as Record<string, string>,
  noTitle: 'No title yet',
  linkCard: 'Facebook fills in the page’s title and picture when it publishes.',
  story: 'Story: no caption',
  when: { draft: 'Draft', now: 'Just now' },
} as const;
