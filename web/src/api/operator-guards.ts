/**
 * Route guards of the back office (/app/ops): an operator session (a 401 leads to the back
 * office's sign-in), and TOTP enrolled (every operator needs it: else the enrolment page).
 */
import { redirect } from '@tanstack/react-router';
import { isUnauthorized } from './errors.ts';
import { operatorSessionQuery } from './operator-session.ts';
import { queryClient } from './query-client.ts';

async function currentOperatorSession() {
  try {
    return await queryClient.ensureQueryData(operatorSessionQuery);
  } catch (error) {
    if (isUnauthorized(error)) throw redirect({ to: '/ops/sign-in' });
    throw error;
  }
}

export async function requireOperatorSession(): Promise<void> {
  const session = await currentOperatorSession();
  if (session.totpEnrolmentRequired) throw redirect({ to: '/ops/sign-in/totp' });
}

export async function requireOperatorEnrolment(): Promise<void> {
  const session = await currentOperatorSession();
  if (!session.totpEnrolmentRequired) throw redirect({ to: '/ops' });
}
