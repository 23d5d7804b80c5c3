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
import { adminActor } from '../../http/audit-actor.ts';
import { signInWithCookie } from '../users/sign-in-answer.ts';
import { PasswordBody, SignInBody, TokenParams, TotpConfirmBody, TotpEnrolmentSchema } from '../users/schemas.ts';
import { OPERATOR_ROLE_PERMISSIONS } from './roles.ts';
import { CreateOperatorBody, OperatorInvitationSchema, OperatorSchema, OperatorSessionAnswer, UpdateOperatorBody } from './schemas.ts';
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

/** The public route an operator's invitation link leads to: rate-limited per address like sign-in. */
export function registerOperatorInvitationRoute(app: App, operators: OperatorsService, options: { rateLimitPerMinute: number }): void {
  app.post(
    '/admin/auth/invitations/:token',
    {
      config: options.rateLimitPerMinute > 0 ? { rateLimit: { max: options.rateLimitPerMinute, timeWindow: 60_000 } } : {},
      schema: {
        tags,
        summary: 'Accept an operator invitation: choose a password and become the invited operator',
        description: 'Creates the operator with the invited email and role; then sign in (POST /admin/auth/sessions) and enrol TOTP. An unknown, used or expired token is 410 LINK_INVALID; an email that became an operator meanwhile is 409 CONFLICT.',
        security: [],
        params: TokenParams,
        body: PasswordBody,
        response: { 201: OperatorSchema, ...errorResponses(...BODY_ERRORS, 409, 410, 429) },
      },
    },
    async (request, reply) => reply.code(201).send(await operators.invitations.accept(request.params.token, request.body.password)),
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
        summary: 'Invite an operator, during the bootstrap only: a single-use link goes to their email',
        description:
          'Nobody sees the new operator\'s password: a link valid 72 hours, once, goes to the email, where the operator chooses it (POST /admin/auth/invitations/{token}), then signs in and enrols TOTP. Only while fewer than two operators have enrolled TOTP (the bootstrap), with the admin token or an operator with operators.manage (ADMIN); after that, creating an operator takes two (propose OPERATOR_CREATE, POST /admin/approvals): 403 FOUR_EYES_REQUIRED for an operator, 403 ADMIN_TOKEN_BOOTSTRAP_OVER for the admin token. 409 CONFLICT for an email in use; 503 when the mail server fails (nothing is created).',
        body: CreateOperatorBody,
        response: { 202: OperatorInvitationSchema, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 409, 503) },
      },
    },
    async (request, reply) => reply.code(202).send(await operators.invite(request.body, adminActor(request))),
  );

  app.patch(
    '/admin/operators/:id',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: "Lower an operator's role or disable them (one ADMIN); raise or enable them during the bootstrap only",
        description:
          'Their sessions end at once either way. Lowering a role (to one whose permissions the current role all has) and disabling stay one ADMIN\'s act: the fast answer to a compromised account. Raising a role and enabling a disabled operator take two once two operators have enrolled TOTP (propose OPERATOR_ROLE_CHANGE or OPERATOR_ENABLE): 403 FOUR_EYES_REQUIRED; the admin token is 403 ADMIN_TOKEN_BOOTSTRAP_OVER then. Nobody changes themselves (409 CONFLICT).',
        params: IdParams,
        body: UpdateOperatorBody,
        response: { 200: OperatorSchema, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 404, 409) },
      },
    },
    async (request) => operators.update(request.params.id, request.body, adminActor(request)),
  );
}
