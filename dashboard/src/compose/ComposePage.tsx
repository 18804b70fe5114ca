// Compose: accounts (or a group), media, text with per-network overrides and live counters, title and
// tags, network settings, and when. The plan is checked as you type; the create button is the confirm
// step and says what will happen. Afterwards each post's state is shown in words. `?edit=<post>` opens a post
// to change it (saved through the edit operation), `?from=<post>` fills a new post from one. What is typed is kept
// in the tab (composeDraft.ts) until it is saved or discarded, and leaving asks, except for compose's own link to
// an account's posting times: Back from there finds the form whole.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useReducer, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { needsApproval } from '../../../domain/approvals.ts';
import { type Account, api, call, type Post, type Schemas } from '../api.ts';
import { dayTimeText } from '../format.ts';
import { labelOf } from '../networks.ts';
import { NetworkMark } from '../NetworkMark.tsx';
import { useAccounts } from '../queries/accounts.ts';
import { useGroups } from '../queries/groups.ts';
import { planQuery } from '../queries/plan.ts';
import { postKeys, postQuery } from '../queries/posts.ts';
import { useRefresh } from '../queries/refresh.ts';
import { NetworkPreview, PREVIEWED, type PreviewPost } from '../previews/NetworkPreview.tsx';
import { useSignedIn } from '../session.tsx';
import { Button, Confirm, Empty, ErrorNote, Loading, PageHeader } from '../ui.tsx';
import { ComposeResults } from './ComposeResults.tsx';
import { useLeaveGuard } from '../leaveGuard.tsx';
import { COMPOSE_LEAVE_WORDS, DRAFT_WORDS } from '../words/draftWords.ts';
import {
  changedSince,
  type DraftSubject,
  differs,
  forgetDraft,
  keepDraft,
  type KeptDraft,
  readDraft,
  restoredForm,
} from './composeDraft.ts';
import { MediaPicker } from './MediaPicker.tsx';
import { cleanSettings, NetworkSettings, TiktokDeclaration } from './NetworkSettings.tsx';
import { type ComposeChange, type ComposeForm, composeReducer, emptyForm } from './composeForm.ts';
import { editBody, editModes, editPlan, formFromPost, schedulesDraft } from './fromPost.ts';
import { blockedByIssues, confirmLabel } from './plan.ts';
import { PlanTable } from './PlanTable.tsx';
import { ASK_WORDS } from '../words/approvalWords.ts';
import { PREVIEW_WORDS } from '../words/previewWords.ts';
import { ACCOUNT_STATUS_WORDS } from '../words/statusWords.ts';
import { TextCounters } from './TextCounters.tsx';
import { useTiktokAllowed } from './tiktokCreators.tsx';
import { WhenInput } from './WhenInput.tsx';
import { whenOf, whenWords } from './when.ts';

type Created = Schemas['CreatePostsResponse']['posts'];

/**
 * The value, once it has stopped changing for `ms`. An equal value (a form's object, built again on each
 * render) keeps the one held, so settling does not render again and again.
 */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(
      () => setSettled((held) => (JSON.stringify(held) === JSON.stringify(value) ? held : value)),
      ms,
    );
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}

/** Compose's own link to an account's posting times keeps the draft: Back brings the form whole. */
const keepsDraft = (path: string) => /\/accounts\/[^/]+\/schedule$/.test(path);

/**
 * Each visit is a new form: "Compose another" (a new visit of /compose) keeps no account, text, file or setting of
 * the last post.
 */
export function ComposePage() {
  return <Compose key={useLocation().key} />;
}

/** What compose waits for: the accounts, and the post to edit or duplicate when there is one. */
function Compose() {
  const { user, workspace } = useSignedIn();
  const zone = workspace.tz;
  const accounts = useAccounts();
  const [params] = useSearchParams();
  const sourceId = params.get('edit') ?? params.get('from');
  const purpose = params.has('edit') ? 'edit' : 'duplicate';
  const subject: DraftSubject = sourceId
    ? { userId: user.id, workspaceId: workspace.id, purpose, postId: sourceId }
    : { userId: user.id, workspaceId: workspace.id, purpose: 'new' };
  const source = useQuery({ ...postQuery(sourceId ?? ''), enabled: Boolean(sourceId) });
  const editing = purpose === 'edit' ? source.data : undefined;
  const heading = editing ? 'Edit post' : sourceId ? 'Duplicate post' : 'Compose';
  if (accounts.isPending || (sourceId && source.isPending))
    return (
      <>
        <PageHeader title={heading} />
        <Loading />
      </>
    );
  if (accounts.isError || source.isError)
    return (
      <>
        <PageHeader title={heading} />
        <ErrorNote error={accounts.error ?? source.error} />
      </>
    );
  if (accounts.data.length === 0) {
    return (
      <>
        <PageHeader title={heading} />
        <Empty title="Connect an account first">
          Posts go to connected accounts. <Link to="/accounts">Connect one</Link> in a few clicks.
        </Empty>
      </>
    );
  }
  return (
    <ComposeEditor
      heading={heading}
      accounts={accounts.data}
      editing={editing}
      subject={subject}
      // Read once, when the editor opens: the post refetched later (an event) leaves what is being typed alone.
      opened={source.data ? formFromPost(source.data, zone, purpose) : emptyForm(zone)}
      kept={readDraft(sessionStorage, subject)}
    />
  );
}

