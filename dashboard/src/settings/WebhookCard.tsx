// One webhook: its address, state and events; why Herald turned it off, if it did; send a test event, change the
// address or events, turn it off or on, make a new secret and delete (the last two confirmed); and its delivery log.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api.ts';
import { timeText } from '../format.ts';
import { useSignedIn } from '../session.tsx';
import { useRefresh } from '../queries/refresh.ts';
import { webhookKeys } from '../queries/webhooks.ts';
import { Button, Confirm, ErrorNote, Field, submitting } from '../ui.tsx';
import { FIELD_LABELS } from '../words/fieldLabels.ts';
import {
  WEBHOOK_DISABLED_WORDS,
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_STATE_LABELS,
  type WebhookEventType,
} from '../words/webhookWords.ts';
import { DeliveryLog } from './DeliveryLog.tsx';
import { EventPicker } from './EventPicker.tsx';
import { NewSecret, type Revealed } from './WebhookSecret.tsx';
import { webhookCall, type Webhook, type WebhookWithSecret } from './webhooksApi.ts';

const STATE_BADGE = { on: 'live', off: 'off', offByHerald: 'failed' } as const;

const path = (webhookId: string) => ({ params: { path: { webhookId } } });

function EditWebhook({ webhook, onDone }: { webhook: Webhook; onDone: () => void }) {
  const refresh = useRefresh();
  const [url, setUrl] = useState(webhook.url);
  const [events, setEvents] = useState<WebhookEventType[]>(webhook.events);
  const save = useMutation({
    mutationFn: () => webhookCall(api.PATCH('/webhooks/{webhookId}', { ...path(webhook.id), body: { url, events } })),
    onSuccess: async () => {
      await refresh(webhookKeys.list);
      onDone();
    },
  });
  return (
    <form
      className="stack"
      onSubmit={submitting(() => save.mutate())}
      aria-label={`Change the webhook to ${webhook.url}`}
    >
      <Field label={FIELD_LABELS.url!} type="url" value={url} onChange={(e) => setUrl(e.target.value)} required />
      <EventPicker value={events} onChange={setEvents} />
      <ErrorNote error={save.error} />
      <div className="inline wrap">
        <Button tone="primary" type="submit" busy={save.isPending} disabled={events.length === 0}>
          Save changes
        </Button>
        <Button onClick={onDone}>Keep as is</Button>
      </div>
    </form>
  );
}

/** Herald turned it off after its deliveries kept failing: why, and the way back on. */
function DisabledNotice({ onEnable, busy }: { onEnable: () => void; busy: boolean }) {
  return (
    <div className="note note-error" role="status">
      <p className="note-title">{WEBHOOK_DISABLED_WORDS.title}</p>
      <p>{WEBHOOK_DISABLED_WORDS.body}</p>
      <div>
        <Button tone="primary" busy={busy} onClick={onEnable}>
          Turn on again
        </Button>
      </div>
    </div>
  );
}

