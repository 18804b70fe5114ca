// Whether sign-up is open now, and whether nobody has signed up yet (GET /auth/sign-up).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { auth } from '../api.ts';
import type { SignUpState } from '../settings/settingsApi.ts';

export const signUpKeys = { state: ['sign-up'] as const };

export const signUpStateQuery = () =>
  queryOptions({ queryKey: signUpKeys.state, queryFn: () => auth<SignUpState>('GET', '/sign-up') });

export const useSignUpState = () => useQuery(signUpStateQuery());
