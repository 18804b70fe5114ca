// When to publish: at a date and time in the workspace zone (the zone is shown), at each account's next free
// posting time (the queue), now, or as a draft.
import { useId } from 'react';
import { zoneAbbreviation } from '../format.ts';
import { QUEUE_WORDS, WHEN_LABEL } from '../words/scheduleWords.ts';
import type { WhenForm, WhenMode } from './when.ts';

const MODES = Object.keys(WHEN_LABEL) as WhenMode[];

export function WhenInput({
  value,
  zone,
  problem,
  onChange,
  modes = MODES,
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
        {MODES.filter((mode) => modes.includes(mode)).map((mode) => (
          <label key={mode} className={value.mode === mode ? 'on' : ''}>
            <input
              type="radio"
              name={`${id}-mode`}
              value={mode}
              checked={value.mode === mode}
              onChange={() => onChange({ ...value, mode })}
            />
            {WHEN_LABEL[mode]}
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
      {value.mode === 'queue' && <p className="muted small">{QUEUE_WORDS.hint}</p>}
      {problem && (
        <p className="error-text" role="alert">
          {problem}
        </p>
      )}
    </fieldset>
  );
}
