/** Partner markup over HTTP (GET /markups, PUT /markups/{orderType}); the rules are in service.ts. */
import { merchantIdOf } from '../../http/auth.ts';
import { merchantActor } from '../../http/audit-actor.ts';
import { AUTHENTICATED_ERRORS, BODY_ERRORS, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { MarkupBody, MarkupParams, MerchantMarkupList, MerchantMarkupSchema } from './schemas.ts';
import type { MarkupsService } from './service.ts';

const tags = ['Fee Tiers'];
const RULE =
  "An order's markup is min(capBrl, ⌊amountBrl × bps ÷ 10000⌋ + flatBrl): the basis-point part rounds down to centavos (in the payer's favour). It is taken from the order's gross beside the fees, so a PAYIN's customer gets fewer tokens and a PAYOUT's PIX pays less; it is the merchant's revenue, credited to its markup account when the order completes and paid by the settlement with its fees. It never changes platformFeePercentage, merchantFeePercentage or feePercentage.";

export function registerMarkupRoutes(app: App, markups: MarkupsService): void {
  app.get(
    '/markups',
    {
      schema: {
        tags,
        summary: "The merchant's markup for both order types",
        description: `${RULE} A type never set shows bps 0, flatBrl 0, capBrl null and updatedAt null.`,
        response: { 200: MerchantMarkupList, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => markups.list(merchantIdOf(request)),
  );

  app.put(
    '/markups/:orderType',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: "Set the merchant's markup for one order type",
        description: [
          RULE,
          'Quotes made from now on carry the new terms; a quote already made keeps the terms it was made with, and so does the order that uses it.',
          'bps 0 and flatBrl 0 switch the markup off. A markup that would take a whole order (a flat amount above a small order) refuses that quote or order (400, naming the amount).',
          "Recorded in the merchant's audit log (GET /audit-log): action `markups.set`, with the terms before.",
        ].join(' '),
        params: MarkupParams,
        body: MarkupBody,
        response: { 200: MerchantMarkupSchema, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS) },
      },
    },
    async (request) => markups.set(merchantIdOf(request), request.params.orderType, request.body, merchantActor(request)),
  );
}
