/**
 * Route guards: the signed-in pages need a session (a 401 leads to sign-in) whose TOTP is
 * enrolled when the role requires it (else the enrolment page).
 */
import { redirect } from '@tanstack/react-router';
import { isUnauthorized } from './errors.ts';
import { queryClient } from './query-client.ts';
import { sessionQuery } from './session.ts';

async function currentSession() {
  try {
    return await queryClient.ensureQueryData(sessionQuery);
  } catch (error) {
    if (isUnauthorized(error)) throw redirect({ to: '/sign-in' });
    throw error;
  }
}

export async function requireSession(): Promise<void> {
  const session = await currentSession();
  if (session.totpEnrolmentRequired) throw redirect({ to: '/sign-in/totp' });
}

export async function requireEnrolment(): Promise<void> {
  const session = await currentSession();
  if (!session.totpEnrolmentRequired) throw redirect({ to: '/' });
}
