// A post's network settings as people read them: YouTube's category by name, choices capitalised, yes or no.
import { YOUTUBE_CATEGORIES } from '../../../networks/youtube/categories.ts';
import { SETTING_LABELS } from './fieldLabels.ts';

/** A YouTube category id by its name; an id the list lacks (set through the API) by its number. */
export const categoryName = (id: string): string => YOUTUBE_CATEGORIES[id] ?? `Category ${id}`;

/** "reel" → "Reel", "PUBLIC_TO_EVERYONE" → "Public to everyone". */
function choiceWords(value: string): string {
  const plain = /^[A-Z_]+$/.test(value) ? value.toLowerCase().replaceAll('_', ' ') : value;
  return plain.charAt(0).toUpperCase() + plain.slice(1);
}

/** Values people typed (a link, a topic, a playlist) show as they are. */
const TYPED = new Set(['link', 'topicTag', 'playlistId']);

/**
 * The settings a post carries, labelled as compose labels them. A file (a thumbnail) is left out: the post's
 * preview shows it, and its id means nothing to a person. Settings compose does not offer keep their name.
 */
export function settingLines(settings: Record<string, unknown>): { label: string; value: string }[] {
  return Object.entries(settings)
    .filter(([name, value]) => !name.endsWith('MediaId') && value !== undefined && value !== null && value !== '')
    .map(([name, value]) => ({
      label: SETTING_LABELS[name as keyof typeof SETTING_LABELS] ?? choiceWords(name),
      value:
        name === 'category'
          ? categoryName(String(value))
          : typeof value === 'boolean'
            ? value
              ? 'Yes'
              : 'No'
            : TYPED.has(name)
              ? String(value)
              : choiceWords(String(value)),
    }));
}
