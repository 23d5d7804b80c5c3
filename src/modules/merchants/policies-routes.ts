/**
 * The merchant's read of its own policies (issue 42): the answer operators get
 * (policies-schema.ts), for the merchant's own row only. Read-only: operators alone change a
 * policy (admin/policies-routes.ts), so a merchant sees why an order was refused or returned.
 */
import { merchantIdOf } from '../../http/auth.ts';
import { AUTHENTICATED_ERRORS, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import type { MerchantPoliciesService } from './compliance-policies.ts';
import { DESTINATION_DESCRIPTION, PAYER_DESCRIPTION, PoliciesSchema, WALLET_OWNERSHIP_DESCRIPTION } from './policies-schema.ts';

export function registerMerchantPoliciesRoutes(app: App, policies: Pick<MerchantPoliciesService, 'get'>): void {
  app.get(
    '/merchant/policies',
    {
      schema: {
        tags: ['Merchant'],
        summary: "The merchant's payer, wallet ownership and destination policies",
        description:
          'The policies an operator set for this merchant, as its orders apply them (the same answer as the back office reads); only an operator changes them. ' +
          `destinationPolicy: ${DESTINATION_DESCRIPTION} payerPolicy: ${PAYER_DESCRIPTION} walletOwnershipPolicy: ${WALLET_OWNERSHIP_DESCRIPTION}`,
        response: { 200: PoliciesSchema, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => policies.get(merchantIdOf(request)),
  );
}
