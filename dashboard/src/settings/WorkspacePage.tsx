// Settings, workspace: name, slug, time zone, currency and whose posts need approval. Changing the zone leaves
// queued posts at their absolute instants; the answer says so and this page repeats it.
import { lazy, Suspense, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { authApi, call } from '../api.ts';
import { useRefresh } from '../queries/refresh.ts';
import { workspaceKeys } from '../queries/workspaces.ts';
import { SESSION_KEY, useSignedIn } from '../session.tsx';
import { Button, ErrorNote, Field, Loading, submitting } from '../ui.tsx';
import { atLeast } from './settingsApi.ts';
import { ApprovalSetting } from './ApprovalSetting.tsx';

const CURRENCIES = Intl.supportedValuesOf('currency');
// The zone picker's combobox (downshift) loads with this page only, not with every page of the dashboard.
const ZonePicker = lazy(() => import('./ZonePicker.tsx').then((m) => ({ default: m.ZonePicker })));

export function WorkspacePage() {
  const { workspace, role } = useSignedIn();
  const refresh = useRefresh();
  const [form, setForm] = useState({
    name: workspace.name,
    slug: workspace.slug,
    tz: workspace.tz,
    currency: workspace.currency,
    approvalRequiredFor: workspace.approvalRequiredFor,
  });
  const [notes, setNotes] = useState<string[]>();
  const editable = atLeast(role, 'administrator');
  const set = (field: 'name' | 'slug' | 'tz' | 'currency') => (e: { target: { value: string } }) =>
    setForm({ ...form, [field]: e.target.value });
  // The session carries the workspace every page reads (its zone, its name); the switcher lists it by name.
  const save = useMutation({
    mutationFn: () => call(authApi.PATCH('/workspace', { body: form })),
    onSuccess: (out) => {
      setNotes(out.notes.length ? out.notes : ['Saved.']);
      return refresh(SESSION_KEY, workspaceKeys.all);
    },
  });
  return (
    <form className="card stack" onSubmit={submitting(() => save.mutate())} aria-labelledby="workspace-title">
      <h2 id="workspace-title">Workspace</h2>
      <fieldset disabled={!editable} className="stack">
        <Field label="Name" value={form.name} onChange={set('name')} required maxLength={100} />
        <Field
          label="Slug"
          hint="Lowercase letters, digits and hyphens; operators name the workspace by it."
          value={form.slug}
          onChange={set('slug')}
          required
        />
        <Suspense fallback={<Loading label="Loading time zones" />}>
          <ZonePicker
            label="Time zone"
            hint="Every time is shown and read in it. Queued posts keep their absolute times when it changes."
            value={form.tz}
            onChange={(tz) => setForm({ ...form, tz })}
          />
        </Suspense>
        <div className="field">
          <label htmlFor="ws-currency">Currency</label>
          <select id="ws-currency" value={form.currency} onChange={set('currency')}>
            {CURRENCIES.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </div>
        <ApprovalSetting
          value={form.approvalRequiredFor}
          onChange={(approvalRequiredFor) => setForm({ ...form, approvalRequiredFor })}
        />
      </fieldset>
      <ErrorNote error={save.error} />
      {notes && (
        <div className="note note-ok" role="status">
          {notes.map((n) => (
            <p key={n}>{n}</p>
          ))}
        </div>
      )}
      {editable ? (
        <div>
          <Button tone="primary" type="submit" busy={save.isPending}>
            Save
          </Button>
        </div>
      ) : (
        <p className="muted">Administrators and the owner change these settings.</p>
      )}
    </form>
  );
}
