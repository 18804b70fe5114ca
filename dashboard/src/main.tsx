import { QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { Failure } from './api.ts';
import { App } from './App.tsx';
import { forgetEndedSession } from './session.tsx';
import './styles.css';

const client: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError: (err) => forgetEndedSession(client, err) }),
  defaultOptions: {
    queries: {
      // Changes arrive by the event stream (liveUpdates.ts), which marks what changed stale: no refetch on focus
      // (a tab coming back refetches once, there), and other data kept a little longer before a page refetches it.
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // A refusal (4xx) will not change on a retry; a network fault might.
      retry: (count, err) => count < 2 && !(err instanceof Failure && err.status >= 400 && err.status < 500),
    },
  },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={client}>
      <BrowserRouter basename="/app">
        <App />
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
