/** The two kinds of order (spec: PAYIN, PAYOUT); fee tiers, quotes and orders are all per kind. */
export const ORDER_TYPES = ['PAYIN', 'PAYOUT'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];

/**
 * What made an order (migration 0062; modules/orders/order-source.ts): the merchant's API call, or
 * an instrument the service acts on for the merchant.
 */
export const ORDER_SOURCE_KINDS = ['API', 'STANDING_DEPOSIT_ADDRESS', 'STANDING_PIX_CHARGE', 'PAYOUT_BATCH'] as const;
export type OrderSourceKind = (typeof ORDER_SOURCE_KINDS)[number];
