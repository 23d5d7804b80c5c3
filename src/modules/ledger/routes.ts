import { Type } from 'typebox';
import { invalidField } from '../../errors.ts';
import { merchantIdOf } from '../../http/auth.ts';
import { DEFAULT_PAGE_SIZE } from '../../http/pagination.ts';
import { AUTHENTICATED_ERRORS, BODY_ERRORS, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { adminActor } from '../../http/audit-actor.ts';
import {
  AdminSettlementRunBody,
  EntryListQuery,
  EntrySchema,
  FeeBalanceSchema,
  PaginationSchema,
  SettlementListQuery,
  SettlementRunBody,
  SettlementSchema,
  SettlementsDueQuery,
  SettlementsDueSchema,
} from './schemas.ts';
import type { LedgerService } from './service.ts';
import { BalancesSchema } from './balances-schemas.ts';

const tags = ['Ledger'];

/** `limit`, or its deprecated alias `pageSize` (schemas.ts); the two disagreeing is ambiguous. */
function pageOf<Q extends { page: number; limit?: number; pageSize?: number }>(query: Q) {
  const { limit, pageSize, ...rest } = query;
  if (limit !== undefined && pageSize !== undefined && limit !== pageSize) throw invalidField('querystring.pageSize', 'is a deprecated alias of limit and differs from it');
  return { ...rest, pageSize: limit ?? pageSize ?? DEFAULT_PAGE_SIZE };
}
const RunResult = Type.Object({ settlements: Type.Array(SettlementSchema) }, { title: 'SettlementRun' });

export function registerLedgerRoutes(app: App, ledger: LedgerService): void {
  app.get(
    '/ledger/fees/balance',
    {
      schema: {
        tags,
        summary: 'Merchant fees collected and not yet settled',
        response: { 200: FeeBalanceSchema, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => ledger.feeBalance(merchantIdOf(request)),
  );

  app.get(
    '/ledger/balances',
    {
      schema: {
        tags,
        summary: 'What the merchant is owed and owes, and its orders in flight',
        description:
          "The merchant's balances from its own ledger accounts: fees not yet settled (as GET /ledger/fees/balance), charge-backs owed, excess PAYOUT deposits held for return per token, the settlements paid (count and total; the list is GET /ledger/settlements), and its orders in flight by stage (count, BRL and token sums). Amounts are decimal text, never negative. The platform's internal accounts are never part of it.",
        response: { 200: BalancesSchema, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => ledger.balances(merchantIdOf(request)),
  );

  app.get(
    '/ledger/settlements',
    {
      schema: {
        tags,
        summary: "The merchant's settlements, newest first",
        querystring: SettlementListQuery,
        response: { 200: Type.Object({ settlements: Type.Array(SettlementSchema), pagination: PaginationSchema }, { title: 'SettlementPage' }), ...errorResponses(...AUTHENTICATED_ERRORS, 400) },
      },
    },
    async (request) => ledger.listSettlements(merchantIdOf(request), pageOf(request.query)),
  );

  app.get(
    '/ledger/entries',
    {
      schema: {
        tags,
        summary: "The merchant's ledger entries with their postings, newest first",
        description:
          "The entries that post to the merchant's own accounts (merchant_fees_payable, merchant_settlements, merchant_chargebacks_owed, deposits_to_return, merchant_sponsored_fees), each with those accounts' postings only: the platform's internal accounts (its PSP cash, treasury, conversion, revenue, costs) and their legs are never shown, so an entry's postings need not sum to zero here. An order movement with no merchant leg (a PIX received, a chain cost) is not listed; GET /orders/{id}/timeline shows the order's story.",
        querystring: EntryListQuery,
        response: { 200: Type.Object({ entries: Type.Array(EntrySchema), pagination: PaginationSchema }, { title: 'LedgerEntryPage' }), ...errorResponses(...AUTHENTICATED_ERRORS, 400) },
      },
    },
    async (request) => ledger.listEntries(merchantIdOf(request), pageOf(request.query)),
  );
}

export function registerSandboxLedgerRoutes(app: App, ledger: LedgerService, now: () => Date): void {
  app.post(
    '/sandbox/settlements/run',
    {
      config: { idempotent: true },
      schema: {
        tags: ['Sandbox'],
        summary: "Run the merchant's settlement now (sandbox)",
        description: 'The same settlement the daily schedule runs, for this merchant only: closes every unsettled fee entry before `cutoff` (default now). Nothing to close creates nothing.',
        body: SettlementRunBody,
        response: { 200: RunResult, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS) },
      },
    },
    async (request) => {
      const settlement = await ledger.settleMerchant(merchantIdOf(request), request.body.cutoff ? new Date(request.body.cutoff) : now());
      return { settlements: settlement ? [settlement] : [] };
    },
  );
}

export function registerAdminLedgerRoutes(app: App, ledger: LedgerService, now: () => Date): void {
  app.get(
    '/admin/settlements/due',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Merchant fees awaiting settlement, per merchant, the largest first',
        description:
          'For each merchant with fee entries no settlement has closed, what a run now (POST /admin/settlements/run) would pay it: the sum of those entries, their count and the oldest. The totals count every merchant; `data` lists the first `limit`.',
        querystring: SettlementsDueQuery,
        response: { 200: SettlementsDueSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ledger.settlementsDue(request.query.limit),
  );

  app.post(
    '/admin/settlements/run',
    {
      config: { idempotent: true },
      schema: {
        tags: ['Admin'],
        summary: 'Run settlements now',
        description: 'Closes every unsettled merchant fee entry before `cutoff` (default now), one settlement per merchant (or only `merchantId`). Idempotent: a second run finds nothing to close.',
        body: AdminSettlementRunBody,
        response: { 200: RunResult, ...errorResponses(400, 401, 403, ...BODY_ERRORS) },
      },
    },
    async (request) => {
      const cutoff = request.body.cutoff ? new Date(request.body.cutoff) : now();
      const merchantId = request.body.merchantId;
      return { settlements: await ledger.runAsOperator({ cutoff, ...(merchantId ? { merchantId } : {}) }, adminActor(request)) };
    },
  );
}
