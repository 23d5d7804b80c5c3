/**
 * The back office's reads on orders, across merchants (docs/architecture/back-office.md): the
 * search by any id, the operator's queue of stuck orders, and one order with its timeline. Each
 * row says what an operator may do to it, from the one rule the actions apply too
 * (operator-actions.ts).
 *
 * Personal data: an order's rows (search, stuck) carry none, and `q` matches ids only. One order
 * shows its payer, masked for a reader without `kyc.review` and, in clear, recorded before it is
 * answered (operators/personal-data-reads.ts, docs/decisions/0033).
 */
import type { Static } from 'typebox';
import type { Db } from '../../../db/database.ts';
import { notFound } from '../../../errors.ts';
import type { Clock } from '../../../lib/clock.ts';
import type { PersonalData } from '../../../lib/personal-data.ts';
import { toJsonNumber } from '../../../lib/money.ts';
import { type AuditActor, recordDataRelease } from '../../../platform/audit/record.ts';
import { HIDDEN, maskedDocument } from '../../operators/personal-data-reads.ts';
import { type AdminOrderRow, type AdminSearch, adminOrdersRepo as repo } from './admin-search-repo.ts';
import type { AdminOrderDetailSchema, AdminOrderPageSchema, AdminOrderSchema, StuckOrderPageSchema } from './admin-schemas.ts';
import { allowedOperatorActions, failedWithMoneyHeld } from '../lifecycle/operator-actions.ts';
import { openOrderColumns } from '../sealed-columns.ts';
import { toOrderMarkup } from '../../markups/view.ts';
import type { OrderStatus } from '../tables.ts';
import type { OrderTimelineService } from '../reads/timeline.ts';

export type AdminOrder = Static<typeof AdminOrderSchema>;
type AdminOrderPage = Static<typeof AdminOrderPageSchema>;
type StuckOrderPage = Static<typeof StuckOrderPageSchema>;
type AdminOrderDetail = Static<typeof AdminOrderDetailSchema>;

export function toAdminOrder(row: AdminOrderRow): AdminOrder {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    merchantName: row.merchant_name,
    receiverId: row.receiver_id,
    type: row.type,
    status: row.status,
    amountBrl: toJsonNumber(row.amount_brl),
    token: row.token,
    chain: row.chain,
    externalId: row.external_id,
    failureReason: row.failure_reason,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    allowedActions: allowedOperatorActions(row),
    moneyHeld: failedWithMoneyHeld(row),
  };
}

type Payer = NonNullable<AdminOrderDetail['payer']>;

/** Who reads one order: masked (operators/personal-data-reads.ts `readsMasked`), and who to record an opening in clear as. */
export interface OrderReader {
  masked: boolean;
  by: AuditActor;
}

/** The payer as a reader without `kyc.review` sees it: the document as DICT masks it, the name hidden (an unreported one stays empty). */
export const maskPayer = (payer: Payer): Payer => ({ ...payer, document: maskedDocument(payer.document), name: payer.name === '' ? '' : HIDDEN });

/** The page's rows and the cursor of the next one: `rows` holds up to `limit` + 1. */
function paged<T extends { id: string }>(rows: T[], limit: number): { rows: T[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  return { rows: page, nextCursor: rows.length > limit ? page.at(-1)!.id : null };
}

export function createAdminOrderReads(deps: { db: Db; clock: Clock; stuckOrderMinutes: number; timeline: Pick<OrderTimelineService, 'get'>; personalData: Pick<PersonalData, 'openNullable'> }) {
  const { db, clock } = deps;

  return {
    async search({ status, ...query }: Omit<AdminSearch, 'status'> & { status?: OrderStatus; limit: number }): Promise<AdminOrderPage> {
      // PENDING is a status of the spec's enumeration that is never stored (see tables.ts).
      if (status === 'PENDING') return { data: [], nextCursor: null };
      const { rows, nextCursor } = paged(await repo.search(db, { ...query, ...(status ? { status } : {}) }, query.limit), query.limit);
      return { data: rows.map(toAdminOrder), nextCursor };
    },

    async stuck(query: { olderThanMinutes?: number; limit: number; cursor?: string }): Promise<StuckOrderPage> {
      const olderThanMinutes = query.olderThanMinutes ?? deps.stuckOrderMinutes;
      const now = clock.now();
      const before = new Date(now.getTime() - olderThanMinutes * 60_000);
      const { rows, nextCursor } = paged(await repo.stuck(db, before, query.limit, query.cursor), query.limit);
      const data = rows.map((row) => ({
        ...toAdminOrder(row),
        stuckReason: failedWithMoneyHeld(row) ? ('FAILED_WITH_MONEY_HELD' as const) : ('IN_TRANSIT_TOO_LONG' as const),
        stuckForSeconds: Math.max(0, Math.floor((now.getTime() - row.updated_at.getTime()) / 1000)),
      }));
      return { data, olderThanMinutes, nextCursor };
    },

    /**
     * Any merchant's order: its merchant is read first, then the merchant's own timeline is reused.
     * A payer shown in clear is recorded first (`order.personal_data_open`: who, when, which order),
     * as a KYC file's opening is; a masked one, or an order without a payer, releases nothing.
     */
    async get(id: string, reader: OrderReader): Promise<AdminOrderDetail> {
      const row = await repo.find(db, id);
      if (!row) throw notFound('Order');
      const [timeline, sealedPayer] = await Promise.all([
        deps.timeline.get(row.merchant_id, id, 'all'),
        db.selectFrom('orders').select(['payer_document_type', 'payer_document', 'payer_name']).where('id', '=', id).executeTakeFirst(),
      ]);
      const paidBy = sealedPayer && openOrderColumns(deps.personalData, sealedPayer);
      const payer: Payer | null = paidBy?.payer_document_type && paidBy.payer_document ? { documentType: paidBy.payer_document_type, document: paidBy.payer_document, name: paidBy.payer_name ?? '' } : null;
      if (payer && !reader.masked) {
        await recordDataRelease(db, reader.by, { action: 'order.personal_data_open', targetType: 'order', targetId: id, details: { merchantId: row.merchant_id, fields: ['payer'] } });
      }
      return {
        ...toAdminOrder(row),
        paymentReference: row.pix_txid,
        pixEndToEndId: row.pix_end_to_end_id,
        providerTransactionId: row.provider_transaction_id,
        refundId: row.refund_id,
        txHash: row.tx_hash,
        // Orders signed before migration 0079 left the column unwritten: they were wallet 1's.
        treasuryWallet: row.type === 'PAYIN' && row.tx_hash !== null ? (row.treasury_wallet ?? 1) : null,
        payer: payer && reader.masked ? maskPayer(payer) : payer,
        platformFeeAmountBrl: toJsonNumber(row.platform_fee_amount_brl),
        merchantFeeAmountBrl: toJsonNumber(row.merchant_fee_amount_brl),
        markup: toOrderMarkup(row),
        netAmountBrl: toJsonNumber(row.net_amount_brl),
        stepAttempts: row.step_attempts,
        nextStepAt: row.next_step_at?.toISOString() ?? null,
        timeline: timeline.entries,
      };
    },
  };
}

export type AdminOrderReads = ReturnType<typeof createAdminOrderReads>;
