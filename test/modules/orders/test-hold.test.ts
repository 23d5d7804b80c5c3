/**
 * The test-only order hold (src/modules/orders/lifecycle/test-hold.ts) the every-route crawl seeds
 * its mid-processing orders with: an order is held only in the status its externalId names, so it
 * is brought there by the real path and stops there; nothing else is ever held. End to end (the
 * worker and the sandbox bank honouring it) it is test/browser/every-route.test.ts's seeding, which
 * checks each order reached and stayed in its status.
 */
import { describe, expect, it } from 'vitest';
import { heldForTest, TEST_HOLD_PREFIX } from '../../../src/modules/orders/lifecycle/test-hold.ts';

describe('heldForTest', () => {
  it('holds an order in the status its externalId names, not before it', () => {
    const externalId = `${TEST_HOLD_PREFIX}TRANSFERRING-7f1c`;
    expect(heldForTest({ status: 'TRANSFERRING', external_id: externalId })).toBe(true);
    for (const status of ['PAYMENT_RECEIVED', 'SWAPPING', 'REFUNDING'] as const) expect(heldForTest({ status, external_id: externalId })).toBe(false);
  });

  it('tells PIX_SENDING from PIX_SENT_UNCONFIRMED, and holds nothing without the prefix', () => {
    expect(heldForTest({ status: 'PIX_SENDING', external_id: `${TEST_HOLD_PREFIX}PIX_SENT_UNCONFIRMED-1` })).toBe(false);
    expect(heldForTest({ status: 'PIX_SENT_UNCONFIRMED', external_id: `${TEST_HOLD_PREFIX}PIX_SENT_UNCONFIRMED-1` })).toBe(true);
    expect(heldForTest({ status: 'SWAPPING', external_id: 'SWAPPING-1' })).toBe(false);
    expect(heldForTest({ status: 'SWAPPING', external_id: null })).toBe(false);
  });
});
