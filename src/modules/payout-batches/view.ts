/** A payout batch and its lines as the API shows them. */
import { decimal, toFixedText } from '../../lib/money.ts';
import type { PayoutBatchItemRow, PayoutBatchRow } from './tables.ts';

export interface Progress {
  status: string;
  orderStatus: string | null;
  count: number;
  /** The tokens of the orders made (their amount_token), decimal text. */
  orderedToken: string;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export function batchView(row: PayoutBatchRow, progress: Progress[]) {
  const count = (test: (p: Progress) => boolean) => progress.filter(test).reduce((sum, p) => sum + p.count, 0);
  const ordered = progress.filter((p) => p.status === 'ORDERED').reduce((sum, p) => sum.plus(p.orderedToken), decimal(0));
  // What the batch's deposit holds for the merchant: all of it less what its orders took; a batch
  // that stopped before its deposits covered its total holds all that arrived (decision 0051).
  const stoppedUnfunded = row.funded_at === null && (row.status === 'EXPIRED' || row.status === 'CANCELLED');
  const held = row.funded_at === null ? (stoppedUnfunded ? decimal(row.funded_amount_token ?? '0') : decimal(0)) : decimal(row.funded_amount_token ?? '0').minus(ordered);
  return {
    id: row.id,
    status: row.status,
    chain: row.chain,
    token: row.token,
    itemCount: row.item_count,
    validCount: row.valid_count,
    invalidCount: row.item_count - row.valid_count,
    totalCrypto: decimal(row.total_token).toString(),
    totalBrl: toFixedText(decimal(row.total_brl), 2),
    totalNetBrl: toFixedText(decimal(row.total_net_brl), 2),
    ratesExpireAt: iso(row.rate_expires_at)!,
    approvalRequired: row.approval_required,
    createdByUserId: row.created_by_user_id,
    approvedByUserId: row.approved_by_user_id,
    approvedAt: iso(row.approved_at),
    depositAddress: row.deposit_address,
    fundedCrypto: row.funded_amount_token === null ? null : decimal(row.funded_amount_token).toString(),
    fundedAt: iso(row.funded_at),
    heldCrypto: held.toString(),
    progress: {
      valid: count((p) => p.status === 'VALID'),
      invalid: count((p) => p.status === 'INVALID'),
      ordered: count((p) => p.status === 'ORDERED'),
      completed: count((p) => p.orderStatus === 'COMPLETED'),
      failed: count((p) => p.orderStatus === 'FAILED'),
      refused: count((p) => p.status === 'REFUSED'),
      cancelled: count((p) => p.status === 'CANCELLED'),
    },
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}

export type BatchView = ReturnType<typeof batchView>;

type ItemWithOrder = Pick<PayoutBatchItemRow, 'line' | 'status' | 'receiver_id' | 'external_id' | 'amount_token' | 'price' | 'errors' | 'order_id'> & {
  order_status: string | null;
  order_failure_reason: string | null;
  order_amount_brl: string | null;
  order_net_amount_brl: string | null;
};

export function itemView(row: ItemWithOrder) {
  const brl = row.order_amount_brl ?? row.price?.priced.amountBrl ?? null;
  const net = row.order_net_amount_brl ?? row.price?.priced.netAmountBrl ?? null;
  return {
    line: row.line,
    status: row.status,
    receiverId: row.receiver_id,
    externalId: row.external_id,
    amountCrypto: row.amount_token === null ? null : row.amount_token,
    amountBrl: brl === null ? null : toFixedText(decimal(brl), 2),
    netAmountBrl: net === null ? null : toFixedText(decimal(net), 2),
    errors: row.errors,
    orderId: row.order_id,
    orderStatus: row.order_status,
    failureReason: row.order_failure_reason,
  };
}

export type ItemView = ReturnType<typeof itemView>;
