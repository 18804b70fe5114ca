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
