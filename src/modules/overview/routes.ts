import { merchantIdOf } from '../../http/auth.ts';
import { AUTHENTICATED_ERRORS, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { OverviewQuery, OverviewSchema } from './schemas.ts';
import type { OverviewService } from './service.ts';

/**
 * GET /overview, not /reports/overview: it is one resource, the merchant's account at a glance,
 * and there is no family of reports for a /reports prefix to group (the CSV export belongs to the
 * orders it lists: GET /orders/export).
 */
export function registerOverviewRoutes(app: App, overview: OverviewService): void {
  app.get(
    '/overview',
    {
      schema: {
        tags: ['Overview'],
        summary: "The merchant's account at a glance: volumes, statuses, fees, attention",
        description:
          'For the last `days` São Paulo calendar days (today included; default 30, at most 90, more is 400): per day and order type, the orders created and their amountBrl summed, and how many of them (and how much) are COMPLETED; sums are BRL decimal text. ' +
          "Also: all the merchant's orders by current status; the fee balance (as GET /ledger/fees/balance) and the fee entries not settled yet; and what needs attention: the FAILED orders created in the period (their count and the newest ids) and the webhook endpoints that are failing or disabled (as GET /webhook/endpoints shows them).",
        querystring: OverviewQuery,
        response: { 200: OverviewSchema, ...errorResponses(...AUTHENTICATED_ERRORS, 400) },
      },
    },
    async (request) => overview.get(merchantIdOf(request), request.query.days),
  );
}
