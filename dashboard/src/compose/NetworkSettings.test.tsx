// @vitest-environment happy-dom
// Network settings speak the form's words: YouTube's category by name, not by id; TikTok's audience in words,
// with none chosen for the person, switches sent only when on, and TikTok's declaration.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { NetworkSettings, TiktokDeclaration, type Settings } from './NetworkSettings.tsx';

afterEach(cleanup);

describe('network settings', () => {
  it('offers YouTube categories by name, People & Blogs by default', () => {
    render(<NetworkSettings platforms={['youtube']} value={{}} onChange={() => {}} />);
    const category = screen.getByRole('combobox', { name: 'Category' }) as HTMLSelectElement;
    expect(category.selectedOptions[0]?.textContent).toBe('People & Blogs');
    expect(screen.getByRole('option', { name: 'Music' })).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/Category id/);
  });

  it('asks who can see a TikTok post without choosing for the person, and sends switches only when on', () => {
    const changes: Settings[] = [];
    const { rerender } = render(
      <NetworkSettings platforms={['tiktok']} value={{}} onChange={(v) => changes.push(v)} />,
    );
    const audience = screen.getByRole('combobox', { name: 'Who can see it' }) as HTMLSelectElement;
    expect(audience.selectedOptions[0]?.textContent).toBe('Choose who can see it');
    expect([...audience.options].map((o) => o.textContent)).toEqual([
      'Choose who can see it',
      'Everyone',
      'Friends (followers you follow back)',
      'Followers',
      'Only me',
    ]);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Turn off comments' }));
    expect(changes.at(-1)).toEqual({ tiktok: { disableComment: true } });
    rerender(<NetworkSettings platforms={['tiktok']} value={changes.at(-1)!} onChange={(v) => changes.push(v)} />);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Turn off comments' }));
    expect(changes.at(-1)).toEqual({ tiktok: { disableComment: '' } });
  });

  it("shows TikTok's declaration, with the Branded Content Policy for a paid partnership", () => {
    const { rerender } = render(<TiktokDeclaration platforms={['tiktok']} value={{}} />);
    expect(document.body.textContent).toBe('By posting, you agree to TikTok’s Music Usage Confirmation.');
    rerender(
      <TiktokDeclaration
        platforms={['tiktok']}
        value={{ tiktok: { privacyLevel: 'SELF_ONLY', brandContent: true } }}
      />,
    );
    expect(document.body.textContent).toBe(
      'By posting, you agree to TikTok’s Music Usage Confirmation and Branded Content Policy.',
    );
    rerender(<TiktokDeclaration platforms={['youtube']} value={{}} />);
    expect(document.body.textContent).toBe('');
  });
});
