// Settings, API keys: New key (name and scope), the full key shown once with a copy button and the advice
// never to paste it into a chat, the list (prefix, scopes, creator, created, last used) and revoke.
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { authApi, call } from '../api.ts';
import { timeText } from '../format.ts';
import { useSignedIn } from '../session.tsx';
import { Button, Confirm, CopyField, Empty, ErrorNote, Field, Loading, submitting } from '../ui.tsx';
import { apiKeyKeys, useKeys } from '../queries/keys.ts';
import { useRefresh } from '../queries/refresh.ts';
import type { ApiKey, KeyList } from './settingsApi.ts';

function PlanAccess({ access }: { access: KeyList['access'] }) {
  if (access.rest) {
    return (
      <p className="muted">
        Keys work with the REST API and the MCP server; a read key lists, gets and plans, a write key also uploads,
        creates, retries, cancels and deletes.
      </p>
    );
  }
  return (
    <div className="note">
      <p className="note-title">What a key can do on the Free plan</p>
      <p>
        It can connect an AI agent to the read-only MCP server: list accounts, media, folders, groups and posts, read
        analytics, and plan posts.
      </p>
      <p>
        It cannot call the REST API (every call answers 402) or create, publish, retry or cancel posts through MCP.
        Upgrade to Creator for both.
      </p>
    </div>
  );
}

function NewKey({ created }: { created: ApiKey & { key: string } }) {
  return (
    <section className="note note-ok" aria-label="Your new key">
      <p className="note-title">{created.name}: this is the only time the whole key is shown</p>
      <CopyField label="Key" value={created.key} what="key" />
      <p>
        Put it in the environment or credential store of the program that uses it (for example{' '}
        <code>HERALD_API_KEY</code>). Never paste it into a chat or a prompt, and never give it to an AI agent in a
        message: anyone who reads it can act for this workspace.
      </p>
    </section>
  );
}

function CreateKey({ onCreated }: { onCreated: (key: ApiKey & { key: string }) => void }) {
  const refresh = useRefresh();
  const [name, setName] = useState('');
  const [write, setWrite] = useState(false);
  const create = useMutation({
    mutationFn: () => call(authApi.POST('/keys', { body: { name, scopes: write ? ['read', 'write'] : ['read'] } })),
    onSuccess: (created) => {
      onCreated(created);
      setName('');
      return refresh(apiKeyKeys.all);
    },
  });
  return (
    <form className="card stack" onSubmit={submitting(() => create.mutate())} aria-labelledby="new-key-title">
      <h2 id="new-key-title">New key</h2>
      <Field
        label="Name"
        hint="Where the key will live, such as “CI” or “Claude Desktop”."
        value={name}
        onChange={(e) => setName(e.target.value)}
        required
        maxLength={100}
      />
      <fieldset className="segmented">
        <legend className="sr-only">Scope</legend>
        <label className={!write ? 'on' : ''}>
          <input type="radio" name="scope" checked={!write} onChange={() => setWrite(false)} /> Read
        </label>
        <label className={write ? 'on' : ''}>
          <input type="radio" name="scope" checked={write} onChange={() => setWrite(true)} /> Read and write
        </label>
      </fieldset>
      <p className="muted">
        {write
          ? 'Write also lets the key upload, create and publish posts, retry, cancel and delete.'
          : 'Read lets the key list, get and plan; it changes nothing.'}
      </p>
      <ErrorNote error={create.error} />
      <div>
        <Button tone="primary" type="submit" busy={create.isPending}>
          Create key
        </Button>
      </div>
    </form>
  );
}

function KeyRow({ apiKey, zone }: { apiKey: ApiKey; zone: string }) {
  const refresh = useRefresh();
  const created = timeText(apiKey.createdAt, zone);
  const used = apiKey.lastUsedAt ? `last used ${timeText(apiKey.lastUsedAt, zone)}` : 'never used';
  return (
    <li className="row">
      <div className="row-main">
        <p className="row-title">
          {apiKey.name} <code>{apiKey.prefix}…</code>
        </p>
        <p className="muted">
          {apiKey.scopes.join(' and ')} · created by {apiKey.createdBy.name} on {created} · {used}
        </p>
      </div>
      <Confirm
        trigger={
          <Button tone="ghost">
            Revoke<span className="sr-only"> {apiKey.name}</span>
          </Button>
        }
        title={`Revoke ${apiKey.name}?`}
        tone="danger"
        action="Revoke key"
        description={
          <p>
            Every program using the key {apiKey.prefix}… stops working within a second. This cannot be undone; make a
            new key instead.
          </p>
        }
        onConfirm={async () => {
          await call(authApi.DELETE('/keys/{keyId}', { params: { path: { keyId: apiKey.id } } }));
          await refresh(apiKeyKeys.all);
        }}
      />
    </li>
  );
}

export function KeysPage() {
  const { workspace } = useSignedIn();
  const keys = useKeys();
  const [created, setCreated] = useState<ApiKey & { key: string }>();
  if (keys.isPending) return <Loading label="Loading the keys" />;
  if (keys.isError) return <ErrorNote error={keys.error} />;
  return (
    <div className="stack">
      <PlanAccess access={keys.data.access} />
      {created && <NewKey created={created} />}
      <CreateKey onCreated={setCreated} />
      <section className="card" aria-labelledby="keys-title">
        <h2 id="keys-title">Keys</h2>
        {keys.data.keys.length === 0 ? (
          <Empty title="No keys yet">Create one above for a script, a CI job or an AI agent.</Empty>
        ) : (
          <ul className="rows">
            {keys.data.keys.map((k) => (
              <KeyRow key={k.id} apiKey={k} zone={workspace.tz} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
