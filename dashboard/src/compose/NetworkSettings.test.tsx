// @vitest-environment happy-dom
// Network settings speak the form's words: YouTube's category by name, not by id; TikTok's audience in words,
// with none chosen for the person, switches sent only when on, and TikTok's declaration.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { mediaKeys } from '../queries/media.ts';
import { NetworkSettings, TiktokDeclaration, type Settings } from './NetworkSettings.tsx';
import type { TiktokAllowed } from './tiktokCreators.tsx';

/** No TikTok account answered yet: every level is offered and no switch is locked. */
const none: TiktokAllowed = {
  creators: [],
  switchedOff: { disableComment: false, disableDuet: false, disableStitch: false },
};

afterEach(cleanup);

describe('network settings', () => {
  it('offers YouTube categories by name, People & Blogs by default', () => {
    render(<NetworkSettings platforms={['youtube']} value={{}} onChange={() => {}} tiktok={none} />);
    const category = screen.getByRole('combobox', { name: 'Category' }) as HTMLSelectElement;
    expect(category.selectedOptions[0]?.textContent).toBe('People & Blogs');
    expect(screen.getByRole('option', { name: 'Music' })).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/Category id/);
  });

  it('asks who can see a TikTok post without choosing for the person, and sends switches only when on', () => {
    const changes: Settings[] = [];
    const { rerender } = render(
      <NetworkSettings platforms={['tiktok']} value={{}} onChange={(v) => changes.push(v)} tiktok={none} />,
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
    rerender(
      <NetworkSettings
        platforms={['tiktok']}
        value={changes.at(-1)!}
        onChange={(v) => changes.push(v)}
        tiktok={none}
      />,
    );
    fireEvent.click(screen.getByRole('checkbox', { name: 'Turn off comments' }));
    expect(changes.at(-1)).toEqual({ tiktok: { disableComment: '' } });
  });

  it("shows the creator, offers only the account's audiences, and keeps off what the account turned off", () => {
    const account = { id: 'acc_1', platform: 'tiktok' as const, displayName: 'acme', status: 'ok' as const };
    const allowed: TiktokAllowed = {
      creators: [
        {
          account,
          options: {
            accountId: 'acc_1',
            platform: 'tiktok',
            nickname: 'Acme Studio',
            avatarUrl: 'https://example.com/a.jpg',
            privacyLevels: ['FOLLOWER_OF_CREATOR', 'SELF_ONLY'],
            commentDisabled: true,
            duetDisabled: false,
            stitchDisabled: false,
            maxVideoSeconds: 600,
          },
        },
      ],
      levels: ['FOLLOWER_OF_CREATOR', 'SELF_ONLY'],
      switchedOff: { disableComment: true, disableDuet: false, disableStitch: false },
      maxVideoSeconds: 600,
    };
    render(<NetworkSettings platforms={['tiktok']} value={{}} onChange={() => {}} tiktok={allowed} />);
    expect(screen.getByText('Acme Studio')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Acme Studio’s TikTok avatar' }).getAttribute('src')).toBe(
      'https://example.com/a.jpg',
    );
    const audience = screen.getByRole('combobox', { name: 'Who can see it' }) as HTMLSelectElement;
    expect([...audience.options].map((o) => o.textContent)).toEqual(['Choose who can see it', 'Followers', 'Only me']);
    const comments = screen.getByRole('checkbox', { name: /Turn off comments/ }) as HTMLInputElement;
    expect([comments.checked, comments.disabled]).toEqual([true, true]);
    expect(screen.getByText('Comments are off on this TikTok account, so they stay off.')).toBeTruthy();
    expect((screen.getByRole('checkbox', { name: /Turn off duets/ }) as HTMLInputElement).disabled).toBe(false);
    expect(screen.getByText('Videos up to 10 minutes.')).toBeTruthy();
  });

  it('says, until TikTok reviews the app, whether the account is private and how many of the 5 places remain', () => {
    const account = { id: 'acc_1', platform: 'tiktok' as const, displayName: 'acme', status: 'ok' as const };
    const options = (unauditedApp: { accountPrivate: boolean; usersLeft: number; postedToday: boolean }) => ({
      accountId: 'acc_1',
      platform: 'tiktok' as const,
      nickname: 'Acme Studio',
      avatarUrl: null,
      privacyLevels: ['SELF_ONLY' as const],
      commentDisabled: false,
      duetDisabled: false,
      stitchDisabled: false,
      maxVideoSeconds: 600,
      unauditedApp,
    });
    const allowed = (o: ReturnType<typeof options>): TiktokAllowed => ({
      creators: [{ account, options: o }],
      levels: ['SELF_ONLY'],
      switchedOff: { disableComment: false, disableDuet: false, disableStitch: false },
    });
    const view = (standing: Parameters<typeof options>[0]) => (
      <NetworkSettings platforms={['tiktok']} value={{}} onChange={() => {}} tiktok={allowed(options(standing))} />
    );
    const { rerender } = render(view({ accountPrivate: false, usersLeft: 3, postedToday: false }));
    expect(
      screen.getByText(
        'Acme Studio is public on TikTok: set it to private first, as TikTok requires until it has reviewed this ' +
          'Herald’s app. 3 of the 5 accounts a day TikTok allows can still post.',
      ),
    ).toBeTruthy();
    rerender(view({ accountPrivate: true, usersLeft: 0, postedToday: true }));
    expect(
      screen.getByText(
        'Acme Studio is private on TikTok, as TikTok requires until it has reviewed this Herald’s app. It posted ' +
          'today, so it keeps its place among the 5 accounts a day TikTok allows.',
      ),
    ).toBeTruthy();
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

  it('gives each Bluesky file its alt text, which moves with its file when the files change', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
    for (const [id, filename] of [
      ['med_a', 'coat.jpg'],
      ['med_b', 'scarf.jpg'],
    ] as const)
      client.setQueryData(mediaKeys.one(id), { id, filename });
    const changes: Settings[] = [];
    const view = (mediaIds: string[], value: Settings) => (
      <QueryClientProvider client={client}>
        <NetworkSettings
          platforms={['bluesky']}
          value={value}
          onChange={(v) => changes.push(v)}
          tiktok={none}
          mediaIds={mediaIds}
        />
      </QueryClientProvider>
    );
    const { rerender } = render(view(['med_a', 'med_b'], {}));
    fireEvent.change(await screen.findByLabelText('Alt text of scarf.jpg'), { target: { value: 'A blue scarf.' } });
    expect(changes.at(-1)).toEqual({ bluesky: { altTexts: ['', 'A blue scarf.'] } });
    rerender(view(['med_b', 'med_a'], changes.at(-1)!));
    expect(changes.at(-1)).toEqual({ bluesky: { altTexts: ['A blue scarf.', ''] } });
    rerender(view(['med_a'], changes.at(-1)!));
    expect(changes.at(-1)).toEqual({ bluesky: { altTexts: '' } });
  });
});
