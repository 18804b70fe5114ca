// The networks' marks, from simple-icons (CC0 paths; the marks stay their owners' trademarks, shown only to say
// which network a post or account is on, in the colour the brand's own resources give). Only these six icons are
// imported, so the bundle carries six paths, not the whole set.
import { type SimpleIcon, siBluesky, siFacebook, siInstagram, siThreads, siTiktok, siYoutube } from 'simple-icons';
import type { Platform } from './api.ts';
import { labelOf } from './networks.ts';

const MARKS: Record<Platform, SimpleIcon> = {
  instagram: siInstagram,
  threads: siThreads,
  facebook: siFacebook,
  youtube: siYoutube,
  tiktok: siTiktok,
  bluesky: siBluesky,
};

/**
 * A network's mark. It is named by the network ("YouTube") unless `decorative`, for a mark beside text that
 * already names the network (a screen reader would otherwise read the name twice).
 */
export function NetworkMark({
  platform,
  decorative = false,
  size = 20,
}: {
  platform: Platform;
  decorative?: boolean;
  size?: number;
}) {
  const icon = MARKS[platform];
  return (
    <svg
      className={`network-mark network-mark-${platform}`}
      viewBox="0 0 24 24"
      width={size}
      height={size}
      fill={`#${icon.hex}`}
      focusable="false"
      role="img"
      aria-hidden={decorative || undefined}
    >
      <title>{labelOf(platform)}</title>
      <path d={icon.path} />
    </svg>
  );
}
