// Settings, Webhooks: where Herald POSTs the workspace's events, signed. New webhook (address and events), the
// signing secret shown once (after creating and after making a new one) with a copy button, and the webhooks with
// their delivery logs (WebhookCard). A member, or a plan without webhooks, gets the reason instead of controls; the
// Settings banner (DisabledWebhooksBanner) tells administrators on every Settings tab when Herald turned one off.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, Failure } from '../api.ts';
import { PLANS } from '../../../domain/plans.ts';
import { useMay, useSignedIn } from '../session.tsx';
import { AdminsOnly, Button, Empty, ErrorNote, Field, Loading, submitting } from '../ui.tsx';
import { FIELD_LABELS } from '../words/fieldLabels.ts';
import { DEFAULT_WEBHOOK_EVENTS, WEBHOOK_DISABLED_WORDS, type WebhookEventType } from '../words/webhookWords.ts';
import { EventPicker } from './EventPicker.tsx';
import { WebhookCard } from './WebhookCard.tsx';
import { NewSecret, type Revealed } from './WebhookSecret.tsx';
import { useRefresh } from '../queries/refresh.ts';
import { useWebhooks, webhookKeys } from '../queries/webhooks.ts';
import { webhookCall, type WebhookWithSecret } from './webhooksApi.ts';

function Intro() {
  return (
    <p className="muted">
      A webhook sends this workspace’s events to your server as they happen (a post published, a post that failed, a
      file ready…), each signed with the webhook’s secret so your server can check it came from Herald. Herald retries a
      failed delivery for about three days.
    </p>
  );
}

/** The plan has no webhooks (the API answered quota_exceeded): what they need, and the way to the plans. */
function PlanNote({ upgradeUrl }: { upgradeUrl: unknown }) {
  return (
    <div className="note note-quiet">
      <p className="note-title">Webhooks come with the Studio and Agency plans</p>
      <p>
        Change the plan to have Herald send this workspace’s events to your server.
        {typeof upgradeUrl === 'string' && (
          <>
            {' '}
            <a href={upgradeUrl}>See plans</a>
          </>
        )}
      </p>
    </div>
  );
}

function CreateWebhook({ onCreated }: { onCreated: (webhook: WebhookWithSecret) => void }) {
  const refresh = useRefresh();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>(DEFAULT_WEBHOOK_EVENTS);
  const create = useMutation({
    mutationFn: () => webhookCall(api.POST('/webhooks', { body: { url, events } })),
    onSuccess: (webhook) => {
      onCreated(webhook);
      setUrl('');
      setEvents(DEFAULT_WEBHOOK_EVENTS);
      return refresh(webhookKeys.list);
    },
  });
  return (
    <form className="card stack" onSubmit={submitting(() => create.mutate())} aria-labelledby="new-webhook-title">
      <h2 id="new-webhook-title">New webhook</h2>
      <Field
        label={FIELD_LABELS.url!}
        hint="The https address of your server that receives the events."
        type="url"
        placeholder="https://example.com/herald-events"
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        required
        maxLength={2000}
      />
      <EventPicker value={events} onChange={setEvents} />
      <ErrorNote error={create.error} />
      <div>
        <Button tone="primary" type="submit" busy={create.isPending} disabled={events.length === 0}>
          Create webhook
        </Button>
      </div>
    </form>
  );
}

export function WebhooksPage() {
  const admin = useMay('administrator');
  const webhooks = useWebhooks(admin);
  const [revealed, setRevealed] = useState<Revealed>();
  if (!admin)
    return (
      <section className="card stack" aria-labelledby="webhooks-title">
        <h2 id="webhooks-title">Webhooks</h2>
        <Intro />
        <AdminsOnly what="manage webhooks" />
      </section>
    );
  if (webhooks.isPending) return <Loading label="Loading the webhooks" />;
  const planLacks = webhooks.error instanceof Failure && webhooks.error.code === 'quota_exceeded';
  if (webhooks.isError && !planLacks) return <ErrorNote error={webhooks.error} />;
  return (
    <div className="stack">
      <Intro />
      {planLacks ? (
        <PlanNote upgradeUrl={(webhooks.error as Failure).body.upgradeUrl} />
      ) : (
        <>
          {revealed && !revealed.rotated && <NewSecret revealed={revealed} />}
          <CreateWebhook onCreated={(webhook) => setRevealed({ webhook, rotated: false })} />
          <section className="card" aria-labelledby="webhooks-title">
            <h2 id="webhooks-title">Webhooks</h2>
            {webhooks.data?.length ? (
              <ul className="rows stack">
                {webhooks.data.map((w) => (
                  <WebhookCard
                    key={w.id}
                    webhook={w}
                    rotated={revealed?.rotated && revealed.webhook.id === w.id ? revealed : undefined}
                    onRotated={(webhook) => setRevealed({ webhook, rotated: true })}
                  />
                ))}
              </ul>
            ) : (
              <Empty title="No webhooks yet">Create one above to have Herald send events to your server.</Empty>
            )}
          </section>
        </>
      )}
    </div>
  );
}

/**
 * On every Settings tab but Webhooks (whose cards say it themselves), for administrators on a plan with webhooks:
 * each webhook Herald turned off after its deliveries kept failing, with the way to turn it on again.
 */
export function DisabledWebhooksBanner() {
  const { workspace } = useSignedIn();
  const admin = useMay('administrator');
  const webhooks = useWebhooks(admin && PLANS[workspace.plan].webhooks);
  const off = (webhooks.data ?? []).filter((w) => !w.enabled && w.disabledReason !== null);
  if (!off.length) return null;
  return (
    <div className="note note-error" role="status">
      {off.map((w) => (
        <p key={w.id} className="note-title">
          {WEBHOOK_DISABLED_WORDS.banner(w.url)}
        </p>
      ))}
      <p>
        <Link to="/settings/webhooks">Open Webhooks</Link> to see what your server answered and turn it on again.
      </p>
    </div>
  );
}
