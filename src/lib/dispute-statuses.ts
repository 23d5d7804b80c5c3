/**
 * A MED claim's statuses and outcomes, here rather than in the disputes module because the
 * orders module publishes them too (a claim's entries in an order's timeline) and the disputes
 * module depends on the orders module, not the other way round.
 */

/** A claim's life (disputes/state-machine.ts): OPEN → DEFENDED → ACCEPTED | REJECTED | CANCELLED. */
export const DISPUTE_STATUSES = ['OPEN', 'DEFENDED', 'ACCEPTED', 'REJECTED', 'CANCELLED'] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

/**
 * What the claim's end did: ORDER_REFUNDED (the order still held the PIX: returned through it,
 * MED_FRAUDE), CHARGED_BACK (the tokens had left: returned from the platform's account and charged
 * to the merchant), ALREADY_REFUNDED (the order had returned the PIX already), RELEASED (rejected or
 * withdrawn: a held order went on), NO_EFFECT (rejected or withdrawn, nothing was held).
 */
export const DISPUTE_OUTCOMES = ['ORDER_REFUNDED', 'CHARGED_BACK', 'ALREADY_REFUNDED', 'RELEASED', 'NO_EFFECT'] as const;
export type DisputeOutcome = (typeof DISPUTE_OUTCOMES)[number];
