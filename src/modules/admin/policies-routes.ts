/**
 * Operator routes for a merchant's policies (docs/architecture/compliance-policies.md): one row of
 * `merchants`, one answer (MerchantPolicies) for every read and write. Two writes because two
 * permissions guard them (operators/roles.ts): widening where money may go (destination) is
 * `merchants.manage`, who may pay and which wallets are accepted (payer, wallet ownership) is
 * `kyc.review`. Each change is audited with the operator's reason. The answer and its texts are
 * merchants/policies-schema.ts, which the merchant's own read (GET /merchant/policies) answers too.
 */
import { Type } from 'typebox';
import { BODY_ERRORS, IdParams, StrictObject, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { adminActor } from '../../http/audit-actor.ts';
import type { MerchantPoliciesService } from '../merchants/compliance-policies.ts';
import { DESTINATION_DESCRIPTION, DestinationPolicy, PAYER_DESCRIPTION, PayerPolicy, PoliciesSchema, WALLET_OWNERSHIP_DESCRIPTION, WalletOwnershipPolicy } from '../merchants/policies-schema.ts';

const ADMIN_ERRORS = [400, 401, 403] as const;
const tags = ['Admin'];

const Reason = Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'Why, for the audit log' }));
const AUDITED = 'Each policy that changes is recorded in the audit log with the reason; setting the current values again changes nothing.';

export function registerAdminPoliciesRoutes(app: App, policies: MerchantPoliciesService): void {
  // The destination policy's own read predates the others; kept for its clients, same answer.
  for (const [url, deprecated] of [['/admin/merchants/:id/policies', false], ['/admin/merchants/:id/destination-policy', true]] as const) {
    app.get(
      url,
      {
        schema: {
          tags,
          summary: deprecated ? "A merchant's policies (the same answer as GET /admin/merchants/{id}/policies)" : "A merchant's policies",
          description: 'Destination, payer and wallet ownership policies, as orders apply them.',
          ...(deprecated ? { deprecated } : {}),
          params: IdParams,
          response: { 200: PoliciesSchema, ...errorResponses(...ADMIN_ERRORS, 404) },
        },
      },
      async (request) => policies.get(request.params.id),
    );
  }

  app.put(
    '/admin/merchants/:id/policies',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: "Set a merchant's payer and wallet ownership policies (audited)",
        description:
          `Fields left out stay as they are. payerPolicy: ${PAYER_DESCRIPTION} walletOwnershipPolicy: ${WALLET_OWNERSHIP_DESCRIPTION} ` +
          `LIMITED needs unprovenWalletLimitBrl (given now or set before; 400 otherwise). ${AUDITED} ` +
          'The destination policy is set by PUT /admin/merchants/{id}/destination-policy (another permission).',
        params: IdParams,
        body: StrictObject({
          payerPolicy: Type.Optional(PayerPolicy),
          walletOwnershipPolicy: Type.Optional(WalletOwnershipPolicy),
          unprovenWalletLimitBrl: Type.Optional(Type.Union([Type.Number({ minimum: 0 }), Type.String({ pattern: '^\\d{1,16}(\\.\\d{1,2})?$' }), Type.Null()], { description: 'BRL per unproven wallet and São Paulo day, at most 2 decimal places; null clears it (not under LIMITED)' })),
          reason: Reason,
        }, { title: 'MerchantPoliciesRequest' }),
        response: { 200: PoliciesSchema, ...errorResponses(...ADMIN_ERRORS, ...BODY_ERRORS, 404) },
      },
    },
    async (request) => policies.set(request.params.id, request.body, adminActor(request)),
  );

  app.put(
    '/admin/merchants/:id/destination-policy',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: "Set a merchant's destination policy (audited)",
        description: `${DESTINATION_DESCRIPTION} ${AUDITED} Answers all the merchant's policies.`,
        params: IdParams,
        body: StrictObject({ destinationPolicy: DestinationPolicy, reason: Reason }, { title: 'DestinationPolicyRequest' }),
        response: { 200: PoliciesSchema, ...errorResponses(...ADMIN_ERRORS, ...BODY_ERRORS, 404) },
      },
    },
    async (request) => policies.set(request.params.id, request.body, adminActor(request)),
  );
}
