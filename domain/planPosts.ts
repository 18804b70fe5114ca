// Planning: one row per target account with every finding, and the text table shown to a person.
// Pure: the handler loads accounts and media, this decides.
import type { Issue } from './issues.ts';
import { formatInZone, type ResolvedWhen } from './when.ts';
import { networkOf, filesNamedBySettings } from '../networks/index.ts';
import { checkReady, type MediaFacts, type Platform } from '../networks/rules.ts';
import { checkSettingsShape } from '../networks/settingsCheck.ts';

export interface TargetAccount {
  id: string;
  platform: Platform;
  displayName: string;
  status: 'ok' | 'expired' | 'revoked';
}

export interface PostBody {
  text: string;
  title?: string;
  tags?: string[];
  perPlatform?: Partial<Record<Platform, Record<string, unknown>>>;
  overrides?: Partial<Record<Platform, { text?: string; title?: string; tags?: string[] }>>;
}

export interface PlannedRow {
  accountId: string;
  platform: Platform;
  publishAt: string | null;
  ok: boolean;
  issues: Issue[];
  /** What this account's post would carry: overrides applied, its own perPlatform entry with the network's defaults. */
  content: { text: string; title: string | null; tags: string[]; perPlatform: Record<string, unknown> };
  /** Settings the post left out that the network's defaults (or the media) decide, shown in the table. */
  defaulted: string[];
}

/** Codes that inform but do not stop a row. */
const NOTES = new Set(['time_ambiguous']);

function mediaIssues(media: MediaFacts[]): Issue[] {
  return media.flatMap((m, i) => {
    const notReady = checkReady(m, `mediaIds[${i}] (${m.id})`);
    return notReady ? [{ ...notReady, field: `mediaIds[${i}]` }] : [];
  });
}

function accountIssues(account: TargetAccount): Issue[] {
  if (account.status === 'ok') return [];
  return [
    {
      code: 'account_not_ok',
      message: `Account ${account.displayName} (${account.id}) is ${account.status}; it cannot publish.`,
      hint: 'A person must reconnect the account in the dashboard.',
      actual: account.status,
    },
  ];
}

export const queueEmpty = (account: TargetAccount): Issue => ({
  code: 'queue_empty',
  message:
    `when is "queue", and account ${account.displayName} (${account.id}) has no free posting time ` + 'within a year.',
  hint: "Set the account's posting times, or give a time.",
});

/** Ids that perPlatform settings give as files (NetworkRules.fileSettings): the handler loads them for planRows. */
export function settingFileIds(body: PostBody): string[] {
  return Object.entries(body.perPlatform ?? {}).flatMap(([platform, settings]) =>
    filesNamedBySettings(platform as Platform, settings),
  );
}

interface PlanInput {
  accounts: TargetAccount[];
  media: MediaFacts[];
  files: MediaFacts[];
  body: PostBody;
  when: ResolvedWhen;
}

/** What a network finds in the body (its settings, content and checks): the same for each of its accounts. */
function networkFindings(platform: Platform, { body, media, files }: PlanInput) {
  const override = body.overrides?.[platform] ?? {};
  const network = networkOf(platform);
  const given = body.perPlatform?.[platform] ?? {};
  // Settings of the wrong shape are row issues, and the network's check sees only the others.
  const shape = checkSettingsShape(platform, given);
  const defaults = network.defaults?.({ media, settings: shape.valid }) ?? {};
  const defaulted = Object.keys(defaults).filter((name) => shape.valid[name] === undefined);
  const settings = { ...defaults, ...shape.valid };
  const content = {
    text: override.text ?? body.text,
    title: override.title ?? body.title ?? null,
    tags: override.tags ?? body.tags ?? [],
    perPlatform: { ...defaults, ...given },
  };
  const settingFiles = Object.fromEntries(
    (network.fileSettings ?? []).map((name) => [name, files.find((f) => f.id === settings[name])]),
  );
  const issues = [
    ...shape.issues,
    ...network.check({ text: content.text, title: content.title, tags: content.tags, media, settings, settingFiles }),
  ];
  return { content, defaulted, issues };
}

