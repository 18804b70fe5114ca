// Settings, members: who is in the workspace and in which role, pending invitations, inviting by email
// (the link is also shown here to copy), changing a role, transferring ownership and removing a member.
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { authApi, call } from '../api.ts';
import { timeText } from '../format.ts';
import { useSignedIn } from '../session.tsx';
import { billingKeys } from '../queries/billing.ts';
import { useRefresh } from '../queries/refresh.ts';
import { workspaceKeys } from '../queries/workspaces.ts';
import { SESSION_KEY } from '../session.tsx';
import {
  AdminsOnly,
  Button,
  Confirm,
  ConfirmDialog,
  CopyField,
  ErrorNote,
  Field,
  Loading,
  submitting,
} from '../ui.tsx';
import { memberKeys, useMembers } from '../queries/members.ts';
import { atLeast, ROLE_LABEL, type Invite, type Member, type Role } from './settingsApi.ts';

/** The roles an invitation gives: ownership is transferred, never offered. */
type InvitedRole = Exclude<Role, 'owner'>;

function InviteForm() {
  const refresh = useRefresh();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<InvitedRole>('member');
  const [sent, setSent] = useState<{ email: string; link: string; delivered: string }>();
  const invite = useMutation({
    mutationFn: () => call(authApi.POST('/invites', { body: { email, role } })),
    onSuccess: (out) => {
      setSent({ email: out.invite.email, link: out.link, delivered: out.delivered });
      setEmail('');
      return refresh(memberKeys.all);
    },
  });
  return (
    <form className="card stack" onSubmit={submitting(() => invite.mutate())} aria-labelledby="invite-title">
      <h2 id="invite-title">Invite someone</h2>
      <Field
        label="Email"
        type="email"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        required
        autoComplete="off"
      />
      <div className="field">
        <label htmlFor="invite-role">Role</label>
        <select id="invite-role" value={role} onChange={(e) => setRole(e.target.value as InvitedRole)}>
          <option value="member">Member: {ROLE_SCOPE.member}</option>
          <option value="administrator">Administrator: {ROLE_SCOPE.administrator}</option>
        </select>
      </div>
      <ErrorNote error={invite.error} />
      <div>
        <Button tone="primary" type="submit" busy={invite.isPending}>
          Send invitation
        </Button>
      </div>
      {sent && (
        <div className="note note-ok" role="status">
          <p className="note-title">Invitation for {sent.email} ready</p>
          <p>
            {sent.delivered === 'smtp'
              ? 'It was mailed.'
              : sent.delivered === 'failed'
                ? 'The mail could not be sent; give them this link yourself.'
                : 'No mail server is configured, so give them this link yourself.'}{' '}
            It works once, for 7 days.
          </p>
          <CopyField label="Invitation link" value={sent.link} what="link" />
        </div>
      )}
    </form>
  );
}

/** What each role adds, said where a role is chosen or changed. */
const ROLE_SCOPE: Record<Exclude<Role, 'owner'>, string> = {
  member: 'schedules and manages posts and media',
  administrator: 'also connects accounts and manages groups, keys, members and settings',
};

const aRole = (role: Role) =>
  role === 'owner' ? 'the owner' : role === 'administrator' ? 'an administrator' : 'a member';

function RolePicker({ member, youAreOwner }: { member: Member; youAreOwner: boolean }) {
  const refresh = useRefresh();
  // The role chosen in the list, waiting for the confirm step: a slip of the list must not change anyone's access.
  const [chosen, setChosen] = useState<Exclude<Role, 'owner'>>();
  return (
    <div className="stack">
      <label className="sr-only" htmlFor={`role-${member.userId}`}>
        Role of {member.name}
      </label>
      <select
        id={`role-${member.userId}`}
        value={member.role}
        onChange={(e) => setChosen(e.target.value as Exclude<Role, 'owner'>)}
      >
        <option value="member">Member</option>
        <option value="administrator">Administrator</option>
      </select>
      <ConfirmDialog
        open={chosen !== undefined}
        onOpenChange={(open) => !open && setChosen(undefined)}
        title={`Make ${member.name} ${aRole(chosen ?? 'member')}?`}
        action={`Make ${ROLE_LABEL[chosen ?? 'member'].toLowerCase()}`}
        description={
          <p>
            {member.name} is {aRole(member.role)} now; {aRole(chosen ?? 'member')} {ROLE_SCOPE[chosen ?? 'member']}.
          </p>
        }
        onConfirm={async () => {
          await call(
            authApi.PATCH('/members/{userId}', {
              params: { path: { userId: member.userId } },
              body: { role: chosen ?? 'member' },
            }),
          );
          await refresh(memberKeys.all);
          setChosen(undefined);
        }}
      />
      {youAreOwner && (
        <Confirm
          trigger={
            <Button tone="ghost">
              Make owner<span className="sr-only"> {member.name}</span>
            </Button>
          }
          title={`Make ${member.name} the owner?`}
          action="Transfer ownership"
          description={<p>{member.name} becomes the owner, who alone changes the plan. You become an administrator.</p>}
          onConfirm={async () => {
            await call(
              authApi.PATCH('/members/{userId}', {
                params: { path: { userId: member.userId } },
                body: { role: 'owner' },
              }),
            );
            // Your own role changes: what the pages offer you, the plan's change, the switcher's roles.
            await refresh(memberKeys.all, SESSION_KEY, billingKeys.all, workspaceKeys.all);
          }}
        />
      )}
    </div>
  );
}

