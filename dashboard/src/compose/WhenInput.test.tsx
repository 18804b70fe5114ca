// @vitest-environment happy-dom
// The time input: a labelled choice of now, draft or a date and time, with the workspace zone shown.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WhenInput } from './WhenInput.tsx';

afterEach(cleanup);

describe('time input', () => {
  it('shows the zone with the date and time, and reports each change', () => {
    const onChange = vi.fn();
    render(
      <WhenInput value={{ mode: 'at', date: '2026-11-24', time: '14:30' }} zone="Europe/Berlin" onChange={onChange} />,
    );
    expect(screen.getByText('Europe/Berlin')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Time'), { target: { value: '09:05' } });
    expect(onChange).toHaveBeenLastCalledWith({ mode: 'at', date: '2026-11-24', time: '09:05' });
    fireEvent.click(screen.getByLabelText('Now'));
    expect(onChange).toHaveBeenLastCalledWith({ mode: 'now', date: '2026-11-24', time: '14:30' });
  });

  it('hides the date and time for a draft and shows a problem as an alert', () => {
    render(
      <WhenInput
        value={{ mode: 'draft', date: '', time: '' }}
        zone="UTC"
        problem="Pick a date."
        onChange={() => undefined}
      />,
    );
    expect(screen.queryByLabelText('Date')).toBeNull();
    expect(screen.getByRole('alert').textContent).toBe('Pick a date.');
  });
});
