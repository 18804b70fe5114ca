// The plan of a post being composed (POST /posts/plan): checked as the person types, and again when a file it uses
// becomes ready or fails.
import { queryOptions } from '@tanstack/react-query';
import { api, call, type Schemas } from '../api.ts';

export const planKeys = {
  all: ['plan'] as const,
  of: (request: Schemas['PlanRequest'] | undefined) => ['plan', request] as const,
};

/** The plan of `request`; nothing is asked before there is a request. The last plan shows while the next loads. */
export const planQuery = (request: Schemas['PlanRequest'] | undefined) =>
  queryOptions({
    queryKey: planKeys.of(request),
    queryFn: () => call(api.POST('/posts/plan', { body: request! })),
    enabled: Boolean(request),
    placeholderData: (previous) => previous,
  });
