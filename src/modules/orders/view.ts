import type { Static } from 'typebox';
import type { OrderTransactionRow, OrderView } from './tables.ts';
import { decimal, toJsonNumber } from '../../lib/money.ts';
import type { OrderSchema } from './schemas.ts';
import { toOrderMarkup } from '../markups/view.ts';

export type Order = Static<typeof OrderSchema>;

export function toOrder(row: OrderView, transactions: OrderTransactionRow[], names: { merchantName: string; receiverName: string }): Order {
  const payin = row.type === 'PAYIN';
  return {
    id: row.id,
    merchantId: row.merchant_id,
    receiverId: row.receiver_id,
    type: row.type,
    status: row.status,
    chain: row.chain,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    externalId: row.external_id,
    receiverName: names.receiverName,
    merchantName: names.merchantName,
    amountBrl: toJsonNumber(row.amount_brl),
    amountCrypto: toJsonNumber(row.amount_token),
    targetToken: payin ? row.token : null,
    sourceToken: payin ? null : row.token,
    destinationWallet: row.destination_wallet,
    depositAddress: row.deposit_address,
    paymentReference: row.pix_txid,
    exchangeRate: toJsonNumber(row.exchange_rate),
    // Fractions, as stored and as fee tiers show them (http/schemas.ts FeeFraction).
    feePercentage: toJsonNumber(decimal(row.platform_fee_percentage).plus(row.merchant_fee_percentage)),
    netAmountBrl: toJsonNumber(row.net_amount_brl),
    amountUsdc: row.token === 'USDC' ? toJsonNumber(row.amount_token) : null,
    amountToken: toJsonNumber(row.amount_token),
    platformFeePercentage: toJsonNumber(row.platform_fee_percentage),
    platformFeeAmountBrl: toJsonNumber(row.platform_fee_amount_brl),
    merchantFeePercentage: toJsonNumber(row.merchant_fee_percentage),
    merchantFeeAmountBrl: toJsonNumber(row.merchant_fee_amount_brl),
    markup: toOrderMarkup(row),
    pixPaymentCode: row.pix_payment_code,
    pixKey: row.pix_key,
    recipientName: row.recipient_name,
    failureReason: row.failure_reason,
    expiresAt: row.expires_at.toISOString(),
    completedAt: row.completed_at?.toISOString() ?? null,
    transactions: transactions.map((tx) => ({
      id: tx.id,
      type: tx.type,
      status: tx.status,
      amount: toJsonNumber(tx.amount),
      currency: tx.currency,
      createdAt: tx.created_at.toISOString(),
      chain: tx.chain,
      txHash: tx.tx_hash,
    })),
  };
}
