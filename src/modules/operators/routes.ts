/**
 * Operators and their sessions on the back-office API (docs/architecture/back-office.md). Sign-in
 * is public; the rest is in the admin scope (an operator's session or the admin token). The
 * session cookie is `osid`, Path=/api/v1/admin: it reaches no merchant route.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AuthFailureLimiter } from '../../http/auth-failures.ts';
import { secureCookies, sessionCookie } from '../../http/cookies.ts';
import { AUTHENTICATED_ERRORS, BODY_ERRORS, IdParams, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { AppError } from '../../errors.ts';
import { adminActor } from '../audit/actors.ts';
import { signInWithCookie } from '../users/sign-in-answer.ts';
import { SignInBody, TotpConfirmBody, TotpEnrolmentSchema } from '../users/schemas.ts';
import { OPERATOR_ROLE_PERMISSIONS } from './roles.ts';
import { CreateOperatorBody, CreatedOperatorSchema, OperatorSchema, OperatorSessionAnswer, UpdateOperatorBody } from './schemas.ts';
import type { OperatorsService } from './service.ts';
import type { Operator } from './repo.ts';

const tags = ['Admin'];

/** The signed-in operator behind this request; 403 for the admin token. */
function sessionOf(request: FastifyRequest): { operatorId: string; sessionId: string } {
  const auth = request.operatorAuth;
  if (auth?.method !== 'session') throw new AppError('FORBIDDEN', 'This route needs a signed-in operator (a session cookie), not the admin token', { reason: 'SESSION_REQUIRED' });
  return auth;
}

const sessionAnswer = (operator: Operator, csrfToken: string) => ({ operator, csrfToken, totpEnrolmentRequired: !operator.totpEnabled, permissions: [...OPERATOR_ROLE_PERMISSIONS[operator.role]] });

export function registerOperatorSignInRoute(app: App, operators: OperatorsService, options: { nodeEnv: string; failures: AuthFailureLimiter; rateLimitPerMinute: number }): void {
  const secure = secureCookies(options.nodeEnv);
  app.post(
    '/admin/auth/sessions',
    {
      config: options.rateLimitPerMinute > 0 ? { rateLimit: { max: options.rateLimitPerMinute, timeWindow: 60_000 } } : {},
      onRequest: async (request, reply) => options.failures.refuseWhileBlocked(request.ip, reply),
      schema: {
        tags,
        summary: "An operator signs in: email, password and (once enrolled) a TOTP code for the back office's session cookie",
        description:
          'Sets the `osid` cookie (HttpOnly, SameSite=Strict, Path=/api/v1/admin, Secure outside NODE_ENV development and test) and answers the `csrfToken` every cookie-authenticated write must send as `X-CSRF-Token`. The same rules as a merchant user\'s sign-in: one 401 with one body whatever was wrong (unknown email, wrong password, missing, wrong or already used TOTP code), a TOTP code signs in once, back-off per client address and email (429 with Retry-After; another address is not affected), 30 minutes idle and 12 hours absolute. A disabled operator is 403.',
        security: [],
        body: SignInBody,
        response: { 201: OperatorSessionAnswer, ...errorResponses(...BODY_ERRORS, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const signedIn = await signInWithCookie(request, reply, { failures: options.failures, secure, operator: true }, (ip, userAgent) => operators.sessions.signIn({ ...request.body, ip, userAgent }));
      return reply.code(201).send(sessionAnswer(signedIn.user, signedIn.csrfToken));
    },
  );
}

export function registerOperatorRoutes(app: App, operators: OperatorsService, options: { nodeEnv: string }): void {
  const secure = secureCookies(options.nodeEnv);
  const clear = (reply: FastifyReply) => reply.header('set-cookie', sessionCookie('', { secure, maxAgeSeconds: 0, operator: true }));

  app.get(
    '/admin/auth/sessions/current',
    { schema: { tags, summary: 'The signed-in operator, their permissions and the CSRF token of this session', response: { 200: OperatorSessionAnswer, ...errorResponses(...AUTHENTICATED_ERRORS) } } },
    async (request, reply) => {
      const operator = await operators.get(sessionOf(request).operatorId);
      if (!operator) throw new AppError('UNAUTHORIZED', 'Session expired or revoked');
      reply.header('cache-control', 'no-store');
      return sessionAnswer(operator, operators.sessions.csrfTokenOf(request.headers.cookie));
    },
  );

  app.delete(
    '/admin/auth/sessions/current',
    { config: { idempotent: true }, schema: { tags, summary: 'Sign out: revoke this operator session and clear its cookie', response: { 204: Type.Null({ description: 'Signed out; the cookie is cleared' }), ...errorResponses(...AUTHENTICATED_ERRORS) } } },
    async (request, reply) => {
      const { operatorId, sessionId } = sessionOf(request);
      await operators.sessions.revoke(operatorId, sessionId);
      clear(reply);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/admin/operators/me/totp',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Start TOTP enrolment for the signed-in operator',
        description: 'Answers the otpauth:// URI and the base32 secret, this once. TOTP is on once POST /admin/operators/me/totp/confirm gets a current code. 409 CONFLICT once TOTP is on.',
        response: { 201: TotpEnrolmentSchema, ...errorResponses(...AUTHENTICATED_ERRORS, 409) },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return reply.code(201).send(await operators.enrolTotp(sessionOf(request).operatorId));
    },
  );

  app.post(
    '/admin/operators/me/totp/confirm',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Confirm TOTP with a current code: from now on sign-in needs one',
        description: 'The confirming code is spent: the next sign-in takes a later one. A wrong code is 400 VALIDATION_ERROR.',
        body: TotpConfirmBody,
        response: { 204: Type.Null({ description: 'TOTP is on' }), ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 409) },
      },
    },
    async (request, reply) => {
      await operators.confirmTotp(sessionOf(request).operatorId, request.body.code);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/admin/operators',
    { schema: { tags, summary: 'The operators, oldest first', response: { 200: Type.Array(OperatorSchema), ...errorResponses(...AUTHENTICATED_ERRORS) } } },
    async () => operators.list(),
  );

  app.post(
    '/admin/operators',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Create an operator with a generated password, shown this once',
        description: 'The first operator is created with the admin token (bootstrap); then an operator with operators.manage (ADMIN). The new operator signs in with the temporary password and must enrol TOTP before anything else. 409 CONFLICT for an email in use.',
        body: CreateOperatorBody,
        response: { 201: CreatedOperatorSchema, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 409) },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return reply.code(201).send(await operators.create(request.body, adminActor(request)));
    },
  );

  app.patch(
    '/admin/operators/:id',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: "Change an operator's role, or disable or enable them",
        description: 'Their sessions end at once either way. Nobody changes themselves (409 CONFLICT).',
        params: IdParams,
        body: UpdateOperatorBody,
        response: { 200: OperatorSchema, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 404, 409) },
      },
    },
    async (request) => operators.update(request.params.id, request.body, adminActor(request)),
  );
}
