/** A settlement as the API answers it (GET /ledger/settlements, the balances' latest, the back office's list). */
import type { Selectable } from 'kysely';
import type { Static } from 'typebox';
import { toJsonNumber } from '../../lib/money.ts';
import type { SettlementSchema } from './schemas.ts';
import type { SETTLEMENT_COLUMNS, SettlementsTable } from './tables.ts';

export type Settlement = Static<typeof SettlementSchema>;

type SettlementRow = Pick<Selectable<SettlementsTable>, (typeof SETTLEMENT_COLUMNS)[number]>;

export const toSettlement = (row: SettlementRow): Settlement => ({
  id: row.id,
  merchantId: row.merchant_id,
  periodStart: row.period_start.toISOString(),
  periodEnd: row.period_end.toISOString(),
  createdAt: row.created_at.toISOString(),
  amountBrl: toJsonNumber(row.amount_brl),
  markupBrl: toJsonNumber(row.markup_brl),
  entriesCount: row.entries_count,
  payoutStatus: row.payout_status,
  pixEndToEndId: row.pix_end_to_end_id,
  paidAt: row.paid_at ? row.paid_at.toISOString() : null,
  payoutFailureReason: row.payout_failure_reason,
});
