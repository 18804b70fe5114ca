// @vitest-environment happy-dom
// Network settings speak the form's words: YouTube's category by name, not by id.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { NetworkSettings } from './NetworkSettings.tsx';

afterEach(cleanup);

describe('network settings', () => {
  it('offers YouTube categories by name, People & Blogs by default', () => {
    render(<NetworkSettings platforms={['youtube']} value={{}} onChange={() => {}} />);
    const category = screen.getByRole('combobox', { name: 'Category' }) as HTMLSelectElement;
    expect(category.selectedOptions[0]?.textContent).toBe('People & Blogs');
    expect(screen.getByRole('option', { name: 'Music' })).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/Category id/);
  });
});
