/**
 * Operator routes for a merchant's policies (docs/architecture/compliance-policies.md): one row of
 * `merchants`, one answer (MerchantPolicies) for every read and write. Two writes because two
 * permissions guard them (operators/roles.ts): widening where money may go (destination) is
 * `merchants.manage`, who may pay and which wallets are accepted (payer, wallet ownership) is
 * `kyc.review`. Each change is audited with the operator's reason.
 */
import { Type } from 'typebox';
import { BODY_ERRORS, IdParams, StrictObject, Timestamp, Uuid, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { adminActor } from '../../http/audit-actor.ts';
import type { MerchantPoliciesService } from '../merchants/compliance-policies.ts';
import { DESTINATION_POLICIES, PAYER_POLICIES, WALLET_OWNERSHIP_POLICIES } from '../merchants/tables.ts';

const ADMIN_ERRORS = [400, 401, 403] as const;
const tags = ['Admin'];

export const DESTINATION_DESCRIPTION =
  'RECEIVER_ONLY (default): a PAYOUT pays only a PIX key of the receiver (its own CPF/CNPJ key, or another key the PIX provider confirms is held by the receiver’s document), and a PAYIN transfers only to the receiver’s own wallet (its walletAddress or managed wallet); ' +
  'anything else is refused with 422 PIX_KEY_NOT_OWNED_BY_RECEIVER or DESTINATION_NOT_RECEIVER_WALLET. ANY: the merchant may name any valid key or wallet.';
export const PAYER_DESCRIPTION =
  "Who may pay a PAYIN's PIX. ANY (default): anyone. FIRST_PARTY: only the receiver, by the payer's CPF/CNPJ the PIX provider reports: a PIX from another document is returned to its payer (devolução, natureza ORIGINAL) and the order ends REFUNDED with a failureReason naming the masked document; " +
  'a PIX whose payer the provider does not report cannot be confirmed first-party and is returned the same way.';
export const WALLET_OWNERSHIP_DESCRIPTION =
  "What a PAYIN to a wallet not proven the receiver's does (proofs: POST /receivers/{id}/wallet-ownership/challenges, then .../proofs; a managed wallet counts as proven). " +
  'ALLOW (default): accepted. LIMITED: accepted while the PAYINs of the day to that wallet (their amountBrl, São Paulo day, per merchant and wallet, reserved at creation and not given back) total at most unprovenWalletLimitBrl, above it 422 WALLET_OWNERSHIP_REQUIRED. REQUIRED: always 422 WALLET_OWNERSHIP_REQUIRED.';

// Titled: each policy is one component of the OpenAPI document, which the answer and the bodies
// refer to (http/openapi-components.ts).
const DestinationPolicy = Type.Enum([...DESTINATION_POLICIES], { title: 'DestinationPolicy', description: DESTINATION_DESCRIPTION });
const PayerPolicy = Type.Enum([...PAYER_POLICIES], { title: 'PayerPolicy', description: PAYER_DESCRIPTION });
const WalletOwnershipPolicy = Type.Enum([...WALLET_OWNERSHIP_POLICIES], { title: 'WalletOwnershipPolicy', description: WALLET_OWNERSHIP_DESCRIPTION });

const PoliciesSchema = Type.Object(
  {
    merchantId: Uuid(),
    destinationPolicy: DestinationPolicy,
    payerPolicy: PayerPolicy,
    walletOwnershipPolicy: WalletOwnershipPolicy,
    unprovenWalletLimitBrl: Type.Union([Type.Number(), Type.Null()], { description: 'LIMITED: the most BRL (amountBrl) the PAYINs of one São Paulo day to one unproven wallet may total; null when unset' }),
    updatedAt: Timestamp(),
  },
  { $id: 'MerchantPolicies', title: 'MerchantPolicies' },
);
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
