// Whether sign-up is open now, and whether nobody has signed up yet (GET /auth/sign-up).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { authApi, call } from '../api.ts';

export const signUpKeys = { state: ['sign-up'] as const };

export const signUpStateQuery = () =>
  queryOptions({ queryKey: signUpKeys.state, queryFn: () => call(authApi.GET('/sign-up')) });

export const useSignUpState = () => useQuery(signUpStateQuery());
