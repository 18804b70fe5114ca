// @vitest-environment happy-dom
// On the sign-in form a 401 is the form's answer, a wrong email or password, not a session that ended.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SignIn } from './SignIn.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('sign in', () => {
  it('says the email or password is wrong, and offers no "sign in again"', async () => {
    const refusal = { code: 'unauthenticated', message: 'The email or password is wrong.', hint: 'Check both.' };
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify(refusal), { status: 401 }));
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={['/sign-in']}>
          <SignIn />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'mara@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'not her password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The email or password is wrong.');
    expect(alert.textContent).not.toMatch(/session ended|Sign in again/);
  });
});
