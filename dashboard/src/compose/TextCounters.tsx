// The counters under a text box: one per network that limits this field, in that network's unit.
import type { Platform } from '../api.ts';
import { labelOf } from '../networks.ts';
import { countText } from './counters.ts';

export function TextCounters({
  id,
  platforms,
  field,
  text,
  title,
}: {
  id: string;
  platforms: Platform[];
  field: 'text' | 'title';
  text: string;
  title: string;
}) {
  const counts = platforms.flatMap((p) => countText(p, { text, title })).filter((c) => c.field === field);
  if (counts.length === 0) return null;
  const over = counts.filter((c) => c.over);
  return (
    <div id={id} className="counters">
      {counts.map((c) => (
        <span key={c.platform} className={`counter ${c.over ? 'over' : c.used > c.max * 0.9 ? 'near' : ''}`}>
          {labelOf(c.platform)}: {c.used} / {c.max} <span className="muted">{c.unitLabel}</span>
        </span>
      ))}
      <span className="sr-only" role="status">
        {over.map((c) => `${labelOf(c.platform)}: ${c.used - c.max} over the limit.`).join(' ')}
      </span>
    </div>
  );
}
