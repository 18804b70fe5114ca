// Whether a password reset link can still set the password, read by its token before the form is shown
// (GET /auth/password-reset); a refusal (used, expired, altered) is the answer and is not asked again.
import { queryOptions } from '@tanstack/react-query';
import { authApi, call } from '../api.ts';

export const passwordResetKeys = { link: (token: string) => ['password-reset', token] as const };

export const passwordResetLinkQuery = (token: string) =>
  queryOptions({
    queryKey: passwordResetKeys.link(token),
    queryFn: () => call(authApi.GET('/password-reset', { params: { query: { token } } })),
    retry: false,
  });
