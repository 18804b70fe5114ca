// An account's posting times (the posting queue): its weekly times in the workspace zone, edited and saved as a whole
// (a saved change is confirmed), and the next free ones that "add to queue" would give. The heading names the
// account, and leads back to compose or the accounts page.
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api, call, type Schemas } from '../api.ts';
import { dayTimeText } from '../format.ts';
import { useRefresh } from '../queries/refresh.ts';
import { scheduleKeys, useSchedule } from '../queries/schedule.ts';
import { useMay, useSignedIn } from '../session.tsx';
import { AdminsOnly, Button, Empty, ErrorNote, Loading } from '../ui.tsx';
import { ACCOUNT_PAGE_WORDS, DAY_LABEL, SCHEDULE_WORDS as W } from '../words/scheduleWords.ts';
import { useAccounts } from '../queries/accounts.ts';
import { AccountPageHeader, useBackState } from './AccountPageHeader.tsx';

const { saved: SAVED, unknown: UNKNOWN } = ACCOUNT_PAGE_WORDS;

type Slot = Schemas['ScheduleSlot'];
const DAYS = Object.keys(DAY_LABEL) as Slot['day'][];

export function SchedulePage() {
  const accountId = useParams().accountId ?? '';
  const { workspace } = useSignedIn();
  const admin = useMay('administrator');
  const refresh = useRefresh();
  const schedule = useSchedule(accountId);
  const [slots, setSlots] = useState<Slot[]>();
  const [day, setDay] = useState<Slot['day']>('mon');
  const [time, setTime] = useState('09:00');
  const [saved, setSaved] = useState(false);
  const accounts = useAccounts();
  const account = accounts.data?.find((a) => a.id === accountId);
  const back = useBackState();
  const shown = slots ?? schedule.data?.slots ?? [];
  const change = (next: Slot[]) => {
    setSlots(next);
    setSaved(false);
  };
  const save = useMutation({
    mutationFn: () =>
      call(api.PUT('/accounts/{accountId}/schedule', { params: { path: { accountId } }, body: { slots: shown } })),
    onSuccess: () => {
      setSlots(undefined);
      setSaved(true);
      return refresh(scheduleKeys.of(accountId));
    },
  });
  if (schedule.isPending || accounts.isPending) return <Loading />;
  return (
    <section className="stack">
      <AccountPageHeader account={account} title={W.title}>
        <Link className="btn btn-secondary" to={`/accounts/${accountId}/queue`} state={back}>
          {W.queue}
        </Link>
      </AccountPageHeader>
      <ErrorNote error={schedule.error ?? accounts.error ?? save.error} />
      {saved && (
        <p className="note note-ok" role="status">
          {SAVED(account?.displayName ?? UNKNOWN, shown.length)}
        </p>
      )}
      <p className="muted">{W.intro(workspace.tz)}</p>
      {shown.length === 0 ? (
        <Empty title={W.empty} />
      ) : (
        <ul className="approvals stack">
          {shown.map((slot) => (
            <li key={`${slot.day}${slot.time}`} className="row">
              <span>{W.slot(DAY_LABEL[slot.day], slot.time)}</span>
              {admin && (
                <Button tone="ghost" onClick={() => change(shown.filter((s) => s !== slot))}>
                  {W.remove(DAY_LABEL[slot.day], slot.time)}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {admin ? (
        <div className="row">
          <div className="field">
            <label htmlFor="slot-day">{W.day}</label>
            <select id="slot-day" value={day} onChange={(e) => setDay(e.target.value as Slot['day'])}>
              {DAYS.map((d) => (
                <option key={d} value={d}>
                  {DAY_LABEL[d]}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="slot-time">{W.time}</label>
            <input id="slot-time" type="time" value={time} onChange={(e) => setTime(e.target.value)} />
          </div>
          <Button onClick={() => time && change([...shown, { day, time }])}>{W.add}</Button>
          <Button tone="primary" busy={save.isPending} disabled={slots === undefined} onClick={() => save.mutate()}>
            {W.save}
          </Button>
        </div>
      ) : (
        <AdminsOnly what="set posting times" />
      )}
      <h2>{W.next}</h2>
      {schedule.data?.next.length ? (
        <ul className="approvals">
          {schedule.data.next.map((at) => (
            <li key={at}>{dayTimeText(at, workspace.tz)}</li>
          ))}
        </ul>
      ) : (
        <p className="muted">{W.noNext}</p>
      )}
    </section>
  );
}
