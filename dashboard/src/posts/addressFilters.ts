// Filters kept in the address (the posts list's and the calendar's) outlive a workspace switch, and a link from
// another workspace is followed: a group or account id of the workspace left names nothing here and would filter
// every post of this one out ("0 of N posts match"), with its select showing "All".
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';

/**
 * Whether a filter's value names something in this workspace: `undefined` while the list it is checked against is
 * still loading (the value is kept until then).
 */
export type NamesHere<F extends string> = (filter: F, value: string) => boolean | undefined;

/**
 * The address's values of `filters`, each '' when absent or when it names nothing in this workspace; those are also
 * removed from the address (the other parameters stay), once their lists have loaded.
 */
export function useAddressFilters<F extends string>(filters: readonly F[], namesHere: NamesHere<F>): Record<F, string> {
  const [params, setParams] = useSearchParams();
  const stale = filters.filter((f) => params.get(f) && namesHere(f, params.get(f)!) === false);
  const staleKey = stale.join();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the stale filters are compared by name (staleKey).
  useEffect(() => {
    if (!staleKey) return;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const f of staleKey.split(',')) next.delete(f);
        return next;
      },
      { replace: true },
    );
  }, [staleKey]);
  return Object.fromEntries(filters.map((f) => [f, stale.includes(f) ? '' : (params.get(f) ?? '')])) as Record<
    F,
    string
  >;
}
