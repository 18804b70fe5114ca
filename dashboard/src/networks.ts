// The networks as the server's own modules describe them (names, availability, text limits).
import networks from 'virtual:network-text';
import type { TextLimit } from '../../networks/rules.ts';
import type { Platform } from './api.ts';

export interface NetworkText {
  platform: Platform;
  label: string;
  available: boolean;
  textLimits: TextLimit[];
}

export const NETWORKS = networks as NetworkText[];

export function networkOf(platform: Platform): NetworkText {
  return NETWORKS.find((n) => n.platform === platform)!;
}

export const labelOf = (platform: Platform) => networkOf(platform).label;
