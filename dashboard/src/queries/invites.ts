// What an invitation offers, read by its token before anyone is signed in (GET /auth/invite); a refusal (expired,
// used) is the answer and is not asked again.
import { queryOptions } from '@tanstack/react-query';
import { authApi, call } from '../api.ts';

export const inviteKeys = { offer: (token: string) => ['invite', token] as const };

export const inviteOfferQuery = (token: string) =>
  queryOptions({
    queryKey: inviteKeys.offer(token),
    queryFn: () => call(authApi.GET('/invite', { params: { query: { token } } })),
    retry: false,
  });
