// Test support: a page rendered for a signed-in owner at an address, its routes inside a router, and the address the
// page leaves shown in an output labelled "Address".
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Routes, useLocation } from 'react-router';
import { SESSION_KEY } from '../session.tsx';

interface Workspace {
  id: string;
  name: string;
  tz: string;
  approvalRequiredFor: string[];
}

/** An owner's session in `workspace` (Acme, Berlin's time, no approvals, unless given). */
export const ownerSession = (workspace: Partial<Workspace> = {}) => ({
  user: { id: 'usr_1', name: 'Ola', email: 'ola@example.com' },
  workspace: { id: 'ws_1', name: 'Acme', tz: 'Europe/Berlin', approvalRequiredFor: [], ...workspace },
  role: 'owner',
  csrfToken: 'csrf',
});

function Address() {
  const location = useLocation();
  return <output aria-label="Address">{location.pathname + location.search}</output>;
}

/** Renders `routes` at `at` for an owner signed in to `workspace`; answers the query client. */
export function renderSignedIn(routes: ReactNode, at: string, workspace?: Partial<Workspace>): QueryClient {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(SESSION_KEY, ownerSession(workspace));
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[at]}>
        <Routes>{routes}</Routes>
        <Address />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return client;
}
