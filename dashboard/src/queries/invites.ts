// What an invitation offers, read by its token before anyone is signed in (GET /auth/invite); a refusal (expired,
// used) is the answer and is not asked again.
import { queryOptions } from '@tanstack/react-query';
import { auth } from '../api.ts';
import type { InviteOffer } from '../settings/settingsApi.ts';

export const inviteKeys = { offer: (token: string) => ['invite', token] as const };

export const inviteOfferQuery = (token: string) =>
  queryOptions({
    queryKey: inviteKeys.offer(token),
    queryFn: () => auth<InviteOffer>('GET', `/invite?token=${encodeURIComponent(token)}`),
    retry: false,
  });
