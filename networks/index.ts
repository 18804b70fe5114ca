// The registry: adding a network is its module plus one line here.
import { facebook } from './facebook.ts';
import { instagram } from './instagram.ts';
import type { NetworkRules, Platform } from './rules.ts';
import { threads } from './threads.ts';
import { tiktok } from './tiktok.ts';
import { youtube } from './youtube.ts';

export const NETWORKS: Record<Platform, NetworkRules> = { youtube, instagram, facebook, threads, tiktok };

export function networkOf(platform: Platform): NetworkRules {
  return NETWORKS[platform];
}

/** The file ids a post's settings name on its network (NetworkRules.fileSettings, e.g. a YouTube thumbnail). */
export function filesNamedBySettings(platform: Platform, settings: Record<string, unknown> | undefined): string[] {
  return (networkOf(platform).fileSettings ?? []).map((name) => settings?.[name]).filter((id): id is string => typeof id === 'string');
}
