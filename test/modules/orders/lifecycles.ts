/**
 * The two lifecycles of DESIGN.md §5, written out edge by edge apart from the code: the state
 * machine (state-machine.test.ts) and the order process (process.test.ts) are held to it.
 */
import type { OrderType } from '../../../src/lib/order-types.ts';
import type { StoredOrderStatus } from '../../../src/modules/orders/tables.ts';

export const LIFECYCLES: Record<OrderType, Array<[StoredOrderStatus, StoredOrderStatus]>> = {
  PAYIN: [
    ['AWAITING_PAYMENT', 'PAYMENT_RECEIVED'],
    ['AWAITING_PAYMENT', 'REFUNDING'], // a PIX of another amount
    ['AWAITING_PAYMENT', 'EXPIRED'],
    ['PAYMENT_RECEIVED', 'SWAPPING'],
    ['PAYMENT_RECEIVED', 'REFUNDING'],
    ['SWAPPING', 'TRANSFERRING'],
    ['SWAPPING', 'REFUNDING'],
    ['TRANSFERRING', 'COMPLETED'],
    ['TRANSFERRING', 'REFUNDING'],
    ['EXPIRED', 'REFUNDING'], // a PIX that arrives after expiry
    ['REFUNDING', 'REFUNDED'],
    ['REFUNDING', 'FAILED'], // the refund itself failed: an operator acts
    ['FAILED', 'REFUNDING'], // operators refund it again, four-eyes (orders/lifecycle/operator-actions.ts)
  ],
  PAYOUT: [
    ['AWAITING_DEPOSIT', 'DEPOSIT_RECEIVED'],
    ['AWAITING_DEPOSIT', 'EXPIRED'],
    ['AWAITING_DEPOSIT', 'FAILED'], // a deposit worth less than the minimum order
    ['DEPOSIT_RECEIVED', 'PIX_SENDING'],
    ['DEPOSIT_RECEIVED', 'FAILED'],
    ['PIX_SENDING', 'PIX_SENT_UNCONFIRMED'],
    ['PIX_SENDING', 'FAILED'],
    ['PIX_SENT_UNCONFIRMED', 'COMPLETED'],
    ['PIX_SENT_UNCONFIRMED', 'FAILED'], // the receiving bank refused the PIX
    ['FAILED', 'PIX_SENDING'], // operators send a refused PIX again, four-eyes (orders/lifecycle/operator-actions.ts)
  ],
};

/** Where each lifecycle starts: PENDING is never stored, an order is inserted in these. */
export const INITIAL: Record<OrderType, StoredOrderStatus> = { PAYIN: 'AWAITING_PAYMENT', PAYOUT: 'AWAITING_DEPOSIT' };
