// @vitest-environment happy-dom
// On the sign-in form a 401 is the form's answer, a wrong email or password, not a session that ended; and both
// pages say whether new accounts are open or by invitation (SIGNUP), as GET /auth/sign-up tells.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SignIn, SignUp } from './SignIn.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderAt(path: string, page: ReactElement) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={[path]}>{page}</MemoryRouter>
    </QueryClientProvider>,
  );
}

/** The server as the pages meet it before anyone signs in: sign-up open or not. */
function signUpIs(open: boolean) {
  vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ open, firstUser: false }), { status: 200 }));
}

describe('who may sign up', () => {
  it('offers to create an account while sign-up is open', async () => {
    signUpIs(true);
    renderAt('/sign-in', <SignIn />);
    expect((await screen.findByRole('link', { name: 'Create an account' })).getAttribute('href')).toBe('/sign-up');
  });

  it("sends newcomers to their workspace's owner when sign-up is by invitation", async () => {
    signUpIs(false);
    renderAt('/sign-in', <SignIn />);
    await screen.findByText(/Ask your workspace's owner for an invitation\./);
    expect(screen.queryByRole('link', { name: 'Create an account' })).toBeNull();
  });

  it('shows no sign-up form that the server would refuse', async () => {
    signUpIs(false);
    renderAt('/sign-up', <SignUp />);
    await screen.findByRole('heading', { name: 'New accounts are by invitation' });
    expect(screen.queryByRole('button', { name: 'Create account' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Sign in' })).toBeTruthy();
  });
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
