/**
 * A property test of the ledger over random sequences of payins, payouts, failures, refunds
 * and settlement runs: every entry stays zero-sum, and balance + settled = recognised fees.
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decimal } from '../../../src/lib/money.ts';
import { TestClock, type TestContext, createTestContext } from '../../helpers/app.ts';
import { type Json, NOON_SP, ledgerFixture } from './helpers.ts';

const clock = new TestClock(new Date(NOON_SP));
let ctx: TestContext;
const { call, feeMerchant, drive, unbalancedEntries } = ledgerFixture(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext({}, { clock });
});
afterAll(() => ctx?.close());
beforeEach(() => clock.set(NOON_SP));

describe('ledger invariants', () => {
  it('property: random payins, payouts, failures, refunds and settlement runs keep every entry zero-sum and balance + settled = recognised', async () => {
    const operation = fc.oneof(
      fc.record({ op: fc.constant('payin' as const), cents: fc.integer({ min: 100, max: 500_000 }), outcome: fc.constantFrom('complete', 'refund', 'expire') }),
      fc.record({ op: fc.constant('payout' as const), micro: fc.integer({ min: 1_000_000, max: 50_000_000 }), outcome: fc.constantFrom('complete', 'fail') }),
      fc.record({ op: fc.constant('settle' as const) }),
    );
    let run = 0;
    let completedFees = decimal(0);
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 6 }), async (operations) => {
        clock.set(NOON_SP);
        const { merchant, receiverId } = await feeMerchant(`Loja Prop ${run++}`);
        for (const step of operations) {
          clock.advance(1000);
          if (step.op === 'settle') {
            await ctx.app.services.ledger.settleMerchant(merchant.merchantId, clock.now());
          } else if (step.op === 'payin') {
            const created = await call('POST', '/payin', merchant, { receiverId, amountBrl: step.cents / 100 });
            expect(created.statusCode, created.body).toBe(201);
            const order = created.json();
            if (step.outcome === 'expire') {
              clock.advance(900_000);
            } else {
              if (step.outcome === 'refund') await call('POST', `/sandbox/orders/${order.id}/fail`, merchant, { step: 'CHAIN_TRANSFER' });
              await call('POST', `/sandbox/orders/${order.id}/pix-payment`, merchant, {});
            }
          } else {
            const created = await call('POST', '/payout', merchant, { receiverId, amountCrypto: step.micro / 1_000_000, sourceToken: 'USDC' });
            expect(created.statusCode, created.body).toBe(201);
            const order = created.json();
            await call('POST', `/sandbox/orders/${order.id}/deposit`, merchant, {});
            await ctx.app.services.orderSteps.runDuePass();
            await ctx.app.services.orderSteps.runDuePass();
            if (step.outcome === 'fail') await call('POST', `/sandbox/orders/${order.id}/fail`, merchant, { step: 'PIX_PAYOUT' });
          }
          await drive();
        }
        expect(await unbalancedEntries()).toEqual([]);
        const recognised = await ctx.database.db
          .selectFrom('orders')
          .select((eb) => eb.fn.coalesce(eb.fn.sum<string>('merchant_fee_amount_brl'), sql<string>`0`).as('fees'))
          .where('merchant_id', '=', merchant.merchantId)
          .where('status', '=', 'COMPLETED')
          .executeTakeFirstOrThrow();
        const balance = (await call('GET', '/ledger/fees/balance', merchant)).json().balance;
        const settled = (await call('GET', '/ledger/settlements?pageSize=100', merchant)).json().settlements.reduce((sum: ReturnType<typeof decimal>, s: Json) => sum.plus(s.amountBrl), decimal(0));
        expect(decimal(balance).plus(settled).toFixed(2)).toBe(decimal(String(recognised.fees)).toFixed(2));
        completedFees = completedFees.plus(String(recognised.fees));
      }),
      { numRuns: 12 },
    );
    // The runs did recognise fees (the invariant was not checked on empty ledgers only).
    expect(completedFees.gt(0)).toBe(true);
    clock.set(NOON_SP);
  });
});
