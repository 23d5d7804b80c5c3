/**
 * Operator routes for a merchant's compliance policies (issue 30, docs/architecture/
 * compliance-policies.md): one read of all of them, one write of the payer and wallet ownership
 * policies (the destination policy keeps its own route, destination-policy-routes.ts). Each
 * change is audited with the operator's reason.
 */
import { Type } from 'typebox';
import { BODY_ERRORS, IdParams, StrictObject, Timestamp, Uuid, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { adminActor } from '../../http/audit-actor.ts';
import type { MerchantPoliciesService } from '../merchants/compliance-policies.ts';
import { DESTINATION_POLICIES, PAYER_POLICIES, WALLET_OWNERSHIP_POLICIES } from '../merchants/tables.ts';
import { POLICY_DESCRIPTION as DESTINATION_DESCRIPTION } from './destination-policy-routes.ts';

const ADMIN_ERRORS = [400, 401, 403] as const;
const tags = ['Admin'];

export const PAYER_DESCRIPTION =
  "Who may pay a PAYIN's PIX. ANY (default): anyone. FIRST_PARTY: only the receiver, by the payer's CPF/CNPJ the PIX provider reports: a PIX from another document is returned to its payer (devolução, natureza ORIGINAL) and the order ends REFUNDED with a failureReason naming the masked document; " +
  'a PIX whose payer the provider does not report cannot be confirmed first-party and is returned the same way.';
export const WALLET_OWNERSHIP_DESCRIPTION =
  "What a PAYIN to a wallet not proven the receiver's does (proofs: POST /receivers/{id}/wallet-ownership/challenges, then .../proofs; a managed wallet counts as proven). " +
  'ALLOW (default): accepted. LIMITED: accepted while the PAYINs of the day to that wallet (their amountBrl, São Paulo day, per merchant and wallet, reserved at creation and not given back) total at most unprovenWalletLimitBrl, above it 422 WALLET_OWNERSHIP_REQUIRED. REQUIRED: always 422 WALLET_OWNERSHIP_REQUIRED.';

const PoliciesSchema = Type.Object(
  {
    merchantId: Uuid(),
    destinationPolicy: Type.Enum([...DESTINATION_POLICIES], { description: DESTINATION_DESCRIPTION }),
    payerPolicy: Type.Enum([...PAYER_POLICIES], { description: PAYER_DESCRIPTION }),
    walletOwnershipPolicy: Type.Enum([...WALLET_OWNERSHIP_POLICIES], { description: WALLET_OWNERSHIP_DESCRIPTION }),
    unprovenWalletLimitBrl: Type.Union([Type.Number(), Type.Null()], { description: 'LIMITED: the most BRL (amountBrl) the PAYINs of one São Paulo day to one unproven wallet may total; null when unset' }),
    updatedAt: Timestamp(),
  },
  { $id: 'MerchantPolicies', title: 'MerchantPolicies' },
);

export function registerAdminPoliciesRoutes(app: App, policies: MerchantPoliciesService): void {
  app.get(
    '/admin/merchants/:id/policies',
    {
      schema: {
        tags,
        summary: "A merchant's compliance policies",
        description: 'Destination, payer and wallet ownership policies, as orders apply them.',
        params: IdParams,
        response: { 200: PoliciesSchema, ...errorResponses(...ADMIN_ERRORS, 404) },
      },
    },
    async (request) => policies.get(request.params.id),
  );

  app.put(
    '/admin/merchants/:id/policies',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: "Set a merchant's payer and wallet ownership policies (audited)",
        description:
          `Fields left out stay as they are. payerPolicy: ${PAYER_DESCRIPTION} walletOwnershipPolicy: ${WALLET_OWNERSHIP_DESCRIPTION} ` +
          'LIMITED needs unprovenWalletLimitBrl (given now or set before; 400 otherwise). Each policy that changes is recorded in the audit log with the reason; setting the current values again changes nothing. ' +
          'The destination policy has its own route (PUT /admin/merchants/{id}/destination-policy).',
        params: IdParams,
        body: StrictObject({
          payerPolicy: Type.Optional(Type.Enum([...PAYER_POLICIES])),
          walletOwnershipPolicy: Type.Optional(Type.Enum([...WALLET_OWNERSHIP_POLICIES])),
          unprovenWalletLimitBrl: Type.Optional(Type.Union([Type.Number({ minimum: 0 }), Type.String({ pattern: '^\\d{1,16}(\\.\\d{1,2})?$' }), Type.Null()], { description: 'BRL per unproven wallet and São Paulo day, at most 2 decimal places; null clears it (not under LIMITED)' })),
          reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'Why, for the audit log' })),
        }),
        response: { 200: PoliciesSchema, ...errorResponses(...ADMIN_ERRORS, ...BODY_ERRORS, 404) },
      },
    },
    async (request) => policies.set(request.params.id, request.body, adminActor(request)),
  );
}
