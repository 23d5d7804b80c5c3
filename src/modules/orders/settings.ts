/**
 * What order creation needs from configuration, as plain values. config.ts reads and validates
 * them from the environment and the composition root (services.ts) hands them in; the module
 * never imports config.ts, so it can be built and tested from literals.
 */
export interface OrderSettings {
  /** Night window in São Paulo time, "HH:MM"; orders in it need the receiver's nightTransactionsEnabled. */
  nightStart: string;
  nightEnd: string;
  /** How long a PAYIN's PIX charge, and so the order, waits for payment. */
  payinExpirySeconds: number;
  /** How long a PAYOUT's deposit address, and so the order, waits for the deposit. */
  payoutExpirySeconds: number;
}