/** `files`: the workspace's files among settingFileIds(body); an id it lacks is reported by the network's check. */
export function planRows(input: PlanInput): PlannedRow[] {
  const { when, media } = input;
  const sharedAt = when.kind === 'draft' || when.kind === 'queue' ? null : when.at.toUTC().toISO()!;
  const timeFindings = when.kind === 'at' ? [...when.issues, ...when.notes] : [];
  const shared = [...timeFindings, ...mediaIssues(media)];
  // Each network checks the body once, however many of its accounts the plan names: a megabyte of text checked
  // again for each of 50 accounts held the server for over a second.
  const byNetwork = new Map<Platform, ReturnType<typeof networkFindings>>();
  return input.accounts.map((account) => {
    const found = byNetwork.get(account.platform) ?? networkFindings(account.platform, input);
    byNetwork.set(account.platform, found);
    const queued = when.kind === 'queue' ? when.at.get(account.id) : undefined;
    const publishAt = queued ? queued.toUTC().toISO()! : sharedAt;
    const queueIssues = when.kind === 'queue' && !queued ? [queueEmpty(account)] : [];
    const issues = [...accountIssues(account), ...queueIssues, ...shared, ...found.issues];
    const ok = issues.every((i) => NOTES.has(i.code));
    const { content, defaulted } = found;
    return { accountId: account.id, platform: account.platform, publishAt, ok, issues, content, defaulted };
  });
}

/** `; by default visibility public, category 22 (People & Blogs)`: the settings the network decides for this row. */
function defaultsText(row: PlannedRow): string {
  if (!row.defaulted.length) return '';
  const network = networkOf(row.platform);
  const value = (name: string) => {
    const setting = row.content.perPlatform[name];
    return network.describe?.(name, setting) ?? String(setting);
  };
  return `; by default ${row.defaulted.map((name) => `${name} ${value(name)}`).join(', ')}`;
}

function pad(cells: string[][]): string {
  const widths = cells[0]!.map((_, col) => Math.max(...cells.map((row) => row[col]!.length)));
  return cells
    .map((row) => row.map((cell, col) => (col === row.length - 1 ? cell : cell.padEnd(widths[col]!))).join('  '))
    .join('\n');
}

/** The table a person reads before confirming: account, network, time in the workspace zone, check. */
export function planTable(
  rows: PlannedRow[],
  accounts: TargetAccount[],
  when: ResolvedWhen,
  zone: string,
  quota: { used: number; limit: number; requested: number },
): string {
  // Every row of one request shares its time: format it once (luxon formatting is not cheap).
  const shown = when.kind === 'draft' || when.kind === 'queue' ? undefined : formatInZone(when.at, zone);
  const time = (row: PlannedRow) => {
    if (when.kind === 'queue')
      return row.publishAt ? `queue: ${formatInZone(Date.parse(row.publishAt), zone)}` : 'queue (no free time)';
    return when.kind === 'draft' ? 'draft (no time)' : when.kind === 'now' ? `now (${shown})` : shown!;
  };
  const check = (row: PlannedRow) => {
    const failing = row.issues.filter((i) => !NOTES.has(i.code));
    if (failing.length) return failing.map((i) => `${i.code}: ${i.message}`).join('; ');
    const notes = row.issues.filter((i) => NOTES.has(i.code)).map((i) => i.code);
    return `ok${notes.length ? ` (${notes.join(', ')})` : ''}${defaultsText(row)}`;
  };
  const byId = new Map(accounts.map((a) => [a.id, a]));
  const lines = pad([
    ['account', 'network', 'time', 'check'],
    ...rows.map((row) => [byId.get(row.accountId)!.displayName, networkOf(row.platform).label, time(row), check(row)]),
  ]);
  const month = quota.requested ? `; this request adds ${quota.requested}` : '';
  return `${lines}\nPosts this month: ${quota.used} of ${quota.limit} used${month}.`;
}
