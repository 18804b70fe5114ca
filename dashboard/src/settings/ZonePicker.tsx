// The time zone picker: a combobox (downshift's, the ARIA 1.2 pattern: the list is in the page, so screen readers
// read each option and arrow keys move through it) over the browser's ~400 zones, filtered as one types a city,
// region or offset. A native <input list> was not enough: Chromium matches datalist options only by the start of
// their words, cannot show the offset beside each name, and its popup is outside the page for screen readers.
import { useCombobox } from 'downshift';
import { useId, useMemo, useState } from 'react';
import { matchZones, offsetWords, zoneChoices, zoneName, type ZoneChoice } from '../words/zoneWords.ts';

export function ZonePicker({
  label,
  hint,
  value,
  onChange,
}: {
  label: string;
  hint: string;
  value: string;
  onChange: (zone: string) => void;
}) {
  const inputId = useId();
  const hintId = `${inputId}-hint`;
  const choices = useMemo(() => zoneChoices(value), [value]);
  // What the person typed; empty while the field shows the chosen zone, so opening the list shows every zone.
  const [query, setQuery] = useState('');
  const items = useMemo(() => matchZones(choices, query), [choices, query]);
  const selected = choices.find((c) => c.zone === value) ?? null;
  const { isOpen, getLabelProps, getInputProps, getMenuProps, getItemProps, getToggleButtonProps, highlightedIndex } =
    useCombobox<ZoneChoice>({
      items,
      inputId,
      selectedItem: selected,
      itemToString: (c) => (c ? c.name : ''),
      itemToKey: (c) => c?.zone,
      onInputValueChange: ({ type, inputValue }) =>
        setQuery(type === useCombobox.stateChangeTypes.InputChange ? inputValue : ''),
      onSelectedItemChange: ({ selectedItem }) => selectedItem && onChange(selectedItem.zone),
    });
  return (
    <div className="field zone-picker">
      <label {...getLabelProps()} htmlFor={inputId}>
        {label}
      </label>
      <div className="zone-input">
        <input {...getInputProps({ 'aria-describedby': hintId, spellCheck: false })} />
        <button type="button" className="btn btn-ghost" {...getToggleButtonProps()} aria-label="Show every time zone">
          <span aria-hidden="true">▾</span>
        </button>
      </div>
      <ul {...getMenuProps()} className={isOpen ? 'zone-list open' : 'zone-list'}>
        {isOpen &&
          items.map((c, index) => (
            <li
              key={c.zone}
              className={highlightedIndex === index ? 'highlighted' : undefined}
              {...getItemProps({ item: c, index })}
            >
              <span>{c.name}</span> <span className="muted">{c.offset}</span>
            </li>
          ))}
      </ul>
      <p role="status" className="muted">
        {isOpen && items.length === 0
          ? `No time zone matches “${query}”. Try a city, a region or an offset like +5:30.`
          : ''}
      </p>
      <p className="field-hint" id={hintId}>
        {zoneName(value)} is now {offsetWords(value)}. {hint}
      </p>
    </div>
  );
}
