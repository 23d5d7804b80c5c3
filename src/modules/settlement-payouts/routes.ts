/**
 * Settlement payouts' reads (docs/decisions/0044): the merchant's own settlement PIX key, and the
 * back office's keys and settlements with their payment. Asking for a key is a four-eyes proposal:
 * approvals/settlement-key-routes.ts.
 */
import { merchantIdOf } from '../../http/auth.ts';
import { AUTHENTICATED_ERRORS, IdParams, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import type { Db } from '../../db/database.ts';
import type { SettlementPixKeys } from './keys.ts';
import { listAdminSettlements } from './reads.ts';
import { AdminSettlementPageSchema, AdminSettlementsQuery, MerchantSettlementPixKeySchema, SettlementPixKeyListSchema } from './schemas.ts';

export function registerSettlementPixKeyRoutes(app: App, keys: Pick<SettlementPixKeys, 'active'>): void {
  app.get(
    '/ledger/settlement-pix-key',
    {
      schema: {
        tags: ['Ledger'],
        summary: 'Where the merchant’s settlements are paid',
        description:
          'The PIX key settlements are paid to, read-only: operators set it, one asking and another approving (four-eyes), on the merchant’s own request. null while none is approved: settlements then wait (payoutStatus AWAITING_PIX_KEY), owed, and are paid once one is.',
        response: { 200: MerchantSettlementPixKeySchema, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => ({ settlementPixKey: await keys.active(merchantIdOf(request), { clear: true }) }),
  );
}

export function registerAdminSettlementPayoutRoutes(app: App, deps: { db: Db; keys: Pick<SettlementPixKeys, 'list'> }): void {
  const tags = ['Admin'];
  app.get(
    '/admin/merchants/:id/settlement-pix-keys',
    {
      schema: {
        tags,
        summary: "A merchant's settlement PIX keys, newest first",
        description: 'Every key asked for (PENDING), approved (ACTIVE, at most one) or replaced (SUPERSEDED), masked. Ask for one with POST /admin/merchants/{id}/settlement-pix-key.',
        params: IdParams,
        response: { 200: SettlementPixKeyListSchema, ...errorResponses(...AUTHENTICATED_ERRORS, 400) },
      },
    },
    async (request) => ({ data: await deps.keys.list(request.params.id) }),
  );

  app.get(
    '/admin/settlements',
    {
      schema: {
        tags,
        summary: 'Settlements with their PIX payment, newest first',
        description: 'By merchant and payment status (payoutStatus), with the PIX reference (pixEndToEndId) once PAID, and what settlements owe and have not paid (unpaid: AWAITING_PIX_KEY waits for a key; FAILED was refused and is sent again when a key is approved).',
        querystring: AdminSettlementsQuery,
        response: { 200: AdminSettlementPageSchema, ...errorResponses(...AUTHENTICATED_ERRORS, 400) },
      },
    },
    async (request) => listAdminSettlements(deps.db, request.query),
  );
}
