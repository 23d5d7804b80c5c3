/**
 * Operator routes for a merchant's destination policy (issue 24, finding 5): where its orders may
 * send money. Only an operator may widen it to ANY; each change is audited with its reason.
 */
import { Type } from 'typebox';
import { BODY_ERRORS, IdParams, StrictObject, Timestamp, Uuid, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { adminActor } from '../../http/audit-actor.ts';
import type { DestinationPolicies } from '../merchants/destination-policy.ts';
import { DESTINATION_POLICIES } from '../merchants/tables.ts';

const ADMIN_ERRORS = [400, 401, 403] as const;
const tags = ['Admin'];

export const POLICY_DESCRIPTION =
  'RECEIVER_ONLY (default): a PAYOUT pays only a PIX key of the receiver (its own CPF/CNPJ key, or another key the PIX provider confirms is held by the receiver’s document), and a PAYIN transfers only to the receiver’s own wallet (its walletAddress or managed wallet); ' +
  'anything else is refused with 422 PIX_KEY_NOT_OWNED_BY_RECEIVER or DESTINATION_NOT_RECEIVER_WALLET. ANY: the merchant may name any valid key or wallet.';

const DestinationPolicySchema = Type.Object(
  {
    merchantId: Uuid(),
    destinationPolicy: Type.Enum([...DESTINATION_POLICIES], { description: POLICY_DESCRIPTION }),
    updatedAt: Timestamp(),
  },
  { $id: 'MerchantDestinationPolicy', title: 'MerchantDestinationPolicy' },
);

export function registerAdminDestinationPolicyRoutes(app: App, policies: DestinationPolicies): void {
  app.get(
    '/admin/merchants/:id/destination-policy',
    {
      schema: {
        tags,
        summary: "A merchant's destination policy",
        description: POLICY_DESCRIPTION,
        params: IdParams,
        response: { 200: DestinationPolicySchema, ...errorResponses(...ADMIN_ERRORS, 404) },
      },
    },
    async (request) => policies.get(request.params.id),
  );

  app.put(
    '/admin/merchants/:id/destination-policy',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: "Set a merchant's destination policy (audited)",
        description: `${POLICY_DESCRIPTION} A change is recorded in the audit log with the operator's reason; setting the current policy again changes nothing.`,
        params: IdParams,
        body: StrictObject({
          destinationPolicy: Type.Enum([...DESTINATION_POLICIES]),
          reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'Why, for the audit log' })),
        }),
        response: { 200: DestinationPolicySchema, ...errorResponses(...ADMIN_ERRORS, ...BODY_ERRORS, 404) },
      },
    },
    async (request) =>
      policies.set(request.params.id, { policy: request.body.destinationPolicy, ...(request.body.reason ? { reason: request.body.reason } : {}) }, adminActor(request)),
  );
}
