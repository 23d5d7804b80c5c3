/**
 * Partner markup terms (issue 43, item 4; docs/decisions/0042-partner-markup.md): each merchant
 * sets its own per order type; quotes and orders read the terms in force when they are priced
 * (a quote locks them). A change is audited in its own transaction, with what it replaced.
 */
import type { Static } from 'typebox';
import { inTransaction } from '../../platform/commit-signals.ts';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { ORDER_TYPES, type OrderType } from '../../lib/order-types.ts';
import { type MarkupTerms, NO_MARKUP, markupTermsProblem } from '../../lib/markup.ts';
import { decimal, toFixedText, toJsonNumber } from '../../lib/money.ts';
import { invalidField } from '../../errors.ts';
import { type AuditActor, recordAudit } from '../../platform/audit/record.ts';
import { type MarkupRow, markupsRepo as repo } from './repo.ts';
import type { MerchantMarkupSchema } from './schemas.ts';

export type MerchantMarkup = Static<typeof MerchantMarkupSchema>;

/** Decimal text from a body (DecimalAmount), or numbers from a caller of the service. */
export interface MarkupInput {
  bps: number;
  flatBrl: number | string;
  capBrl: number | string | null;
}

const toTerms = (row: MarkupRow | undefined): MarkupTerms => (row ? { bps: row.bps, flatBrl: toFixedText(row.flat_brl, 2), capBrl: row.cap_brl === null ? null : toFixedText(row.cap_brl, 2) } : NO_MARKUP);

function toMerchantMarkup(orderType: OrderType, row: MarkupRow | undefined): MerchantMarkup {
  const terms = toTerms(row);
  return {
    orderType,
    bps: terms.bps,
    flatBrl: toJsonNumber(terms.flatBrl),
    capBrl: terms.capBrl === null ? null : toJsonNumber(terms.capBrl),
    updatedAt: row ? row.updated_at.toISOString() : null,
  };
}

export function createMarkupsService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  return {
    /** GET /markups: both order types, PAYIN then PAYOUT; one never set shows no markup. */
    async list(merchantId: string): Promise<MerchantMarkup[]> {
      const rows = await repo.list(db, merchantId);
      return ORDER_TYPES.map((type) => toMerchantMarkup(type, rows.find((row) => row.order_type === type)));
    },

    /** PUT /markups/{orderType}: replaces that type's terms (zeros switch it off), audited with the terms before. */
    async set(merchantId: string, orderType: OrderType, input: MarkupInput, by: AuditActor): Promise<MerchantMarkup> {
      const terms: MarkupTerms = {
        bps: input.bps,
        flatBrl: decimal(input.flatBrl).toFixed(2),
        capBrl: input.capBrl === null ? null : decimal(input.capBrl).toFixed(2),
      };
      const problem = markupTermsProblem({ ...terms, flatBrl: String(input.flatBrl), capBrl: input.capBrl === null ? null : String(input.capBrl) });
      if (problem) throw invalidField(`body.${problem.field}`, problem.problem);
      return inTransaction(db, async (trx) => {
        const before = await repo.findForUpdate(trx, merchantId, orderType);
        const row = await repo.upsert(trx, { merchant_id: merchantId, order_type: orderType, bps: terms.bps, flat_brl: terms.flatBrl, cap_brl: terms.capBrl, updated_at: clock.now() });
        await recordAudit(trx, by, {
          action: 'markups.set',
          targetType: 'markup',
          targetId: orderType,
          merchantId,
          details: { orderType, terms, before: before ? toTerms(before) : null },
        });
        return toMerchantMarkup(orderType, row);
      });
    },

    /** The terms in force now for an order of this type (none when never set). */
    async termsFor(merchantId: string, orderType: OrderType): Promise<MarkupTerms> {
      return toTerms(await repo.find(db, merchantId, orderType));
    },
  };
}

export type MarkupsService = ReturnType<typeof createMarkupsService>;
