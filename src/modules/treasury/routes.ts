/**
 * The treasury's operator routes under /admin (docs/architecture/treasury.md), in the admin
 * scope: the admin token, audited actions.
 */
import { BODY_ERRORS, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { adminActor } from '../../http/audit-actor.ts';
import { FundingBody, FundingSchema, ReconciliationListQuery, ReconciliationListSchema, TreasurySchema } from './schemas.ts';
import type { TreasuryService } from './service.ts';

const tags = ['Admin'];
const ADMIN_ERRORS = [401, 403] as const;

export function registerAdminTreasuryRoutes(app: App, treasury: TreasuryService): void {
  app.get(
    '/admin/treasury',
    {
      schema: {
        tags,
        summary: "The platform's treasury: on-chain and ledger balances, drift, thresholds, what open PAYINs owe",
        description:
          "Per currency (SOL and each token): the balance on chain (read from the node now; if the node fails, the last reconciliation's, said by onChainSource), the ledger's token_treasury, their drift, the low-balance threshold and whether it is crossed, the tokens owed by PAYINs not yet transferred, and the transfers in flight; with the last reconciliation run. On the sandbox chain there is no treasury on chain: only the ledger's side is shown. A node that fails with no reconciliation to fall back on is 503 PROVIDER_UNAVAILABLE.",
        response: { 200: TreasurySchema, ...errorResponses(...ADMIN_ERRORS, 503) },
      },
    },
    async () => treasury.overview(),
  );

  app.get(
    '/admin/treasury/reconciliations',
    {
      schema: {
        tags,
        summary: 'The last reconciliation runs, newest first: per currency on chain, in the ledger, and their drift',
        description:
          'Each run of the worker\'s reconciliation (TREASURY_RECONCILIATION_INTERVAL_MS) as it recorded it: per currency the balance read on chain, the ledger\'s token_treasury, drift = onChain − ledger, and the amount in flight that explains a transient drift; `driftFound` when some currency drifted beyond it. Empty on the sandbox chain (nothing is reconciled).',
        querystring: ReconciliationListQuery,
        response: { 200: ReconciliationListSchema, ...errorResponses(400, ...ADMIN_ERRORS) },
      },
    },
    async (request) => treasury.reconciliations(request.query.limit),
  );

  app.post(
    '/admin/treasury/fundings',
    {
      // Idempotent per reference already; the key makes a retried request replay its first answer, like every other write.
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Record a funding of the treasury',
        description:
          "Tells the books what was moved into the treasury (its opening balance, or a top-up): posts token_treasury +amount / treasury_capital −amount and audits it, in one transaction. Idempotent per reference (e.g. the funding transaction's signature): the same funding again answers 200 with the first; another currency or amount under a used reference is 409 CONFLICT. An amount with more decimals than the currency has (SOL 9, USDC 6) or an unknown currency is 400.",
        body: FundingBody,
        response: { 201: FundingSchema, 200: FundingSchema, ...errorResponses(...ADMIN_ERRORS, 409, ...BODY_ERRORS) },
      },
    },
    async (request, reply) => {
      const { funding, created } = await treasury.fund(request.body, adminActor(request));
      return reply.code(created ? 201 : 200).send(funding);
    },
  );
}
