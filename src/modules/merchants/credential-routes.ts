/**
 * A merchant's own API keys (issue 28): its people list, create and revoke them without an
 * operator. Creating and revoking need a signed-in person (a session), never an API key or bearer
 * token: every key then has a person behind it, audited as `user:<id>`, and a leaked key cannot
 * mint others or revoke the merchant's good ones. The role table (users/roles.ts) gives
 * `credentials.manage` to OWNER and ADMIN, who must have TOTP enrolled (users/guard.ts).
 */
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { merchantIdOf } from '../../http/auth.ts';
import { AUTHENTICATED_ERRORS, BODY_ERRORS, StrictObject, Uuid, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { AppError } from '../../errors.ts';
import type { AuditActor } from '../../platform/audit/record.ts';
import { CreateCredentialBody, CredentialSchema, IssuedCredentialSchema } from './schemas.ts';
import type { MerchantsService } from './service.ts';
import { can } from '../users/roles.ts';

const tags = ['API keys'];
/** A stored answer holds a secret: only the person who sent the key may have it replayed (src/http/idempotency.ts). */
const PERSONAL_IDEMPOTENCY = { idempotent: true, idempotencyKeySpace: 'person' } as const;

/** The person behind a key change; 403 SESSION_REQUIRED for an API key or bearer token. */
function personOf(request: FastifyRequest): AuditActor {
  const auth = request.merchantAuth;
  if (auth?.method !== 'session' || !auth.user) {
    throw new AppError('FORBIDDEN', 'API keys are created and revoked by a signed-in person (a session cookie), not with an API key', { reason: 'SESSION_REQUIRED' });
  }
  // The guard already refused an OWNER or ADMIN without TOTP; this keeps the rule if a role without that requirement gains the permission.
  if (!auth.user.totpEnabled) throw new AppError('FORBIDDEN', 'Enrol TOTP before managing API keys (POST /api/v1/users/me/totp)', { reason: 'TOTP_ENROLMENT_REQUIRED' });
  return { actor: `user:${auth.user.id}`, requestId: request.id };
}

export function registerCredentialRoutes(app: App, merchants: MerchantsService): void {
  app.get(
    '/credentials',
    {
      schema: {
        tags,
        summary: "The merchant's API keys, revoked ones included (never their secrets)",
        response: { 200: Type.Array(CredentialSchema), ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => merchants.listCredentials(merchantIdOf(request)),
  );

  app.post(
    '/credentials',
    {
      config: PERSONAL_IDEMPOTENCY,
      schema: {
        tags,
        summary: 'Create an API key; its secret is in this response only',
        description:
          'Needs a session of a person with `credentials.manage` (OWNER, ADMIN) and TOTP enrolled; an API key or bearer token is 403 with `details.reason` SESSION_REQUIRED. Optional restrictions: an expiry (`expiresAt`), an IP allow-list (`allowedIps`) and scopes (`scopes`); a key without them has full access from anywhere, for ever. A key never exceeds its creator: scopes (or full access) beyond the person\'s role are 403 with `details.reason` ROLE_NOT_ALLOWED. Bearer tokens from the key carry its restrictions. Audited as `credential.issue` with the person and the key as created (never its secret). An Idempotency-Key replays the answer (with the secret) only to the person who sent it.',
        body: CreateCredentialBody,
        response: { 201: IssuedCredentialSchema, ...errorResponses(...BODY_ERRORS, ...AUTHENTICATED_ERRORS) },
      },
    },
    async (request, reply) => {
      const by = personOf(request);
      const role = request.merchantAuth!.user!.role;
      return reply.code(201).send(await merchants.issueCredential(merchantIdOf(request), by, request.idempotency, request.body, (permission) => can(role, permission)));
    },
  );

  app.delete(
    '/credentials/:credentialId',
    {
      config: PERSONAL_IDEMPOTENCY,
      schema: {
        tags,
        summary: 'Revoke an API key, and every bearer token issued from it, at once',
        description:
          'Same rule as creation (a session, `credentials.manage`, TOTP). Refused at once by this process; other processes within 5 s (their credential cache). Revoking a revoked key answers it unchanged. Audited as `credential.revoke`.',
        params: StrictObject({ credentialId: Uuid() }),
        response: { 200: CredentialSchema, ...errorResponses(...AUTHENTICATED_ERRORS, 404) },
      },
    },
    async (request) => {
      const merchantId = merchantIdOf(request);
      // Another merchant's key is 404 whoever asks, before the session rule.
      await merchants.getCredential(merchantId, request.params.credentialId);
      return merchants.revokeCredential(merchantId, request.params.credentialId, personOf(request));
    },
  );
}
