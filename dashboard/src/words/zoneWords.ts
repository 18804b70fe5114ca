// Time zones as people look for them: by city ("New York"), region ("America") or offset ("+5:30", "UTC-3"), with
// the offset right now in words ("5 hours 30 minutes ahead of UTC").
import { DateTime } from 'luxon';

export interface ZoneChoice {
  /** The IANA name the server stores ("America/New_York"). */
  zone: string;
  /** The name as read ("America/New York"). */
  name: string;
  /** The offset now, "UTC+05:30" (UTC itself reads "UTC"). */
  offset: string;
  /** Lower-case text a query is matched against: name, offset and its short forms. */
  search: string;
}

/**
 * Cities renamed since browsers' zone lists were named (ICU keeps the old names): each old name is shown with the
 * new one, and found by either.
 */
const RENAMED: Record<string, string> = {
  'Asia/Calcutta': 'Kolkata',
  'Europe/Kiev': 'Kyiv',
  'Asia/Saigon': 'Ho Chi Minh City',
  'Asia/Katmandu': 'Kathmandu',
  'Asia/Rangoon': 'Yangon',
  'America/Godthab': 'Nuuk',
  'Atlantic/Faeroe': 'Faroe',
  'Pacific/Truk': 'Chuuk',
  'Pacific/Ponape': 'Pohnpei',
  'Pacific/Enderbury': 'Kanton',
};

/** "America/New York", "Asia/Calcutta (Kolkata)". */
export const zoneName = (zone: string) => `${zone.replaceAll('_', ' ')}${RENAMED[zone] ? ` (${RENAMED[zone]})` : ''}`;

function offsetText(minutes: number): string {
  if (minutes === 0) return 'UTC';
  const sign = minutes < 0 ? '−' : '+';
  const abs = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** "the same time as UTC", "1 hour ahead of UTC", "3 hours 30 minutes behind UTC". */
export function offsetWords(zone: string, now: DateTime = DateTime.now()): string {
  const minutes = now.setZone(zone).offset;
  if (minutes === 0) return 'the same time as UTC';
  const abs = Math.abs(minutes);
  const hours = Math.floor(abs / 60);
  const rest = abs % 60;
  const parts = [hours && `${hours} hour${hours === 1 ? '' : 's'}`, rest && `${rest} minutes`].filter(Boolean);
  return `${parts.join(' ')} ${minutes > 0 ? 'ahead of' : 'behind'} UTC`;
}

/** Every zone the browser knows (about 400), each with its offset now; `current` is kept if the list lacks it. */
export function zoneChoices(current: string, now: DateTime = DateTime.now()): ZoneChoice[] {
  const zones = Intl.supportedValuesOf('timeZone');
  return (zones.includes(current) ? zones : [current, ...zones]).map((zone) => {
    const minutes = now.setZone(zone).offset;
    const offset = offsetText(minutes);
    const h = Math.trunc(Math.abs(minutes) / 60);
    const m = Math.abs(minutes) % 60;
    const sign = minutes < 0 ? '-' : '+';
    // "+5:30", "+05:30", "utc+5:30" and "-3" all find the zone, as do typed minus signs of either kind.
    const short = `${sign}${h}${m ? `:${String(m).padStart(2, '0')}` : ''}`;
    return {
      zone,
      name: zoneName(zone),
      offset,
      search: `${zoneName(zone)} ${zone} ${offset.replace('−', '-')} utc${short} gmt${short} ${short}`.toLowerCase(),
    };
  });
}

/** The choices whose text holds every word of the query, in any order. */
export function matchZones(choices: ZoneChoice[], query: string): ZoneChoice[] {
  const words = query
    .toLowerCase()
    .replaceAll('−', '-')
    .replaceAll('_', ' ')
    .split(/[\s/,]+/)
    .filter(Boolean);
  return words.length ? choices.filter((c) => words.every((w) => c.search.includes(w))) : choices;
}
