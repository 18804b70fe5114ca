// Groups: named sets of accounts to post to at once (Creator plan and above; the server says so otherwise).
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, call, type Account, type Schemas } from '../api.ts';
import { labelOf } from '../networks.ts';
import { groupKeys, useGroups } from '../queries/groups.ts';
import { useRefresh } from '../queries/refresh.ts';
import { useMay } from '../session.tsx';
import { AdminsOnly, Button, Confirm, ErrorNote, Field, Loading } from '../ui.tsx';

type Group = Schemas['Group'];

function GroupForm({ accounts, group, onDone }: { accounts: Account[]; group?: Group; onDone: () => void }) {
  const refresh = useRefresh();
  const save = useMutation({
    mutationFn: (body: { name: string; accountIds: string[] }) =>
      group
        ? call(api.PATCH('/groups/{groupId}', { params: { path: { groupId: group.id } }, body }))
        : call(api.POST('/groups', { body })),
    onSuccess: async () => {
      await refresh(groupKeys.all);
      onDone();
    },
  });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    save.mutate({ name: String(f.get('name')).trim(), accountIds: f.getAll('accountIds').map(String) });
  };
  return (
    <form onSubmit={submit} className="group-form">
      <Field label="Group name" name="name" defaultValue={group?.name} required />
      <fieldset>
        <legend>Accounts in the group</legend>
        {accounts.map((a) => (
          <label key={a.id} className="check">
            <input type="checkbox" name="accountIds" value={a.id} defaultChecked={group?.accountIds.includes(a.id)} />
            {a.displayName} <span className="muted">({labelOf(a.platform)})</span>
          </label>
        ))}
      </fieldset>
      <ErrorNote error={save.error} />
      <div className="actions">
        <Button tone="primary" type="submit" busy={save.isPending}>
          {group ? 'Save group' : 'Create group'}
        </Button>
        <Button onClick={onDone}>Cancel</Button>
      </div>
    </form>
  );
}

export function GroupsPanel({ accounts }: { accounts: Account[] }) {
  const groups = useGroups();
  const refresh = useRefresh();
  const [editing, setEditing] = useState<string | 'new' | null>(null);
  const manages = useMay('administrator');
  const nameOf = (id: string) => accounts.find((a) => a.id === id)?.displayName ?? id;
  return (
    <section aria-labelledby="groups-h" className="card">
      <div className="card-head">
        <h2 id="groups-h">Groups</h2>
        {manages && editing === null && <Button onClick={() => setEditing('new')}>New group</Button>}
      </div>
      {editing === 'new' && <GroupForm accounts={accounts} onDone={() => setEditing(null)} />}
      {groups.isPending ? (
        <Loading />
      ) : groups.isError ? (
        <ErrorNote error={groups.error} />
      ) : groups.data.length === 0 ? (
        <p className="muted">No groups. A group lets you pick several accounts at once when composing.</p>
      ) : (
        <ul className="rows">
          {groups.data.map((g) =>
            editing === g.id ? (
              <li key={g.id} className="row">
                <GroupForm accounts={accounts} group={g} onDone={() => setEditing(null)} />
              </li>
            ) : (
              <li key={g.id} className="row">
                <div className="row-main">
                  <p className="row-title">{g.name}</p>
                  <p className="muted">{g.accountIds.map(nameOf).join(', ') || 'No accounts'}</p>
                </div>
                {manages && (
                  <div className="row-actions">
                    <Button tone="ghost" onClick={() => setEditing(g.id)}>
                      Edit<span className="sr-only"> {g.name}</span>
                    </Button>
                    <Confirm
                      trigger={
                        <Button tone="ghost">
                          Delete<span className="sr-only"> {g.name}</span>
                        </Button>
                      }
                      title={`Delete the group ${g.name}?`}
                      description={<p>Its accounts and their posts stay; only the group goes.</p>}
                      action="Delete group"
                      tone="danger"
                      onConfirm={async () => {
                        await call(api.DELETE('/groups/{groupId}', { params: { path: { groupId: g.id } } }));
                        await refresh(groupKeys.all);
                      }}
                    />
                  </div>
                )}
              </li>
            ),
          )}
        </ul>
      )}
      {!manages && <AdminsOnly what="make and change groups" />}
    </section>
  );
}
