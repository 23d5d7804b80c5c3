/**
 * The signed-in person: GET /auth/sessions/current, kept in the query cache under SESSION_KEY,
 * and the sign-in, TOTP and sign-out calls that change it. Whoever holds the session also holds
 * the CSRF token the client sends on writes (client.ts).
 */
import { queryOptions } from '@tanstack/react-query';
import type { components } from './schema.ts';
import { api, call, setCsrfToken } from './client.ts';
import { isOpsQueryKey, queryClient } from './query-client.ts';
import { keys } from './query-keys.ts';

export type User = components['schemas']['User'];
export type CurrentSession = components['schemas']['CurrentSession'];
export type SignInBody = { email: string; password: string; totp?: string };

export const SESSION_KEY = keys.session;

export const sessionQuery = queryOptions({
  queryKey: SESSION_KEY,
  queryFn: async () => {
    const session = await call(api.GET('/auth/sessions/current'));
    setCsrfToken(session.csrfToken);
    return session;
  },
  staleTime: 60_000,
});

/** Signs in (email, password and, once enrolled, the code); the answer becomes the current session. */
export async function signIn(body: SignInBody): Promise<CurrentSession> {
  const session = await call(api.POST('/auth/sessions', { body }));
  setCsrfToken(session.csrfToken);
  const current: CurrentSession = { user: session.user, csrfToken: session.csrfToken, totpEnrolmentRequired: session.totpEnrolmentRequired, permissions: session.permissions };
  queryClient.setQueryData(SESSION_KEY, current);
  return current;
}

export async function signOut(): Promise<void> {
  try {
    await call(api.DELETE('/auth/sessions/current'));
  } finally {
    setCsrfToken(null);
    // The merchant side's cache only: an operator's back-office session in the same browser stays.
    queryClient.removeQueries({ predicate: (query) => !isOpsQueryKey(query.queryKey) });
  }
}

export const startTotpEnrolment = () => call(api.POST('/users/me/totp'));

export async function confirmTotp(code: string): Promise<void> {
  await call(api.POST('/users/me/totp/confirm', { body: { code } }));
  // Read again now: the guards trust the cached session, which still says enrolment is required.
  await queryClient.fetchQuery({ ...sessionQuery, staleTime: 0 });
}
