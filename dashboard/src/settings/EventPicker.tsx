// The events a webhook receives: a checkbox per event type, in the groups and words of words/webhookWords.ts.
import { FIELD_LABELS } from '../words/fieldLabels.ts';
import { WEBHOOK_EVENT_GROUPS, WEBHOOK_EVENT_LABELS, type WebhookEventType } from '../words/webhookWords.ts';

export function EventPicker({
  value,
  onChange,
}: {
  value: WebhookEventType[];
  onChange: (events: WebhookEventType[]) => void;
}) {
  const toggle = (event: WebhookEventType, on: boolean) =>
    onChange(on ? [...value, event] : value.filter((e) => e !== event));
  return (
    <fieldset className="event-picker">
      <legend>{FIELD_LABELS.events}</legend>
      <div className="event-groups">
        {WEBHOOK_EVENT_GROUPS.map((group) => (
          <fieldset key={group.title}>
            <legend className="settings-title">{group.title}</legend>
            {group.events.map((event) => (
              <label key={event} className="check">
                <input
                  type="checkbox"
                  checked={value.includes(event)}
                  onChange={(e) => toggle(event, e.target.checked)}
                />
                {WEBHOOK_EVENT_LABELS[event]}
              </label>
            ))}
          </fieldset>
        ))}
      </div>
      {value.length === 0 && <p className="warning-text">Choose at least one event.</p>}
    </fieldset>
  );
}
