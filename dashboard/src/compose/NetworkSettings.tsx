// The per-network settings of the networks chosen; each is sent only for that network's accounts.
import { useEffect, useId, useRef } from 'react';
import type { Platform, Schemas } from '../api.ts';
import { YOUTUBE_CATEGORIES } from '../../../networks/youtube/categories.ts';
import { useMediaItems } from '../queries/media.ts';
import { labelOf, networkOf } from '../networks.ts';
import { SETTING_LABELS } from '../words/fieldLabels.ts';
import { ALT_TEXT_WORDS, categoryName, TIKTOK_AUDIENCES, TIKTOK_SWITCHED_OFF } from '../words/settingWords.ts';
import { TiktokCreators, type TiktokAllowed } from './tiktokCreators.tsx';

export type Settings = Schemas['PerPlatform'];

function Select({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string;
  options: [string, string][];
  onChange: (v: string) => void;
}) {
  return (
    <label className="setting">
      {label}
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Reads and writes one setting of one network in the form's value. */
interface SettingIO {
  get: (platform: Platform, name: string) => string;
  set: (platform: Platform, name: string, v: unknown) => void;
}

/** A setting whose values are the network's own list (NetworkRules.choices); `auto` offers leaving it unset. */
function Choice({
  platform,
  name,
  label,
  auto,
  get,
  set,
}: {
  platform: Platform;
  name: string;
  label: string;
  auto?: string;
} & SettingIO) {
  const values = networkOf(platform).choices[name] ?? [];
  const options: [string, string][] = [
    ...(auto ? [['', auto] as [string, string]] : []),
    ...values.map((v): [string, string] => [v, v[0]!.toUpperCase() + v.slice(1)]),
  ];
  return (
    <Select
      label={label}
      value={get(platform, name) || (auto ? '' : values[0]!)}
      options={options}
      onChange={(v) => set(platform, name, v)}
    />
  );
}

function Text({
  label,
  value,
  onChange,
  type = 'text',
  placeholder,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  type?: string;
  placeholder?: string;
}) {
  return (
    <label className="setting">
      {label}
      <input type={type} value={value} placeholder={placeholder} onChange={(e) => onChange(e.target.value)} />
    </label>
  );
}

/** The link a Facebook or Threads post carries (`perPlatform.<network>.link`). */
function LinkSetting({ platform, get, set }: { platform: Platform } & SettingIO) {
  return (
    <Text
      label={SETTING_LABELS.link}
      type="url"
      value={get(platform, 'link')}
      onChange={(v) => set(platform, 'link', v)}
      placeholder="https://"
    />
  );
}

/**
 * A switch that is sent only when on: off leaves the network's default (and the account's own choice).
 * `lockedOn` says why it is on and cannot change: the account turned the interaction off itself.
 */
function Switch({
  platform,
  name,
  lockedOn,
  get,
  set,
}: { platform: Platform; name: keyof typeof SETTING_LABELS; lockedOn?: string } & SettingIO) {
  const reason = useId();
  return (
    <label className="check">
      <input
        type="checkbox"
        checked={Boolean(lockedOn) || get(platform, name) === 'true'}
        disabled={Boolean(lockedOn)}
        aria-describedby={lockedOn ? reason : undefined}
        onChange={(e) => set(platform, name, e.target.checked ? true : '')}
      />{' '}
      {SETTING_LABELS[name]}
      {lockedOn && (
        <span className="field-hint" id={reason}>
          {lockedOn}
        </span>
      )}
    </label>
  );
}

/** The audiences the creators allow, in words; one set elsewhere that they lack stays shown (the plan names it). */
function audienceOptions(levels: string[] | undefined, current: string): [string, string][] {
  const shown = levels ?? Object.keys(TIKTOK_AUDIENCES);
  const offered = current && !shown.includes(current) ? [...shown, current] : shown;
  return [['', 'Choose who can see it'], ...offered.map((l): [string, string] => [l, TIKTOK_AUDIENCES[l] ?? l])];
}

/** TikTok's required choices: the creators, the audience, the interactions, the commercial-content disclosure. */
function TiktokSettings({ allowed, ...io }: SettingIO & { allowed: TiktokAllowed }) {
  const p = 'tiktok';
  const off = allowed.switchedOff;
  return (
    <>
      <TiktokCreators allowed={allowed} />
      <Select
        label={SETTING_LABELS.privacyLevel}
        value={io.get(p, 'privacyLevel')}
        options={audienceOptions(allowed.levels, io.get(p, 'privacyLevel'))}
        onChange={(v) => io.set(p, 'privacyLevel', v)}
      />
      {(['disableComment', 'disableDuet', 'disableStitch'] as const).map((name) => (
        <Switch
          key={name}
          platform={p}
          name={name}
          lockedOn={off[name] ? TIKTOK_SWITCHED_OFF[name] : undefined}
          {...io}
        />
      ))}
      <Switch platform={p} name="autoAddMusic" {...io} />
      <p className="settings-title small">Disclosure</p>
      <Switch platform={p} name="brandOrganic" {...io} />
      <Switch platform={p} name="brandContent" {...io} />
      <Switch platform={p} name="isAigc" {...io} />
    </>
  );
}

/**
 * Bluesky's alt text, one per file in the post's order (`perPlatform.bluesky.altTexts`). The texts stay with their
 * files: removing or reordering files moves each text with its file.
 */
function BlueskyAltTexts({
  mediaIds,
  value,
  onChange,
}: {
  mediaIds: string[];
  value: unknown;
  onChange: (v: unknown) => void;
}) {
  const files = useMediaItems(mediaIds);
  const texts = Array.isArray(value) ? (value as unknown[]).map((t) => (typeof t === 'string' ? t : '')) : [];
  // Each file's text by its id, kept while files move, so a new order rewrites the list from it.
  const byFile = useRef(new Map(mediaIds.map((id, i) => [id, texts[i] ?? ''])));
  const order = mediaIds.join(' ');
  const shownFor = useRef(order);
  // Only a change of the files rewrites the list (onChange is a new function on every render).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the files' order is the one input that matters
  useEffect(() => {
    if (shownFor.current === order) return;
    shownFor.current = order;
    const next = order ? order.split(' ').map((id) => byFile.current.get(id) ?? '') : [];
    onChange(next.some(Boolean) ? next : '');
  }, [order]);
  if (mediaIds.length === 0) return <p className="muted small">{ALT_TEXT_WORDS.noFiles}</p>;
  return (
    <>
      {mediaIds.map((id, i) => (
        <label key={id} className="setting">
          {ALT_TEXT_WORDS.label(files[i]?.filename ?? `${ALT_TEXT_WORDS.file} ${i + 1}`)}
          <textarea
            rows={2}
            maxLength={10000}
            value={byFile.current.get(id) ?? ''}
            onChange={(e) => {
              byFile.current.set(id, e.target.value);
              const next = mediaIds.map((f) => byFile.current.get(f) ?? '');
              onChange(next.some(Boolean) ? next : '');
            }}
          />
        </label>
      ))}
    </>
  );
}

/** What TikTok asks the person to agree to, next to the button that posts. */
export function TiktokDeclaration({ platforms, value }: { platforms: Platform[]; value: Settings }) {
  if (!platforms.includes('tiktok')) return null;
  const branded = value.tiktok?.brandContent === true;
  return (
    <p className="muted small">
      By posting, you agree to TikTok’s Music Usage Confirmation{branded ? ' and Branded Content Policy' : ''}.
    </p>
  );
}

/** YouTube's categories by name; an id set elsewhere (by the API) that the list lacks stays choosable. */
function categoryOptions(current: string): [string, string][] {
  const named = Object.entries(YOUTUBE_CATEGORIES).sort(([, a], [, b]) => a.localeCompare(b));
  return current && !YOUTUBE_CATEGORIES[current] ? [...named, [current, categoryName(current)]] : named;
}

/** Drops empty values, and a network's entry when nothing of it is set. */
export function cleanSettings(settings: Settings, platforms: Platform[]): Settings {
  const out: Record<string, Record<string, unknown>> = {};
  for (const p of platforms) {
    const entry = Object.fromEntries(
      Object.entries((settings as Record<string, Record<string, unknown> | undefined>)[p] ?? {}).filter(
        ([, v]) => v !== '' && v !== undefined,
      ),
    );
    if (Object.keys(entry).length) out[p] = entry;
  }
  return out as Settings;
}

export function NetworkSettings({
  platforms,
  value,
  onChange,
  tiktok,
  mediaIds = [],
}: {
  platforms: Platform[];
  value: Settings;
  onChange: (v: Settings) => void;
  /** What the chosen TikTok accounts allow now. */
  tiktok: TiktokAllowed;
  /** The post's files, in order (Bluesky's alt text is given per file). */
  mediaIds?: string[];
}) {
  const set = (platform: Platform, name: string, v: unknown) =>
    onChange({
      ...value,
      [platform]: { ...((value as Record<string, object | undefined>)[platform] ?? {}), [name]: v },
    });
  const get = (platform: Platform, name: string) =>
    String(((value as Record<string, Record<string, unknown> | undefined>)[platform] ?? {})[name] ?? '');
  const io = { get, set };
  const raw = (platform: Platform, name: string) =>
    ((value as Record<string, Record<string, unknown> | undefined>)[platform] ?? {})[name];
  const shown = platforms.filter((p) =>
    ['instagram', 'facebook', 'threads', 'youtube', 'tiktok', 'bluesky'].includes(p),
  );
  if (shown.length === 0) return null;
  return (
    <fieldset className="network-settings">
      <legend>Network settings</legend>
      {shown.map((p) => (
        <div key={p} className="settings-group">
          <p className="settings-title">{labelOf(p)}</p>
          {p === 'instagram' && (
            <Choice platform={p} name="contentType" label={SETTING_LABELS.contentType} auto="From the media" {...io} />
          )}
          {p === 'facebook' && (
            <>
              <Choice
                platform={p}
                name="contentType"
                label={SETTING_LABELS.contentType}
                auto="From the media"
                {...io}
              />
              <LinkSetting platform={p} {...io} />
            </>
          )}
          {p === 'threads' && (
            <>
              <Text
                label={SETTING_LABELS.topicTag}
                value={get(p, 'topicTag')}
                onChange={(v) => set(p, 'topicTag', v)}
              />
              <LinkSetting platform={p} {...io} />
            </>
          )}
          {p === 'tiktok' && <TiktokSettings allowed={tiktok} {...io} />}
          {p === 'bluesky' && (
            <BlueskyAltTexts mediaIds={mediaIds} value={raw(p, 'altTexts')} onChange={(v) => set(p, 'altTexts', v)} />
          )}
          {p === 'youtube' && (
            <>
              <Choice platform={p} name="visibility" label={SETTING_LABELS.visibility} {...io} />
              <Select
                label={SETTING_LABELS.category}
                value={get(p, 'category') || '22'}
                options={categoryOptions(get(p, 'category'))}
                onChange={(v) => set(p, 'category', v)}
              />
              <label className="check">
                <input
                  type="checkbox"
                  checked={get(p, 'madeForKids') === 'true'}
                  onChange={(e) => set(p, 'madeForKids', e.target.checked)}
                />{' '}
                {SETTING_LABELS.madeForKids}
              </label>
            </>
          )}
        </div>
      ))}
    </fieldset>
  );
}
