/**
 * The signed-in operator (back office, /app/ops): GET /admin/auth/sessions/current, kept in the
 * query cache under OPERATOR_SESSION_KEY, and the sign-in, TOTP and sign-out calls that change it.
 * Every back-office query key starts with OPS_KEY, so the two sessions' caches are told apart
 * (a 401 of one never empties the other's; main.tsx). The operator's CSRF token goes to the
 * client's 'operator' scope (client.ts), sent on /admin writes only.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { components } from './schema.ts';
import { api, call, setCsrfToken } from './client.ts';
import { queryClient } from './query-client.ts';
import { opsKeys } from './query-keys.ts';

export type Operator = components['schemas']['Operator'];
export type OperatorSession = components['schemas']['OperatorSession'];
export type OperatorPermission = OperatorSession['permissions'][number];
export type OperatorSignInBody = { email: string; password: string; totp?: string };

export const OPERATOR_SESSION_KEY = opsKeys.session;

export const operatorSessionQuery = queryOptions({
  queryKey: OPERATOR_SESSION_KEY,
  queryFn: async () => {
    const session = await call(api.GET('/admin/auth/sessions/current'));
    setCsrfToken(session.csrfToken, 'operator');
    return session;
  },
  staleTime: 60_000,
});

/** Signs in (email, password and, once enrolled, the code); the answer becomes the current session. */
export async function operatorSignIn(body: OperatorSignInBody): Promise<OperatorSession> {
  const session = await call(api.POST('/admin/auth/sessions', { body }));
  setCsrfToken(session.csrfToken, 'operator');
  queryClient.setQueryData(OPERATOR_SESSION_KEY, session);
  return session;
}

/** Ends the operator's session and forgets the back office's cache (the merchant's stays). */
export async function operatorSignOut(): Promise<void> {
  try {
    await call(api.DELETE('/admin/auth/sessions/current'));
  } finally {
    setCsrfToken(null, 'operator');
    queryClient.removeQueries({ queryKey: opsKeys.all });
  }
}

export const startOperatorTotpEnrolment = () => call(api.POST('/admin/operators/me/totp'));

export async function confirmOperatorTotp(code: string): Promise<void> {
  await call(api.POST('/admin/operators/me/totp/confirm', { body: { code } }));
  // Read again now: the guards trust the cached session, which still says enrolment is required.
  await queryClient.fetchQuery({ ...operatorSessionQuery, staleTime: 0 });
}

/**
 * Whether the signed-in operator may: the API's own answer (`permissions` of the session), never a
 * copy of the role table. False while the session loads. The API refuses regardless (403).
 */
export function useOperatorMay(permission: OperatorPermission): boolean {
  const session = useQuery(operatorSessionQuery);
  return session.data?.permissions.includes(permission) ?? false;
}
