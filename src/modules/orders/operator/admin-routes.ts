/**
 * The back office's reads on orders under /admin (docs/architecture/back-office.md): any
 * merchant's orders, found by any id, the operator's queue of stuck orders, and one order with
 * its timeline. Thin: the rules are in admin-reads.ts; who sees personal data in clear is the
 * back office's one rule (operators/personal-data-reads.ts).
 */
import { adminActor } from '../../../http/audit-actor.ts';
import { IdParams, errorResponses } from '../../../http/schemas.ts';
import type { App } from '../../../http/types.ts';
import { readsMasked } from '../../operators/personal-data-reads.ts';
import type { AdminOrderReads } from './admin-reads.ts';
import type { Reconciliation } from '../psp/reconciliation.ts';
import { AdminOrderDetailSchema, AdminOrderPageSchema, AdminOrderSearchQuery, PspReconciliationRunsQuery, PspReconciliationRunsSchema, StuckOrderPageSchema, StuckOrdersQuery } from './admin-schemas.ts';

const ADMIN_ERRORS = [400, 401, 403] as const;
const tags = ['Admin'];

export function registerAdminOrderRoutes(app: App, reads: AdminOrderReads, reconciliation: Pick<Reconciliation, 'lastRuns'>): void {
  app.get(
    '/admin/orders',
    {
      schema: {
        tags,
        summary: "Find orders of every merchant, by any id, newest first",
        description:
          '`q` matches one order by any of its ids exactly (see `q`); the other filters narrow the list. Keyset pages: pass `nextCursor` as `cursor` until it is null. ' +
          'The rows carry no personal data (the receiver by its id, no payer, no document or name; a `failureReason` names a document masked), and `q` never matches a document or a name: the list is the same for every operator and records nothing. One order (GET /admin/orders/{id}) shows its payer.',
        querystring: AdminOrderSearchQuery,
        response: { 200: AdminOrderPageSchema, ...errorResponses(...ADMIN_ERRORS) },
      },
    },
    async (request) => reads.search(request.query),
  );

  app.get(
    '/admin/orders/stuck',
    {
      schema: {
        tags,
        summary: 'Orders that need an operator, oldest change first',
        description:
          "Orders in transit (PAYMENT_RECEIVED, SWAPPING, TRANSFERRING, REFUNDING, DEPOSIT_RECEIVED, PIX_SENDING, PIX_SENT_UNCONFIRMED: money arrived and has not reached its destination) unchanged for `olderThanMinutes`, and PAYINs that FAILED holding the customer's PIX (their refund failed), whatever their age. Each says why and what may be done (`allowedActions`). The rows carry no personal data, as in GET /admin/orders.",
        querystring: StuckOrdersQuery,
        response: { 200: StuckOrderPageSchema, ...errorResponses(...ADMIN_ERRORS) },
      },
    },
    async (request) => reads.stuck(request.query),
  );

  app.get(
    '/admin/orders/:id',
    {
      schema: {
        tags,
        summary: 'One order of any merchant, with its timeline',
        description:
          'The order, its provider references and worker state, its payer, and its story (the entries of GET /orders/{id}/timeline: status changes, movements, ledger entries, webhook deliveries). ' +
          "The payer is a person's data. An operator or service account whose role lacks `kyc.review` (VIEWER, OPERATIONS, FINANCE) sees its document masked (`***.456.789-**`) and its name as `***`, as in the KYC queue, and nothing is recorded. " +
          'Anyone else (COMPLIANCE, ADMIN, the admin token) sees them in clear, and each such opening is recorded in the audit log before the answer: action `order.personal_data_open`, target type `order`, target id the order, `details.merchantId` (who, when, which order: GET /admin/audit-log?action=order.personal_data_open&targetId={id}). An order without a payer records nothing.',
        params: IdParams,
        response: { 200: AdminOrderDetailSchema, ...errorResponses(...ADMIN_ERRORS, 404) },
      },
    },
    async (request) => reads.get(request.params.id, { masked: readsMasked(request), by: adminActor(request) }),
  );

  app.get(
    '/admin/reconciliation/psp-runs',
    {
      schema: {
        tags,
        summary: "The PIX reconciliation's last passes, newest first, with their drift",
        description: "Each pass of the worker's PIX reconciliation (every RECONCILIATION_INTERVAL_MS, per worker): how many charges, refunds and payouts the PSP had settled that no notification had told (the drift the pass then applied), or the error that stopped it. Kept 30 days. The chain's side is GET /admin/treasury/reconciliations.",
        querystring: PspReconciliationRunsQuery,
        response: { 200: PspReconciliationRunsSchema, ...errorResponses(...ADMIN_ERRORS) },
      },
    },
    async (request) => ({ data: await reconciliation.lastRuns(request.query.limit) }),
  );
}
