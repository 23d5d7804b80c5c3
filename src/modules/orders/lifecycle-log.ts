/**
 * An order's life in the logs (issue 40; docs/architecture/overview.md, "Following an order
 * in the logs"): one info line when it is created ("order created") and one at each change
 * of its status ("order moved", written by `applyTransition`), each naming the order, its
 * merchant and type, and the external references it holds by then, so an operator finds every
 * line of an order by its id or by any reference a PSP, a bank or an explorer shows.
 *
 * Only ids, statuses, references and amounts: never the PIX key, a name, a document, the payer,
 * a failure reason (it can quote a masked document or a provider's words) or the merchant's
 * externalId (its own free text).
 */
import type { OrderRow } from './tables.ts';

/** Where the lines go (the process's pino logger). */
export interface OrderLog {
  info(obj: object, msg: string): void;
}

export const ORDER_CREATED = 'order created';
export const ORDER_MOVED = 'order moved';

type Referenced = Pick<OrderRow, 'pix_txid' | 'deposit_address' | 'pix_end_to_end_id' | 'tx_hash' | 'provider_transaction_id' | 'refund_id'>;

/**
 * The references the order holds, each under a name that says whose it is: the PSP's charge
 * (`pixTxid`) and PIX (`pixEndToEndId`), the chain's deposit address and signature (`txHash`: a
 * PAYIN's transfer, a PAYOUT's deposit), the PSP's id of a PIX sent (`providerTransactionId`) and
 * of a refund (`refundId`). Unset ones are left out.
 */
function referencesOf(order: Referenced) {
  const references = {
    pixTxid: order.pix_txid,
    depositAddress: order.deposit_address,
    pixEndToEndId: order.pix_end_to_end_id,
    txHash: order.tx_hash,
    providerTransactionId: order.provider_transaction_id,
    refundId: order.refund_id,
  };
  return Object.fromEntries(Object.entries(references).filter(([, value]) => value !== null));
}

const named = (order: Pick<OrderRow, 'id' | 'merchant_id' | 'type'>) => ({ orderId: order.id, merchantId: order.merchant_id, type: order.type });

/**
 * The line of a just-created order (committed). The token is named as the API names it
 * (`targetToken`, `sourceToken`): a field called `token` is redacted as a secret (logger.ts).
 */
export function createdLine(order: OrderRow) {
  return {
    ...named(order),
    status: order.status,
    amountBrl: order.amount_brl,
    amountToken: order.amount_token,
    [order.type === 'PAYIN' ? 'targetToken' : 'sourceToken']: order.token,
    chain: order.chain,
    ...referencesOf(order),
  };
}

/** The line of a change from `before`'s status to `after`'s, with the amount of what moved (the PIX, the deposit, the transfer) when something did. */
export function movedLine(before: OrderRow, after: OrderRow, moved: { amount: string; currency: string } | undefined) {
  return {
    ...named(before),
    from: before.status,
    to: after.status,
    ...referencesOf(after),
    ...(moved ? { amount: moved.amount, currency: moved.currency } : {}),
  };
}
