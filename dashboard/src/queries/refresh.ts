// After a change: the queries it made stale, named by this folder's key factories. Those on screen refetch at once,
// the others when next shown; nothing else is asked again.
import { type QueryClient, type QueryKey, useQueryClient } from '@tanstack/react-query';

export function refresh(client: QueryClient, ...keys: QueryKey[]): Promise<unknown> {
  return Promise.all(keys.map((queryKey) => client.invalidateQueries({ queryKey })));
}

export function useRefresh(): (...keys: QueryKey[]) => Promise<unknown> {
  const client = useQueryClient();
  return (...keys) => refresh(client, ...keys);
}
