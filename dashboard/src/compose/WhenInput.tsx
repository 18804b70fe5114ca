// When to publish: now, as a draft, or at a date and time in the workspace zone (the zone is shown).
import { useId } from 'react';
import { zoneAbbreviation } from '../format.ts';
import type { WhenForm, WhenMode } from './when.ts';

const MODES: { mode: WhenMode; label: string }[] = [
  { mode: 'at', label: 'At a date and time' },
  { mode: 'now', label: 'Now' },
  { mode: 'draft', label: 'Save as draft' },
];

export function WhenInput({
  value,
  zone,
  problem,
  onChange,
  modes = ['at', 'now', 'draft'],
}: {
  value: WhenForm;
  zone: string;
  problem?: string;
  onChange: (v: WhenForm) => void;
  modes?: WhenMode[];
}) {
  const id = useId();
  return (
    <fieldset className="when">
      <legend>When</legend>
      <div className="segmented">
        {MODES.filter((m) => modes.includes(m.mode)).map((m) => (
          <label key={m.mode} className={value.mode === m.mode ? 'on' : ''}>
            <input
              type="radio"
              name={`${id}-mode`}
              value={m.mode}
              checked={value.mode === m.mode}
              onChange={() => onChange({ ...value, mode: m.mode })}
            />
            {m.label}
          </label>
        ))}
      </div>
      {value.mode === 'at' && (
        <div className="when-at">
          <label>
            Date
            <input
              type="date"
              value={value.date}
              onChange={(e) => onChange({ ...value, date: e.target.value })}
              required
            />
          </label>
          <label>
            Time
            <input
              type="time"
              value={value.time}
              onChange={(e) => onChange({ ...value, time: e.target.value })}
              required
            />
          </label>
          <p className="muted zone">
            Time zone: <strong>{zone}</strong> ({zoneAbbreviation(zone)})
          </p>
        </div>
      )}
      {problem && (
        <p className="error-text" role="alert">
          {problem}
        </p>
      )}
    </fieldset>
  );
}
