/**
 * Operator routes under /admin, guarded by the admin token (see http/auth.ts). Every action is
 * audited by the service that performs it.
 */
import { Type } from 'typebox';
import { PageOf, PageQuery } from '../../http/pagination.ts';
import { BODY_ERRORS, HumanName, IdParams, StrictObject, Uuid, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { CreateCredentialBody, CredentialSchema, IssuedCredentialSchema, MerchantSchema } from '../merchants/schemas.ts';
import type { MerchantsService } from '../merchants/service.ts';
import { adminActor } from '../../http/audit-actor.ts';

const ADMIN_ERRORS = [400, 401, 403] as const;
const tags = ['Admin'];

export function registerAdminMerchantRoutes(app: App, merchants: MerchantsService): void {
  app.post(
    '/admin/merchants',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Create a merchant with its first API credential',
        body: StrictObject({ name: HumanName("The merchant's name") }, { title: 'CreateMerchantRequest' }),
        response: {
          201: Type.Object({ merchant: MerchantSchema, credential: IssuedCredentialSchema }, { title: 'MerchantWithCredential' }),
          ...errorResponses(...ADMIN_ERRORS, ...BODY_ERRORS),
        },
      },
    },
    async (request, reply) => reply.code(201).send(await merchants.createMerchant(request.body, adminActor(request), request.idempotency)),
  );

  app.get(
    '/admin/merchants',
    {
      schema: {
        tags,
        summary: 'List merchants, newest first',
        querystring: StrictObject(PageQuery),
        response: { 200: PageOf(MerchantSchema, 'MerchantPage'), ...errorResponses(...ADMIN_ERRORS) },
      },
    },
    async (request) => merchants.listMerchants(request.query),
  );

  app.get(
    '/admin/merchants/:id',
    {
      schema: { tags, summary: 'One merchant', params: IdParams, response: { 200: MerchantSchema, ...errorResponses(...ADMIN_ERRORS, 404) } },
    },
    async (request) => merchants.getMerchant(request.params.id),
  );

  for (const [action, status] of [
    ['disable', 'DISABLED'],
    ['enable', 'ACTIVE'],
  ] as const) {
    app.post(
      `/admin/merchants/:id/${action}`,
      {
        config: { idempotent: true },
        schema: {
          tags,
          summary: action === 'disable' ? 'Disable a merchant: its credentials answer 403 until enabled' : 'Re-enable a disabled merchant',
          params: IdParams,
          response: { 200: MerchantSchema, ...errorResponses(...ADMIN_ERRORS, 404, 409) },
        },
      },
      async (request) => merchants.setMerchantStatus(request.params.id, status, adminActor(request)),
    );
  }

  app.get(
    '/admin/merchants/:id/credentials',
    {
      schema: {
        tags,
        summary: "A merchant's API credentials (never their secrets)",
        params: IdParams,
        response: { 200: Type.Array(CredentialSchema), ...errorResponses(...ADMIN_ERRORS, 404) },
      },
    },
    async (request) => merchants.listCredentials(request.params.id),
  );

  app.post(
    '/admin/merchants/:id/credentials',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Issue a new API credential; the secret is in this response only',
        description: 'The same optional restrictions as POST /credentials (label, expiry, IP allow-list, scopes), without the role limit. No body issues a key with full access.',
        params: IdParams,
        body: Type.Optional(CreateCredentialBody),
        response: { 201: IssuedCredentialSchema, ...errorResponses(...ADMIN_ERRORS, ...BODY_ERRORS, 404) },
      },
    },
    async (request, reply) => reply.code(201).send(await merchants.issueCredential(request.params.id, adminActor(request), request.idempotency, request.body ?? {})),
  );

  app.delete(
    '/admin/merchants/:id/credentials/:credentialId',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Revoke an API credential, and every token issued from it, at once',
        params: StrictObject({ id: Uuid(), credentialId: Uuid() }),
        response: { 200: CredentialSchema, ...errorResponses(...ADMIN_ERRORS, 404) },
      },
    },
    async (request) => merchants.revokeCredential(request.params.id, request.params.credentialId, adminActor(request)),
  );
}
