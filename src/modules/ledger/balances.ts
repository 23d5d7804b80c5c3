/**
 * What the merchant is owed and owes (GET /ledger/balances), read from the merchant's own
 * accounts only: the platform's accounts are no merchant's business (docs/decisions/0041).
 * The fee figures are the fee balance's own (ledgerRepo.merchantBalance), so the two routes
 * can never disagree.
 */
import type { Static } from 'typebox';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { type Dec, decimal, toFixedText } from '../../lib/money.ts';
import { balancesRepo } from './balances-repo.ts';
import { type BalancesSchema, IN_FLIGHT_STAGES } from './balances-schemas.ts';
import { ledgerRepo } from './repo.ts';
import { toSettlement } from './settlement-view.ts';

export type Balances = Static<typeof BalancesSchema>;

const STAGES = Object.entries(IN_FLIGHT_STAGES).flatMap(([type, stages]) =>
  Object.entries(stages).map(([stage, statuses]) => ({ type: type as 'PAYIN' | 'PAYOUT', stage: stage as Balances['inFlight'][number]['stage'], statuses: [...statuses] as string[] })),
);

export async function readBalances(deps: { db: Db; clock: Clock }, merchantId: string): Promise<Balances> {
  const { db } = deps;
  const asOf = deps.clock.now();
  const [payable, markup, owed, held, settled, orders, unpaid, latest] = await Promise.all([
    ledgerRepo.merchantBalance(db, 'merchant_fees_payable', merchantId),
    ledgerRepo.merchantBalance(db, 'merchant_markup_payable', merchantId),
    ledgerRepo.merchantBalance(db, 'merchant_chargebacks_owed', merchantId),
    balancesRepo.heldDeposits(db, merchantId),
    balancesRepo.settlementTotals(db, merchantId),
    balancesRepo.inFlight(db, merchantId, STAGES.flatMap((stage) => stage.statuses)),
    ledgerRepo.merchantBalance(db, 'merchant_settlements', merchantId),
    balancesRepo.latestSettlement(db, merchantId),
  ]);
  const inFlight = STAGES.map(({ type, stage, statuses }) => {
    const rows = orders.filter((row) => row.type === type && statuses.includes(row.status));
    const tokens = new Map<string, Dec>();
    for (const row of rows) tokens.set(row.token, (tokens.get(row.token) ?? decimal(0)).plus(row.amount_token));
    return {
      type,
      stage,
      statuses,
      count: rows.reduce((sum, row) => sum + row.count, 0),
      amountBrl: toFixedText(rows.reduce((sum, row) => sum.plus(row.amount_brl), decimal(0)), 2),
      tokens: [...tokens].sort(([a], [b]) => a.localeCompare(b)).map(([token, amount]) => ({ token, amount: amount.toString() })),
    };
  });
  return {
    merchantId,
    asOf: asOf.toISOString(),
    unsettledFeesBrl: toFixedText(decimal(payable).negated(), 2),
    unsettledMarkupBrl: toFixedText(decimal(markup).negated(), 2),
    chargebacksOwedBrl: toFixedText(owed, 2),
    settlements: {
      count: settled.count,
      totalBrl: toFixedText(settled.total, 2),
      unpaidBrl: toFixedText(decimal(unpaid).negated(), 2),
      lastAt: settled.last ? new Date(settled.last).toISOString() : null,
      latest: latest ? toSettlement(latest) : null,
    },
    excessDepositsHeld: held
      .filter((row) => !decimal(row.balance).isZero())
      .map((row) => ({ token: row.currency, amount: decimal(row.balance).negated().toString(), orders: row.orders })),
    inFlight,
  };
}
