/**
 * Test-only order holds (main.ts: TEST_HOLD_ORDER_STEPS=true, honoured with NODE_ENV=test only,
 * never in development or production): an order whose externalId is `test-hold-at-<STATUS>-…`
 * stays in STATUS once it reaches it, as if its provider never answered: the worker drops its step
 * (steps.ts) and, for PIX_SENT_UNCONFIRMED, the sandbox bank does not settle its PIX
 * (sandbox/service.ts). Everything before is the real path (the PIX paid, the transfer prepared
 * and stored, the PIX sent), so the every-route crawl (test/helpers/crawl-seed.ts) shows real
 * orders in the statuses the worker otherwise leaves within milliseconds.
 */
import type { Db } from '../../../db/database.ts';
import type { OrderRow } from '../tables.ts';
import { payoutIdempotencyKey } from './operator-actions.ts';

export const TEST_HOLD_PREFIX = 'test-hold-at-';

/** Whether the order is held where it is now (only asked when the test-only switch is on). */
export const heldForTest = (order: Pick<OrderRow, 'status' | 'external_id'>): boolean => order.external_id?.startsWith(`${TEST_HOLD_PREFIX}${order.status}-`) === true;

/** The PIX payouts (by the key they were sent under) of the orders held at PIX_SENT_UNCONFIRMED: the sandbox bank leaves them unsettled. */
export async function heldPayoutKeys(db: Db): Promise<Set<string>> {
  const sent = await db
    .selectFrom('orders')
    .select(['id', 'status', 'external_id', 'payout_attempt'])
    .where('status', '=', 'PIX_SENT_UNCONFIRMED')
    .where('external_id', 'like', `${TEST_HOLD_PREFIX}%`)
    .execute();
  return new Set(sent.filter(heldForTest).map(payoutIdempotencyKey));
}
