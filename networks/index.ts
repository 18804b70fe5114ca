// The registry: one line per network, each a folder networks/<name>/ exporting a NetworkModule. Its keys
// are the contract's Platform enum (a network missing here, or one the contract lacks, fails to compile);
// every list of networks elsewhere derives from it.
import { bluesky } from './bluesky/index.ts';
import { facebook } from './facebook/index.ts';
import { instagram } from './instagram/index.ts';
import type { NetworkModule } from './network.ts';
import type { NetworkRules, Platform } from './rules.ts';
import { threads } from './threads/index.ts';
import { tiktok } from './tiktok/index.ts';
import { youtube } from './youtube/index.ts';

export const NETWORKS: Record<Platform, NetworkModule> = { youtube, instagram, facebook, threads, tiktok, bluesky };

/** Every network, in the registry's order. */
export const PLATFORMS = Object.keys(NETWORKS) as Platform[];

export function networkOf(platform: Platform): NetworkRules {
  return NETWORKS[platform].rules;
}

/** The file ids a post's settings name on its network (NetworkRules.fileSettings, e.g. a YouTube thumbnail). */
export function filesNamedBySettings(platform: Platform, settings: Record<string, unknown> | undefined): string[] {
  return (networkOf(platform).fileSettings ?? [])
    .map((name) => settings?.[name])
    .filter((id): id is string => typeof id === 'string');
}
