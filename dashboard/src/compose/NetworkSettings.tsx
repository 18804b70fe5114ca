// The per-network settings of the networks chosen; each is sent only for that network's accounts.
import type { Platform, Schemas } from '../api.ts';
import { labelOf } from '../networks.ts';

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
}: {
  platforms: Platform[];
  value: Settings;
  onChange: (v: Settings) => void;
}) {
  const set = (platform: Platform, name: string, v: unknown) =>
    onChange({
      ...value,
      [platform]: { ...((value as Record<string, object | undefined>)[platform] ?? {}), [name]: v },
    });
  const get = (platform: Platform, name: string) =>
    String(((value as Record<string, Record<string, unknown> | undefined>)[platform] ?? {})[name] ?? '');
  const shown = platforms.filter((p) => ['instagram', 'facebook', 'threads', 'youtube'].includes(p));
  if (shown.length === 0) return null;
  return (
    <fieldset className="network-settings">
      <legend>Network settings</legend>
      {shown.map((p) => (
        <div key={p} className="settings-group">
          <p className="settings-title">{labelOf(p)}</p>
          {p === 'instagram' && (
            <Select
              label="Post type"
              value={get(p, 'contentType')}
              onChange={(v) => set(p, 'contentType', v)}
              options={[
                ['', 'From the media'],
                ['feed', 'Feed'],
                ['reel', 'Reel'],
                ['story', 'Story'],
                ['carousel', 'Carousel'],
              ]}
            />
          )}
          {p === 'facebook' && (
            <>
              <Select
                label="Post type"
                value={get(p, 'contentType')}
                onChange={(v) => set(p, 'contentType', v)}
                options={[
                  ['', 'From the media'],
                  ['text', 'Text'],
                  ['link', 'Link'],
                  ['photo', 'Photo'],
                  ['video', 'Video'],
                  ['reel', 'Reel'],
                  ['story', 'Story'],
                ]}
              />
              <Text
                label="Link"
                type="url"
                value={get(p, 'link')}
                onChange={(v) => set(p, 'link', v)}
                placeholder="https://"
              />
            </>
          )}
          {p === 'threads' && (
            <>
              <Text label="Topic tag" value={get(p, 'topicTag')} onChange={(v) => set(p, 'topicTag', v)} />
              <Text
                label="Link"
                type="url"
                value={get(p, 'link')}
                onChange={(v) => set(p, 'link', v)}
                placeholder="https://"
              />
            </>
          )}
          {p === 'youtube' && (
            <>
              <Select
                label="Visibility"
                value={get(p, 'visibility') || 'public'}
                onChange={(v) => set(p, 'visibility', v)}
                options={[
                  ['public', 'Public'],
                  ['unlisted', 'Unlisted'],
                  ['private', 'Private'],
                ]}
              />
              <Text label="Category id" value={get(p, 'category') || '22'} onChange={(v) => set(p, 'category', v)} />
              <label className="check">
                <input
                  type="checkbox"
                  checked={get(p, 'madeForKids') === 'true'}
                  onChange={(e) => set(p, 'madeForKids', e.target.checked)}
                />{' '}
                Made for kids
              </label>
            </>
          )}
        </div>
      ))}
    </fieldset>
  );
}
