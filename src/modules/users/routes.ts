/**
 * People and sessions on the merchant API (docs/architecture/people-and-sessions.md). Sign-in is
 * public; everything else is in the merchant scope, where a session cookie authenticates like an
 * API key, and the routes under /users/me need a session (a person, not a key).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AuthFailureLimiter } from '../../http/auth-failures.ts';
import { merchantIdOf } from '../../http/auth.ts';
import { secureCookies, sessionCookie } from '../../http/cookies.ts';
import { AUTHENTICATED_ERRORS, BODY_ERRORS, IdParams, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { AppError, notFound } from '../../errors.ts';
import { signInWithCookie } from './sign-in-answer.ts';
import type { Actor, UsersService } from './service.ts';
import { ROLE_PERMISSIONS } from './roles.ts';
import { CurrentSessionAnswer, SessionAnswer, SessionSummarySchema, SignInBody, TotpConfirmBody, TotpEnrolmentSchema, UpdateUserBody, UserSchema } from './schemas.ts';

const tags = ['People'];
/** Keys of these routes belong to the person (src/http/idempotency.ts): no one else of the merchant replays their answers. */
const PERSONAL_IDEMPOTENCY = { idempotent: true, idempotencyKeySpace: 'person' } as const;

/** The signed-in person behind this request; 403 for an API key or bearer token. */
function actorOf(request: FastifyRequest): Actor {
  const auth = request.merchantAuth;
  if (auth?.method !== 'session' || !auth.user) throw new AppError('FORBIDDEN', 'This route needs a signed-in person (a session cookie), not an API key', { reason: 'SESSION_REQUIRED' });
  return { merchantId: auth.merchantId, userId: auth.user.id, role: auth.user.role, requestId: request.id };
}

/** The acting person, after the target user is found in the caller's merchant (another merchant's id is 404 for everyone). */
async function actorFor(request: FastifyRequest, users: UsersService, targetId: string): Promise<Actor> {
  if (!(await users.get(merchantIdOf(request), targetId))) throw notFound('User');
  return actorOf(request);
}

