// TikTok (Content Posting API): limits only, so plans can say what fits; publishing is in progress, so
// there is no connector, connect module or simulator yet (see rules.ts for what a connector still needs).
import type { NetworkModule } from '../network.ts';
import { tiktokRules } from './rules.ts';

export const tiktok: NetworkModule = { rules: tiktokRules };
