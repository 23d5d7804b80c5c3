/**
 * What a sign-in route does around the sign-in itself, for merchants' users and operators alike:
 * failures count against the caller's address, a locked account's 429 carries Retry-After, and a
 * success sets the session cookie (the user's `sid` or the operator's `osid`), never cached.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthFailureLimiter } from '../../http/auth-failures.ts';
import { sessionCookie } from '../../http/cookies.ts';
import { AppError } from '../../errors.ts';
import { SESSION_ABSOLUTE_MS, type SignedIn } from './sessions.ts';

export async function signInWithCookie<Person>(
  request: FastifyRequest,
  reply: FastifyReply,
  options: { failures: AuthFailureLimiter; secure: boolean; operator?: boolean },
  signIn: (ip: string, userAgent: string | null) => Promise<SignedIn<Person>>,
): Promise<SignedIn<Person>> {
  const signedIn = await options.failures
    .counting(request.ip, () => signIn(request.ip, request.headers['user-agent']?.slice(0, 500) ?? null))
    .catch((err: unknown) => {
      const seconds = err instanceof AppError && err.code === 'RATE_LIMITED' ? err.details?.retryAfterSeconds : undefined;
      if (seconds !== undefined) reply.header('retry-after', String(seconds));
      throw err;
    });
  reply.header('set-cookie', sessionCookie(signedIn.token, { secure: options.secure, maxAgeSeconds: SESSION_ABSOLUTE_MS / 1000, ...(options.operator ? { operator: true } : {}) }));
  reply.header('cache-control', 'no-store');
  return signedIn;
}
