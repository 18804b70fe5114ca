// Live counters: each network's text limits (from its server module) counted with the server's own
// functions (domain/textUnits.ts), so what the counter says is what the plan will say.
import * as units from '../../../domain/textUnits.ts';
import type { TextLimit } from '../../../networks/rules.ts';
import type { Platform } from '../api.ts';
import { networkOf } from '../networks.ts';

export interface Count {
  platform: Platform;
  field: TextLimit['field'];
  used: number;
  max: number;
  over: boolean;
  /** How the unit reads: "characters", "bytes"... */
  unitLabel: string;
}

export const UNIT_LABELS: Record<TextLimit['unit'], string> = {
  codePoints: 'characters',
  utf8Bytes: 'characters (accented letters count 2, emoji 4)',
  utf16Units: 'characters (emoji count 2)',
  threadsUnits: 'characters (emoji count their bytes)',
  graphemes: 'characters',
};

export function countText(platform: Platform, fields: { text: string; title: string }): Count[] {
  return networkOf(platform).textLimits.map((limit) => {
    const used = units[limit.unit](fields[limit.field]);
    return {
      platform,
      field: limit.field,
      used,
      max: limit.max,
      over: used > limit.max,
      unitLabel: UNIT_LABELS[limit.unit],
    };
  });
}
