/** The two kinds of order (spec: PAYIN, PAYOUT); fee tiers, quotes and orders are all per kind. */
export const ORDER_TYPES = ['PAYIN', 'PAYOUT'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];
