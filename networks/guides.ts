// The networks with an operator's guide (docs/guides/networks/<network>.md, served at /docs/networks-<network>
// by scripts/docsPages.ts): the dashboard's Accounts page and the sandbox's consent pages link to it.
import type { Platform } from './rules.ts';

const GUIDED: readonly Platform[] = ['youtube', 'instagram', 'facebook', 'threads', 'tiktok'];

/** The guide's address, or undefined for a network without one (Bluesky needs no app of the operator's). */
export const guideHref = (platform: Platform): string | undefined =>
  GUIDED.includes(platform) ? `/docs/networks-${platform}` : undefined;