function MemberRow({ member, you, zone }: { member: Member; you: { userId: string; role: Role }; zone: string }) {
  const refresh = useRefresh();
  const manageable = member.role !== 'owner' && atLeast(you.role, 'administrator') && member.userId !== you.userId;
  return (
    <li className="row">
      <div className="row-main">
        <p className="row-title">
          {member.name}
          {member.userId === you.userId ? ' (you)' : ''}
        </p>
        <p className="muted">
          {member.email ?? 'no email'} · {ROLE_LABEL[member.role]} · joined {timeText(member.joinedAt, zone)}
        </p>
      </div>
      {manageable && (
        <div className="row-actions">
          <RolePicker member={member} youAreOwner={you.role === 'owner'} />
          <Confirm
            trigger={
              <Button tone="ghost">
                Remove<span className="sr-only"> {member.name}</span>
              </Button>
            }
            title={`Remove ${member.name}?`}
            tone="danger"
            action="Remove member"
            description={
              <p>
                {member.name} is signed out of this workspace at once, and the API keys they made for it stop working.
              </p>
            }
            onConfirm={async () => {
              await call(authApi.DELETE('/members/{userId}', { params: { path: { userId: member.userId } } }));
              await refresh(memberKeys.all);
            }}
          />
        </div>
      )}
    </li>
  );
}

function InviteRow({ invite, canManage, zone }: { invite: Invite; canManage: boolean; zone: string }) {
  const refresh = useRefresh();
  const withdraw = useMutation({
    mutationFn: () => call(authApi.DELETE('/invites/{inviteId}', { params: { path: { inviteId: invite.id } } })),
    onSuccess: () => refresh(memberKeys.all),
  });
  return (
    <li className="row">
      <div className="row-main">
        <p className="row-title">{invite.email}</p>
        <p className="muted">
          {ROLE_LABEL[invite.role]} · invited by {invite.invitedBy.name} · expires {timeText(invite.expiresAt, zone)}
        </p>
        <ErrorNote error={withdraw.error} />
      </div>
      {canManage && (
        <Button tone="ghost" busy={withdraw.isPending} onClick={() => withdraw.mutate()}>
          Withdraw<span className="sr-only"> the invitation of {invite.email}</span>
        </Button>
      )}
    </li>
  );
}

export function MembersPage() {
  const { workspace } = useSignedIn();
  const list = useMembers();
  if (list.isPending) return <Loading label="Loading the members" />;
  if (list.isError) return <ErrorNote error={list.error} />;
  const { members, invites, seats, you } = list.data;
  const canManage = atLeast(you.role, 'administrator');
  return (
    <div className="stack">
      <section className="card" aria-labelledby="members-title">
        <div className="card-head">
          <h2 id="members-title">Members</h2>
          <p className="muted">
            {seats.used} of {seats.limit} seats taken (members and pending invitations)
          </p>
        </div>
        <ul className="rows">
          {members.map((m) => (
            <MemberRow key={m.userId} member={m} you={you} zone={workspace.tz} />
          ))}
        </ul>
      </section>
      {invites.length > 0 && (
        <section className="card" aria-labelledby="invites-title">
          <h2 id="invites-title">Pending invitations</h2>
          <ul className="rows">
            {invites.map((i) => (
              <InviteRow key={i.id} invite={i} canManage={canManage} zone={workspace.tz} />
            ))}
          </ul>
        </section>
      )}
      {canManage ? <InviteForm /> : <AdminsOnly what="invite people and change roles" />}
    </div>
  );
}