export function WebhookCard({
  webhook,
  rotated,
  onRotated,
}: {
  webhook: Webhook;
  /** Its new secret, to show once, when one was just made. */
  rotated?: Revealed;
  onRotated: (webhook: WebhookWithSecret) => void;
}) {
  const { workspace } = useSignedIn();
  const refresh = useRefresh();
  const [editing, setEditing] = useState(false);
  const [logOpen, setLogOpen] = useState(false);
  const offByHerald = !webhook.enabled && webhook.disabledReason !== null;
  const state = webhook.enabled ? 'on' : offByHerald ? 'offByHerald' : 'off';
  // Turning it on or off changes the list and the Settings banner; a disabled webhook's pending deliveries wait.
  const toggle = useMutation({
    mutationFn: () =>
      webhookCall(api.PATCH('/webhooks/{webhookId}', { ...path(webhook.id), body: { enabled: !webhook.enabled } })),
    onSuccess: () => refresh(webhookKeys.list, webhookKeys.deliveries(webhook.id)),
  });
  const test = useMutation({
    mutationFn: () => webhookCall(api.POST('/webhooks/{webhookId}/test', path(webhook.id))),
    onSuccess: () => {
      setLogOpen(true);
      return refresh(webhookKeys.deliveries(webhook.id));
    },
  });
  /** From a confirm step: the failure shows on the card, under its buttons, as the other buttons' do. */
  const toggleConfirmed = () => toggle.mutateAsync().catch(() => undefined);
  const logId = `log-${webhook.id}`;
  /** Each card's buttons say which webhook they act on, for a screen reader's list of buttons. */
  const which = `the webhook to ${webhook.url}`;
  return (
    <li className="card stack webhook">
      <div className="card-head">
        <div className="row-main">
          <h3 className="row-title">{webhook.url}</h3>
          <p className="muted">
            <span className={`badge badge-words badge-${STATE_BADGE[state]}`}>{WEBHOOK_STATE_LABELS[state]}</span>{' '}
            created {timeText(webhook.createdAt, workspace.tz)}
          </p>
        </div>
      </div>
      {rotated && <NewSecret revealed={rotated} />}
      {offByHerald && <DisabledNotice busy={toggle.isPending} onEnable={() => toggle.mutate()} />}
      {editing ? (
        <EditWebhook webhook={webhook} onDone={() => setEditing(false)} />
      ) : (
        <>
          <p>
            <span className="muted">Sends: </span>
            {webhook.events.map((e) => WEBHOOK_EVENT_LABELS[e]).join(', ')}
          </p>
          <div className="row-actions">
            <Button busy={test.isPending} onClick={() => test.mutate()} disabled={!webhook.enabled}>
              Send a test event
            </Button>
            <Button tone="ghost" onClick={() => setEditing(true)}>
              Change<span className="sr-only"> {which}</span>
            </Button>
            {webhook.enabled ? (
              <Confirm
                trigger={
                  <Button tone="ghost">
                    Turn off<span className="sr-only"> {which}</span>
                  </Button>
                }
                title={`Turn off ${which}?`}
                action="Turn off"
                description={
                  <p>
                    Herald stops sending to it. Events that happen while it is off are not sent later; turn it on again
                    whenever you like.
                  </p>
                }
                onConfirm={toggleConfirmed}
              />
            ) : (
              !offByHerald && (
                <Button tone="ghost" busy={toggle.isPending} onClick={() => toggle.mutate()}>
                  Turn on
                </Button>
              )
            )}
            <Confirm
              trigger={<Button tone="ghost">Make a new secret</Button>}
              title="Make a new signing secret?"
              action="Make a new secret"
              description={
                <p>
                  The new secret is shown once. For the next 24 hours the current secret keeps signing every delivery
                  beside the new one, so your server can switch without missing a delivery; after that only the new
                  secret signs.
                </p>
              }
              onConfirm={async () => {
                onRotated(await webhookCall(api.POST('/webhooks/{webhookId}/rotate-secret', path(webhook.id))));
              }}
            />
            <Confirm
              trigger={
                <Button tone="ghost">
                  Delete<span className="sr-only"> {which}</span>
                </Button>
              }
              title={`Delete ${which}?`}
              tone="danger"
              action="Delete webhook"
              description={
                <p>Herald stops sending to it at once, and its delivery log is deleted. This cannot be undone.</p>
              }
              onConfirm={async () => {
                await webhookCall(api.DELETE('/webhooks/{webhookId}', path(webhook.id)));
                await refresh(webhookKeys.list);
              }}
            />
          </div>
          {!webhook.enabled && !offByHerald && <p className="muted">Turn it on to send a test event.</p>}
          <ErrorNote error={test.error ?? toggle.error} />
        </>
      )}
      <div>
        <Button
          tone="ghost"
          aria-expanded={logOpen}
          aria-controls={logOpen ? logId : undefined}
          onClick={() => setLogOpen(!logOpen)}
        >
          {logOpen ? 'Hide the delivery log' : 'Show the delivery log'}
        </Button>
      </div>
      {logOpen && (
        <div id={logId}>
          <DeliveryLog webhookId={webhook.id} on={webhook.enabled} />
        </div>
      )}
    </li>
  );
}
