// A webhook's delivery log: each event sent (newest first, 30 days), its state in words, the HTTP status, how long
// the answer took, when (in the workspace zone) and the first part of the answer; any delivery can be sent again.
import { useMutation } from '@tanstack/react-query';
import { api } from '../api.ts';
import { dayTimeText } from '../format.ts';
import { useSignedIn } from '../session.tsx';
import { Button, Empty, ErrorNote, Loading } from '../ui.tsx';
import {
  DELIVERY_STATUS_LABELS,
  DELIVERY_STATUS_WORDS,
  durationMsText,
  noAnswerWords,
  WEBHOOK_EVENT_LABELS,
  type Delivery,
} from '../words/webhookWords.ts';
import { useRefresh } from '../queries/refresh.ts';
import { useDeliveries, webhookKeys } from '../queries/webhooks.ts';
import { webhookCall } from './webhooksApi.ts';

/** Enough of the answer to recognise it; the server keeps its first 1 KB. */
const ANSWER_SHOWN = 300;

const BADGE: Record<Delivery['status'], string> = { delivered: 'live', pending: 'queued', failed: 'failed' };

function DeliveryRow({ delivery, zone, on }: { delivery: Delivery; zone: string; on: boolean }) {
  const refresh = useRefresh();
  const label = WEBHOOK_EVENT_LABELS[delivery.type as keyof typeof WEBHOOK_EVENT_LABELS] ?? 'Event';
  const when = dayTimeText(delivery.createdAt, zone);
  const again = useMutation({
    mutationFn: () =>
      webhookCall(
        api.POST('/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver', {
          params: { path: { webhookId: delivery.webhookId, deliveryId: delivery.id } },
        }),
      ),
    onSuccess: () => refresh(webhookKeys.deliveries(delivery.webhookId)),
  });
  const answered = delivery.responseStatus !== null;
  const meaning = DELIVERY_STATUS_WORDS[delivery.status](delivery, zone, on);
  const facts = [
    when,
    answered ? `HTTP ${delivery.responseStatus}` : undefined,
    delivery.durationMs !== null ? durationMsText(delivery.durationMs) : undefined,
  ].filter(Boolean);
  return (
    <li className="row delivery">
      <div className="row-main">
        <p className="row-title">
          {label}{' '}
          <span className={`badge badge-words badge-${BADGE[delivery.status]}`}>
            {DELIVERY_STATUS_LABELS[delivery.status]}
          </span>
        </p>
        <p className="muted">{facts.join(' · ')}</p>
        {meaning && <p>{meaning}</p>}
        {answered && delivery.responseBody ? (
          <div>
            <p className="muted small">Your server answered:</p>
            <pre className="answer">
              {delivery.responseBody.slice(0, ANSWER_SHOWN)}
              {delivery.responseBody.length > ANSWER_SHOWN ? '…' : ''}
            </pre>
          </div>
        ) : (
          delivery.attempts > 0 &&
          !answered && <p className="error-text">{noAnswerWords(delivery.attemptLog.at(-1))}</p>
        )}
        <ErrorNote error={again.error} />
      </div>
      <Button tone="ghost" busy={again.isPending} onClick={() => again.mutate()}>
        Send again
        <span className="sr-only">
          {' '}
          the {label.toLowerCase()} of {when}
        </span>
      </Button>
    </li>
  );
}

/** `on`: whether the webhook is enabled (a disabled one's pending deliveries wait). */
export function DeliveryLog({ webhookId, on }: { webhookId: string; on: boolean }) {
  const { workspace } = useSignedIn();
  const log = useDeliveries(webhookId);
  if (log.isPending) return <Loading label="Loading the deliveries" />;
  if (log.isError) return <ErrorNote error={log.error} />;
  const deliveries = log.data.pages.flatMap((p) => p.deliveries);
  return (
    <section aria-label="Delivery log">
      {deliveries.length === 0 ? (
        <Empty title="Nothing sent yet">
          Deliveries show here as events happen; send a test event to see one now. Herald keeps them 30 days.
        </Empty>
      ) : (
        <ul className="rows">
          {deliveries.map((d) => (
            <DeliveryRow key={d.id} delivery={d} zone={workspace.tz} on={on} />
          ))}
        </ul>
      )}
      {log.hasNextPage && (
        <Button onClick={() => log.fetchNextPage()} busy={log.isFetchingNextPage}>
          Show older deliveries
        </Button>
      )}
    </section>
  );
}