export function registerSignInRoute(app: App, users: UsersService, options: { nodeEnv: string; failures: AuthFailureLimiter; rateLimitPerMinute: number }): void {
  const secure = secureCookies(options.nodeEnv);
  app.post(
    '/auth/sessions',
    {
      config: options.rateLimitPerMinute > 0 ? { rateLimit: { max: options.rateLimitPerMinute, timeWindow: 60_000 } } : {},
      onRequest: async (request, reply) => options.failures.refuseWhileBlocked(request.ip, reply),
      schema: {
        tags,
        summary: 'Sign in: email, password and (once enrolled) a TOTP code for a session cookie',
        description:
          'Sets the `sid` cookie (HttpOnly, SameSite=Strict, Path=/, Secure outside NODE_ENV development and test) and answers the `csrfToken` every cookie-authenticated write must send as `X-CSRF-Token`. Every failure is the same 401 UNAUTHORIZED with the same body, whatever was wrong: an unknown email, a wrong password, a missing, wrong or already used TOTP code (so the answer never tells whether an account exists or its password was right; send `totp` always, it is ignored for an account without TOTP). A TOTP code signs in once: that code, and any of an earlier time step, are refused afterwards. After 5 failures for one email from one client address (an IPv6 address counted by its /64), that pair waits 30 s, doubling at each further failure up to 15 minutes: 429 RATE_LIMITED with Retry-After, the same for an email that exists and one that does not; another address is not affected. Failures count per client address too, like every authentication.',
        security: [],
        body: SignInBody,
        response: { 201: SessionAnswer, ...errorResponses(...BODY_ERRORS, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const signedIn = await signInWithCookie(request, reply, { failures: options.failures, secure }, (ip, userAgent) => users.sessions.signIn({ ...request.body, ip, userAgent }));
      return reply.code(201).send({ user: signedIn.user, csrfToken: signedIn.csrfToken, expiresAt: signedIn.expiresAt, totpEnrolmentRequired: signedIn.totpEnrolmentRequired, permissions: [...ROLE_PERMISSIONS[signedIn.user.role]] });
    },
  );
}

export function registerSessionRoutes(app: App, users: UsersService, options: { nodeEnv: string }): void {
  const secure = secureCookies(options.nodeEnv);
  const clear = (reply: FastifyReply) => reply.header('set-cookie', sessionCookie('', { secure, maxAgeSeconds: 0 }));

  app.get(
    '/auth/sessions/current',
    {
      schema: {
        tags,
        summary: 'The signed-in person, their permissions and the CSRF token of this session',
        response: { 200: CurrentSessionAnswer, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const user = await users.get(actor.merchantId, actor.userId);
      if (!user) throw new AppError('UNAUTHORIZED', 'Session expired or revoked');
      reply.header('cache-control', 'no-store');
      return { user, csrfToken: users.sessions.csrfTokenOf(request.headers.cookie), totpEnrolmentRequired: users.totpRequired(user), permissions: [...ROLE_PERMISSIONS[user.role]] };
    },
  );

  app.delete(
    '/auth/sessions/current',
    {
      config: PERSONAL_IDEMPOTENCY,
      schema: { tags, summary: 'Sign out: revoke this session and clear its cookie', response: { 204: Type.Null({ description: 'Signed out; the cookie is cleared' }), ...errorResponses(...AUTHENTICATED_ERRORS) } },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      await users.sessions.revoke(actor.userId, request.merchantAuth!.credentialId);
      clear(reply);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/users/me/sessions',
    {
      schema: { tags, summary: "The signed-in person's live sessions, newest first", response: { 200: Type.Array(SessionSummarySchema, { description: 'The live sessions' }), ...errorResponses(...AUTHENTICATED_ERRORS) } },
    },
    async (request) => {
      const actor = actorOf(request);
      const current = request.merchantAuth!.credentialId;
      return (await users.sessions.list(actor.userId)).map((session) => ({ ...session, current: session.id === current }));
    },
  );

  app.delete(
    '/users/me/sessions/:id',
    {
      config: PERSONAL_IDEMPOTENCY,
      schema: { tags, summary: "Revoke one of the signed-in person's sessions", params: IdParams, response: { 204: Type.Null({ description: 'Revoked' }), ...errorResponses(...AUTHENTICATED_ERRORS, 404) } },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      await users.sessions.revoke(actor.userId, request.params.id);
      if (request.params.id === request.merchantAuth!.credentialId) clear(reply);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/users/me/totp',
    {
      config: PERSONAL_IDEMPOTENCY,
      schema: {
        tags,
        summary: 'Start TOTP enrolment: a new secret, shown this once',
        description: 'Answers the otpauth:// URI (for a QR code) and the base32 secret. TOTP is on once POST /users/me/totp/confirm gets a current code; until then this may be called again (a new secret replaces the old). 409 CONFLICT once TOTP is on.',
        response: { 201: TotpEnrolmentSchema, ...errorResponses(...AUTHENTICATED_ERRORS, 409) },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return reply.code(201).send(await users.enrolTotp(actorOf(request).userId));
    },
  );

  app.post(
    '/users/me/totp/confirm',
    {
      config: PERSONAL_IDEMPOTENCY,
      schema: {
        tags,
        summary: 'Finish TOTP enrolment with a current code',
        description: 'From now on every sign-in needs a code. The confirming code is spent: the next sign-in takes a later one. A wrong code is 400 VALIDATION_ERROR.',
        body: TotpConfirmBody,
        response: { 204: Type.Null({ description: 'TOTP is on' }), ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 409) },
      },
    },
    async (request, reply) => {
      await users.confirmTotp(actorOf(request).userId, request.body.code);
      return reply.code(204).send(null);
    },
  );
}

export function registerUserRoutes(app: App, users: UsersService): void {
  app.get(
    '/users',
    { schema: { tags, summary: "The merchant's users, oldest first", response: { 200: Type.Array(UserSchema, { description: 'The users' }), ...errorResponses(...AUTHENTICATED_ERRORS) } } },
    async (request) => users.list(merchantIdOf(request)),
  );

  app.patch(
    '/users/:id',
    {
      config: PERSONAL_IDEMPOTENCY,
      schema: {
        tags,
        summary: "Change a user's role (OWNER or ADMIN; only an OWNER touches owners)",
        description: "Ends the user's sessions (the new role applies from their next sign-in). The last OWNER cannot be demoted (409).",
        params: IdParams,
        body: UpdateUserBody,
        response: { 200: UserSchema, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 404, 409) },
      },
    },
    async (request) => users.setRole(await actorFor(request, users, request.params.id), request.params.id, request.body.role),
  );

  app.delete(
    '/users/:id',
    {
      config: PERSONAL_IDEMPOTENCY,
      schema: {
        tags,
        summary: 'Remove a user and end their sessions (OWNER or ADMIN; only an OWNER removes owners)',
        description: 'The last OWNER cannot be removed (409).',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Removed' }), ...errorResponses(...AUTHENTICATED_ERRORS, 404, 409) },
      },
    },
    async (request, reply) => {
      await users.remove(await actorFor(request, users, request.params.id), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