function ComposeEditor({
  heading,
  accounts,
  editing,
  subject: subjectNow,
  opened: openedNow,
  kept,
}: {
  heading: string;
  accounts: Account[];
  /** The post being edited, as the server has it now. */
  editing: Post | undefined;
  subject: DraftSubject;
  /** The form as it opens with nothing typed: empty, or filled from the post. */
  opened: ComposeForm;
  /** What was typed here before and not saved, kept in the tab. */
  kept: KeptDraft | undefined;
}) {
  const session = useSignedIn();
  const { workspace } = session;
  const zone = workspace.tz;
  const groups = useGroups();
  const refresh = useRefresh();
  const ids = useId();
  // Held from the first render: the form compose opened with, and for an edit the post's version it was filled from.
  const [opened] = useState(openedNow);
  const [subject] = useState(subjectNow);
  // The post's version the form holds: the one it was filled from, then the one the person's own save made.
  const [base, setBase] = useState(kept ? kept.base : editing?.updatedAt);
  const [form, change] = useReducer(composeReducer, undefined, () =>
    restoredForm(
      kept,
      opened,
      accounts.map((a) => a.id),
    ),
  );
  const set = (values: Extract<ComposeChange, { type: 'set' }>['values']) => change({ type: 'set', values });
  const { accountIds, mediaIds, text, title, tags, overrides, settings, when } = form;
  const [created, setCreated] = useState<Created>();
  // The post an edit saved: the page moves to it once the form no longer holds changes to ask about.
  const [saved, setSaved] = useState<string>();
  const navigate = useNavigate();
  const location = useLocation();
  const dirty = !created && !saved && differs(form, opened);
  const leaveDialog = useLeaveGuard(dirty, COMPOSE_LEAVE_WORDS, keepsDraft);
  useEffect(() => {
    if (!created && !saved) keepDraft(sessionStorage, subject, { form, ...(base ? { base } : {}) }, opened);
  }, [form, created, saved, subject, base, opened]);
  useEffect(() => {
    if (saved) navigate(`/posts/${saved}`);
  }, [saved, navigate]);
  /** Drops what was typed: the form opens again as it was (a new visit of this address). */
  const discard = () => {
    forgetDraft(sessionStorage, subject);
    navigate(location.pathname + location.search, { replace: true });
  };

  const chosen = accounts.filter((a) => accountIds.includes(a.id));
  const platforms = [...new Set(chosen.map((a) => a.platform))];
  const tiktok = useTiktokAllowed(chosen.filter((a) => a.platform === 'tiktok'));
  const timing = whenOf(when, zone);
  const tagList = tags
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  const request: Schemas['PlanRequest'] | undefined =
    // Nothing to check before there is something to post: no early wall of red.
    accountIds.length && (text.trim() || mediaIds.length) && 'when' in timing
      ? {
          targets: { accountIds },
          mediaIds,
          text,
          when: timing.when,
          ...(platforms.includes('youtube') ? { title } : {}),
          ...(tagList.length ? { tags: tagList } : {}),
          perPlatform: cleanSettings(settings, platforms),
          overrides: Object.fromEntries(
            platforms.filter((p) => overrides[p] !== undefined).map((p) => [p, { text: overrides[p] }]),
          ),
        }
      : undefined;
  const settled = useSettled(request, 350);
  const plan = useQuery(planQuery(settled));
  const previews = useSettled(
    platforms
      .filter((p) => PREVIEWED.includes(p))
      .map(
        (p): PreviewPost => ({
          platform: p,
          accountNames: chosen.filter((a) => a.platform === p).map((a) => a.displayName),
          text: overrides[p] ?? text,
          title,
          mediaIds,
          settings: (cleanSettings(settings, [p]) as Record<string, Record<string, unknown>>)[p] ?? {},
          when: whenWords(when, zone),
        }),
      ),
    200,
  );
  const unpreviewed = platforms.filter((p) => !PREVIEWED.includes(p));
  const stale = JSON.stringify(settled) !== JSON.stringify(request) || plan.isFetching;
  const create = useMutation({
    mutationFn: () => call(api.POST('/posts', { body: { ...request!, confirm: true } })),
    onSuccess: async (out) => {
      forgetDraft(sessionStorage, subject);
      setCreated(out.posts);
      await refresh(postKeys.all);
    },
  });
  const save = useMutation({
    mutationFn: (post: Post) =>
      call(
        api.PATCH('/posts/{postId}', {
          params: { path: { postId: post.id } },
          body: editBody(post, request!, when, form.source?.when ?? when),
        }),
      ),
    onSuccess: async (post) => {
      forgetDraft(sessionStorage, subject);
      // Saved before the posts are refetched: the refetch brings this save's own version, never someone else's.
      setBase(post.updatedAt);
      setSaved(post.id);
      await refresh(postKeys.all);
    },
  });
  // Someone else's change: a newer version than the form holds, except while the person's own save is on its way
  // (the event stream can refetch the post it made before its answer arrives) or once it is saved.
  const changedAt = editing && !save.isPending && !saved && changedSince({ base }, editing.updatedAt);
  // A draft is saved as it is: the plan's problems are warnings until it is given a time.
  const staysDraft = when.mode === 'draft' && (!editing || editing.status === 'draft');
  // An edit of a scheduled post by one whose changes need approval asks: the post stays as it is until approved.
  const asksChange = editing?.status === 'queued' && needsApproval(session, 'dashboard');

  const reset = () => navigate('/compose');

  if (created)
    return (
      <>
        <PageHeader title={heading} />
        <ComposeResults posts={created} onAgain={reset} />
      </>
    );

  return (
    <>
      <PageHeader title={heading}>
        {dirty && (
          <Confirm
            trigger={<Button tone="ghost">{DRAFT_WORDS.discard}</Button>}
            title={DRAFT_WORDS.discardTitle}
            description={DRAFT_WORDS.discardBody(Boolean(editing))}
            action={DRAFT_WORDS.discard}
            tone="danger"
            onConfirm={async () => discard()}
          />
        )}
      </PageHeader>
      {leaveDialog}
      {changedAt && (
        <div className="card warning-text" role="status">
          <p>{DRAFT_WORDS.changedSince(dayTimeText(changedAt, zone))}</p>
          <Button onClick={discard}>{DRAFT_WORDS.startAgain}</Button>
        </div>
      )}
      <div className="compose">
        <form className="card compose-form" onSubmit={(e) => e.preventDefault()}>
          <fieldset>
            <legend>Accounts</legend>
            {!editing && groups.data && groups.data.length > 0 && (
              <label className="setting">
                Use a group
                <select
                  value=""
                  onChange={(e) =>
                    set({ accountIds: groups.data.find((g) => g.id === e.target.value)?.accountIds ?? accountIds })
                  }
                >
                  <option value="">Choose a group…</option>
                  {groups.data.map((g) => (
                    <option key={g.id} value={g.id}>
                      {g.name}
                    </option>
                  ))}
                </select>
              </label>
            )}
            <div className="account-picks">
              {accounts
                .filter((a) => !editing || a.id === editing.accountId)
                .map((a) => (
                  <label key={a.id} className={`account-pick ${accountIds.includes(a.id) ? 'on' : ''}`}>
                    <input
                      type="checkbox"
                      checked={accountIds.includes(a.id)}
                      disabled={Boolean(editing)}
                      onChange={() => change({ type: 'toggleAccount', accountId: a.id })}
                    />
                    <NetworkMark platform={a.platform} decorative />
                    <span>
                      {a.displayName}
                      <span className="muted block small">
                        {labelOf(a.platform)}
                        {a.status !== 'ok' ? ` · ${ACCOUNT_STATUS_WORDS[a.status]}` : ''}
                      </span>
                    </span>
                  </label>
                ))}
            </div>
          </fieldset>

          <MediaPicker value={mediaIds} onChange={(next) => set({ mediaIds: next })} />

          <div className="field">
            <label htmlFor={`${ids}-text`}>Text</label>
            <textarea
              id={`${ids}-text`}
              rows={6}
              value={text}
              onChange={(e) => set({ text: e.target.value })}
              aria-describedby={`${ids}-text-count`}
            />
            <TextCounters
              id={`${ids}-text-count`}
              platforms={platforms.filter((p) => overrides[p] === undefined)}
              field="text"
              text={text}
              title={title}
            />
          </div>
          {platforms.map((p) =>
            overrides[p] === undefined ? (
              <Button
                key={p}
                tone="ghost"
                className="override-toggle"
                onClick={() => change({ type: 'override', platform: p, text })}
              >
                Write a different text for {labelOf(p)}
              </Button>
            ) : (
              <div key={p} className="field override">
                <label htmlFor={`${ids}-text-${p}`}>Text for {labelOf(p)}</label>
                <textarea
                  id={`${ids}-text-${p}`}
                  rows={4}
                  value={overrides[p]}
                  onChange={(e) => change({ type: 'override', platform: p, text: e.target.value })}
                  aria-describedby={`${ids}-count-${p}`}
                />
                <TextCounters
                  id={`${ids}-count-${p}`}
                  platforms={[p]}
                  field="text"
                  text={overrides[p]!}
                  title={title}
                />
                <Button tone="ghost" onClick={() => change({ type: 'dropOverride', platform: p })}>
                  Use the main text for {labelOf(p)}
                </Button>
              </div>
            ),
          )}
          {platforms.includes('youtube') && (
            <div className="field">
              <label htmlFor={`${ids}-title`}>Title</label>
              <input
                id={`${ids}-title`}
                value={title}
                onChange={(e) => set({ title: e.target.value })}
                aria-describedby={`${ids}-title-count`}
              />
              <TextCounters id={`${ids}-title-count`} platforms={['youtube']} field="title" text={text} title={title} />
            </div>
          )}
          <div className="field">
            <label htmlFor={`${ids}-tags`}>Tags</label>
            <input
              id={`${ids}-tags`}
              value={tags}
              onChange={(e) => set({ tags: e.target.value })}
              aria-describedby={`${ids}-tags-hint`}
            />
            <p className="field-hint" id={`${ids}-tags-hint`}>
              Separated by commas.
            </p>
          </div>
          <NetworkSettings
            platforms={platforms}
            value={settings}
            onChange={(next) => set({ settings: next })}
            tiktok={tiktok}
            mediaIds={mediaIds}
          />
          {editing && editModes(editing).length === 0 ? (
            <p className="muted">It keeps its time: after saving, send it again with Retry on its page.</p>
          ) : (
            <WhenInput
              value={when}
              modes={editing ? editModes(editing) : undefined}
              zone={zone}
              problem={'problem' in timing ? timing.problem : undefined}
              onChange={(next) => set({ when: next })}
            />
          )}
        </form>

        <div className="compose-side">
          <section className="card plan-panel" aria-labelledby="plan-h" aria-busy={stale}>
            <h2 id="plan-h">Plan</h2>
            {!request ? (
              <p className="muted">
                {accountIds.length ? 'Write the text or add media' : 'Choose at least one account'}
                {'problem' in timing ? `, and fix the time: ${timing.problem}` : ''}. The plan shows here, checked as
                you type.
              </p>
            ) : plan.isError ? (
              <ErrorNote error={plan.error} />
            ) : !plan.data ? (
              <Loading label="Checking" />
            ) : (
              <>
                <PlanTable
                  plan={editing ? editPlan(plan.data, editing, when.mode) : plan.data}
                  accounts={accounts}
                  zone={zone}
                  queue={!plan.isPlaceholderData && settled?.when === 'queue'}
                />
                <ErrorNote error={editing ? save.error : create.error} />
                {(editing ? save.isError : create.isError) && (
                  <p className="muted small">{DRAFT_WORDS.keptAfterRefusal}</p>
                )}
                <TiktokDeclaration platforms={platforms} value={settings} />
                <Button
                  tone="primary"
                  className="wide"
                  disabled={blockedByIssues(plan.data, staysDraft) || stale}
                  busy={create.isPending || save.isPending}
                  onClick={() => (editing ? save.mutate(editing) : create.mutate())}
                >
                  {asksChange
                    ? ASK_WORDS.editAction
                    : editing && !schedulesDraft(editing, when.mode)
                      ? 'Save changes'
                      : confirmLabel(plan.data, when.mode, zone)}
                </Button>
                {asksChange && editing.publishAt && (
                  <p className="muted small">{ASK_WORDS.stays(dayTimeText(editing.publishAt, zone))}</p>
                )}
                {!plan.data.ok &&
                  (staysDraft ? (
                    <p className="warning-text small">
                      The draft is saved with these problems. Fix them before you schedule it.
                    </p>
                  ) : (
                    <p className="muted small">Fix the issues above to continue; nothing is saved until then.</p>
                  ))}
              </>
            )}
          </section>
          <section className="card previews" aria-labelledby="previews-h">
            <h2 id="previews-h">{PREVIEW_WORDS.heading}</h2>
            {previews.length > 0 ? (
              <>
                <p className="muted small">{PREVIEW_WORDS.intro}</p>
                {previews.map((post) => (
                  <NetworkPreview key={post.platform} post={post} />
                ))}
              </>
            ) : (
              unpreviewed.length === 0 && <p className="muted">{PREVIEW_WORDS.empty}</p>
            )}
            {unpreviewed.length > 0 && <p className="muted small">{PREVIEW_WORDS.none(unpreviewed.map(labelOf))}</p>}
          </section>
        </div>
      </div>
    </>
  );
}
