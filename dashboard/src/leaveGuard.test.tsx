// @vitest-environment happy-dom
// A form with changes asks before a link leaves it: staying keeps what was typed, leaving goes; a page the form
// names as keeping its changes, and a form without changes, are left without a question.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { Link, MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { useLeaveGuard } from './leaveGuard.tsx';

afterEach(cleanup);

function Form() {
  const [text, setText] = useState('');
  const dialog = useLeaveGuard(text !== '', undefined, (path) => path === '/keeps');
  return (
    <>
      <label>
        Name
        <input value={text} onChange={(e) => setText(e.target.value)} />
      </label>
      <Link to="/elsewhere">Elsewhere</Link>
      <Link to="/keeps">Keeps</Link>
      {dialog}
    </>
  );
}

/** Where the router is, shown on every page. */
function Where() {
  return <p>At {useLocation().pathname}</p>;
}

function open() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <Where />
        <Routes>
          <Route path="/" element={<Form />} />
          <Route path="/elsewhere" element={<p>Elsewhere page</p>} />
          <Route path="/keeps" element={<p>Keeping page</p>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('leaving a form with changes', () => {
  it('asks; staying keeps the text, leaving goes', async () => {
    open();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Acme' } });
    fireEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    await screen.findByRole('alertdialog', { name: 'Leave without saving?' });
    fireEvent.click(screen.getByRole('button', { name: 'Stay here' }));
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Acme');
    screen.getByText('At /');
    fireEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Leave and lose it' }));
    await screen.findByText('Elsewhere page');
  });

  it('gives focus back to the link that was held when the person stays', async () => {
    open();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Acme' } });
    const link = screen.getByRole('link', { name: 'Elsewhere' });
    link.focus();
    fireEvent.click(link);
    fireEvent.click(await screen.findByRole('button', { name: 'Stay here' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(link));
  });

  it('goes without asking to a page that keeps the changes, or when nothing was typed', async () => {
    open();
    fireEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    await screen.findByText('Elsewhere page');
    cleanup();
    open();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Acme' } });
    fireEvent.click(screen.getByRole('link', { name: 'Keeps' }));
    await screen.findByText('Keeping page');
  });
});
