// @vitest-environment happy-dom
// The zone picker finds a zone by city, region or offset as one types, by keyboard alone, and says the chosen
// zone's offset in words.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { DateTime } from 'luxon';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { matchZones, offsetWords, zoneChoices } from '../words/zoneWords.ts';
import { ZonePicker } from './ZonePicker.tsx';

afterEach(cleanup);

function Picker() {
  const [zone, setZone] = useState('Europe/Berlin');
  return <ZonePicker label="Time zone" hint="Times read in it." value={zone} onChange={setZone} />;
}

const names = () => screen.queryAllByRole('option').map((o) => o.textContent);

describe('zone picker', () => {
  it('filters by city as one types and picks with the keyboard', () => {
    render(<Picker />);
    const input = screen.getByRole('combobox', { name: 'Time zone' });
    expect((input as HTMLInputElement).value).toBe('Europe/Berlin');
    expect(
      screen.getByText(/Europe\/Berlin is now 1 hour ahead of UTC|Europe\/Berlin is now 2 hours ahead/),
    ).toBeTruthy();
    fireEvent.change(input, { target: { value: 'new york' } });
    expect(names()).toEqual([expect.stringMatching(/^America\/New York UTC−0[45]:00$/)]);
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect((input as HTMLInputElement).value).toBe('America/New York');
    expect(screen.getByText(/America\/New York is now [45] hours behind UTC\. Times read in it\./)).toBeTruthy();
    expect(names()).toEqual([]);
  });

  it('says so when nothing matches', () => {
    render(<Picker />);
    fireEvent.change(screen.getByRole('combobox'), { target: { value: 'atlantis' } });
    expect(screen.getByRole('status').textContent).toBe(
      'No time zone matches “atlantis”. Try a city, a region or an offset like +5:30.',
    );
  });
});

describe('zone words', () => {
  const january = DateTime.fromISO('2026-01-15T12:00:00Z');
  const choices = zoneChoices('Europe/Berlin', january);

  it('lists every zone the browser knows, and keeps a stored zone it lacks', () => {
    expect(choices.length).toBe(Intl.supportedValuesOf('timeZone').length);
    expect(zoneChoices('Mars/Olympus_Mons', january)[0]?.zone).toBe('Mars/Olympus_Mons');
  });

  it('finds zones by region and by offset in its usual spellings', () => {
    const zones = (q: string) => matchZones(choices, q).map((c) => c.zone);
    // Browsers list India's zone as Asia/Calcutta (ICU's name); it is found by the city's name today too.
    const india = matchZones(choices, 'kolkata');
    expect(india.map((c) => c.name)).toEqual([expect.stringMatching(/^Asia\/(Calcutta \(Kolkata\)|Kolkata)$/)]);
    expect(zones('+5:30')).toContain(india[0]!.zone);
    expect(zones('utc+05:30')).toContain(india[0]!.zone);
    expect(zones('asia kolk')).toEqual([india[0]!.zone]);
    expect(zones('UTC−3')).toContain('America/Sao_Paulo');
    expect(zones('australia').every((z) => z.startsWith('Australia/'))).toBe(true);
  });

  it('says the offset in words', () => {
    expect(offsetWords('Asia/Kolkata', january)).toBe('5 hours 30 minutes ahead of UTC');
    expect(offsetWords('America/St_Johns', january)).toBe('3 hours 30 minutes behind UTC');
    expect(offsetWords('Europe/London', january)).toBe('the same time as UTC');
    expect(offsetWords('Europe/Berlin', january)).toBe('1 hour ahead of UTC');
  });
});
