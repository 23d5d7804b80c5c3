/**
 * Links by email (docs/architecture/people-and-sessions.md#links-by-email): the public routes a
 * link leads to, and the signed-in routes that change a password or send an invitation.
 */
import type { FastifyContextConfig, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AUTHENTICATED_ERRORS, BODY_ERRORS, IdParams, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { merchantIdOf } from '../../http/auth.ts';
import { AppError } from '../../errors.ts';
import type { UsersService } from './service.ts';
import { InvitationBody, InvitationSchema, PasswordBody, PasswordChangeBody, PasswordResetRequestBody, TokenParams, UserSchema } from './schemas.ts';

const tags = ['People'];

/** The public link routes: rate-limited per client address like sign-in. */
export function registerLinkRoutes(app: App, users: UsersService, options: { rateLimitPerMinute: number }): void {
  const config: FastifyContextConfig = options.rateLimitPerMinute > 0 ? { rateLimit: { max: options.rateLimitPerMinute, timeWindow: 60_000 } } : {};

  app.post(
    '/auth/password-resets',
    {
      config,
      schema: {
        tags,
        summary: 'Ask for a password-reset link by email',
        description:
          'Always 202, at once, whatever the email: whether it belongs to someone is never told. For a user, an email follows with a link valid 30 minutes, once; at most one per account per minute.',
        security: [],
        body: PasswordResetRequestBody,
        response: { 202: Type.Null({ description: 'Accepted; an email follows when the address is a user’s' }), ...errorResponses(...BODY_ERRORS, 429) },
      },
    },
    async (request, reply) => {
      // After the answer, so its timing is the same for every email; a failure is the operator's, in the log.
      void users.links.requestReset(request.body.email).catch((err: unknown) => request.log.error({ errorCode: (err as { code?: string }).code, reason: (err as Error).message }, 'password reset email not sent'));
      return reply.code(202).send(null);
    },
  );

  app.post(
    '/auth/password-resets/:token',
    {
      config,
      schema: {
        tags,
        summary: 'Set a new password with the token of a reset link',
        description: 'Spends the link (and every other reset link of the person) and ends all their sessions. An unknown, used or expired token is 410 LINK_INVALID.',
        security: [],
        params: TokenParams,
        body: PasswordBody,
        response: { 204: Type.Null({ description: 'Password set; sign in with it' }), ...errorResponses(...BODY_ERRORS, 410, 429) },
      },
    },
    async (request, reply) => {
      await users.links.completeReset(request.params.token, request.body.password);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/auth/invitations/:token',
    {
      config,
      schema: {
        tags,
        summary: 'Accept an invitation: choose a password and become a user of the merchant',
        description: 'Creates the user with the invited email and role; then sign in. An unknown, used or expired token is 410 LINK_INVALID; an email that became a user meanwhile is 409 CONFLICT.',
        security: [],
        params: TokenParams,
        body: PasswordBody,
        response: { 201: UserSchema, ...errorResponses(...BODY_ERRORS, 409, 410, 429) },
      },
    },
    async (request, reply) => reply.code(201).send(await users.links.acceptInvitation(request.params.token, request.body.password)),
  );
}

function personOf(request: FastifyRequest) {
  const auth = request.merchantAuth;
  if (auth?.method !== 'session' || !auth.user) throw new AppError('FORBIDDEN', 'This route needs a signed-in person (a session cookie), not an API key', { reason: 'SESSION_REQUIRED' });
  return { merchantId: auth.merchantId, userId: auth.user.id, role: auth.user.role, sessionId: auth.credentialId, requestId: request.id };
}

/** Signed-in routes (merchant scope: session cookie and CSRF). */
export function registerSignedInLinkRoutes(app: App, users: UsersService): void {
  const idempotency = { idempotent: true, idempotencyKeySpace: 'person' } as const;

  app.post(
    '/users/me/password',
    {
      config: idempotency,
      schema: {
        tags,
        summary: "Change the signed-in person's password",
        description: 'Ends every other session of the person (this one stays). A wrong currentPassword is 400 VALIDATION_ERROR.',
        body: PasswordChangeBody,
        response: { 204: Type.Null({ description: 'Changed' }), ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS) },
      },
    },
    async (request, reply) => {
      await users.links.changePassword(personOf(request), request.body.currentPassword, request.body.newPassword);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/users/invitations',
    {
      config: idempotency,
      schema: {
        tags,
        summary: 'Invite a person by email (OWNER or ADMIN)',
        description:
          'Emails a link valid 72 hours, once, that creates the user with this role; listed by GET /users/invitations until accepted, withdrawn or expired. Audited as `user.invite`. An ADMIN cannot invite an OWNER (403). An email already a user is 409 CONFLICT. A mail server that fails is 503 PROVIDER_UNAVAILABLE: ask again (the unsent link expires unused).',
        body: InvitationBody,
        response: { 202: InvitationSchema, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 409, 503) },
      },
    },
    async (request, reply) => reply.code(202).send(await users.invite(personOf(request), request.body)),
  );

  app.get(
    '/users/invitations',
    {
      schema: {
        tags,
        summary: 'Pending invitations, newest first (OWNER or ADMIN)',
        description: 'Invitations neither accepted, withdrawn nor expired. Needs `users.manage`; another role is 403.',
        response: { 200: Type.Array(InvitationSchema, { description: 'The pending invitations' }), ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => users.pendingInvitations(personOf(request)),
  );

  app.delete(
    '/users/invitations/:id',
    {
      config: idempotency,
      schema: {
        tags,
        summary: 'Withdraw an invitation: its link then answers 410 LINK_INVALID',
        description:
          'Needs `users.manage`; an ADMIN cannot withdraw an invitation to be OWNER (403). Withdrawing a withdrawn invitation answers 204 again; an accepted one is 409 CONFLICT (remove the user instead); another merchant\'s is 404. Audited as `user.withdraw_invitation`.',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Withdrawn' }), ...errorResponses(...AUTHENTICATED_ERRORS, 404, 409) },
      },
    },
    async (request, reply) => {
      await users.assertInvitation(merchantIdOf(request), request.params.id);
      await users.withdrawInvitation(personOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
