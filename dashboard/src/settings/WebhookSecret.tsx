// A webhook's signing secret, shown once: after the webhook is created, or after a new one is made (then both
// signatures go out for 24 hours). A copy button, and the words that Herald will not show it again.
import { CopyField } from '../ui.tsx';
import type { WebhookWithSecret } from './webhooksApi.ts';

export interface Revealed {
  webhook: WebhookWithSecret;
  /** Made by "Make a new secret" (else by creating the webhook). */
  rotated: boolean;
}

export function NewSecret({ revealed }: { revealed: Revealed }) {
  const { webhook, rotated } = revealed;
  return (
    <section className="note note-ok" aria-label="Your signing secret">
      <p className="note-title">
        {rotated ? 'The new signing secret' : 'The signing secret of your new webhook'}: this is the only time it is
        shown
      </p>
      <p className="row-title">{webhook.url}</p>
      <CopyField label="Signing secret" value={webhook.secret} what="secret" />
      <p>
        Keep it in your server’s configuration: it checks each delivery’s signature with it (any Standard Webhooks
        library does this). Herald will not show it again; if you lose it, make a new one.
      </p>
      {rotated && (
        <p>
          For the next 24 hours the old secret keeps signing every delivery beside this one: switch your server to this
          secret within that time.
        </p>
      )}
    </section>
  );
}
