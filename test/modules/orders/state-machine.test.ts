/**
 * The order state machine as one table: every transition either lifecycle allows, and every other
 * (from, to) pair of the spec's statuses refused, for both order types. PENDING is in the spec's
 * list but never stored, so nothing leads to it or leaves it.
 */
import { describe, expect, it } from 'vitest';
import { type OrderType } from '../../../src/lib/order-types.ts';
import { ORDER_STATUSES, type OrderStatus } from '../../../src/modules/orders/tables.ts';
import { assertTransition, canTransition } from '../../../src/modules/orders/lifecycle/state-machine.ts';
import { LIFECYCLES } from './lifecycles.ts';

/** The whole of DESIGN.md §5 and docs/architecture/orders.md: what is not listed there is refused. */
const ALLOWED = LIFECYCLES;

const isAllowed = (type: OrderType, from: OrderStatus, to: OrderStatus) => ALLOWED[type].some(([f, t]) => f === from && t === to);

const TABLE = (['PAYIN', 'PAYOUT'] as const).flatMap((type) =>
  ORDER_STATUSES.flatMap((from) => ORDER_STATUSES.map((to) => [type, from, to, isAllowed(type, from, to) ? 'allowed' : 'refused'] as const)),
);

describe('order state machine', () => {
  it('the table covers every (type, from, to) of the spec’s statuses', () => {
    expect(TABLE).toHaveLength(2 * ORDER_STATUSES.length ** 2);
    expect(TABLE.filter(([, , , verdict]) => verdict === 'allowed')).toHaveLength(ALLOWED.PAYIN.length + ALLOWED.PAYOUT.length);
  });

  it.each(TABLE)('%s %s → %s is %s', (type, from, to, verdict) => {
    expect(canTransition(type, from, to)).toBe(verdict === 'allowed');
    if (verdict === 'allowed') expect(() => assertTransition(type, from, to)).not.toThrow();
    else expect(() => assertTransition(type, from, to)).toThrow(`illegal ${type} transition ${from} → ${to}`);
  });
});
