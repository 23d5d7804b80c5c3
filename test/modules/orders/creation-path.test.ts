/**
 * The round trips of order creation (create-order.ts): the month's completed volume read from
 * its counter (migration 0010) picks the fee tier, the merchant's bands come from a cache its own
 * changes clear, and the one-statement insert (creation-repo.ts) reserves nothing unless it
 * inserts.
 */
import { describe, expect, it } from 'vitest';
import { expectErrorBody } from '../../helpers/app.ts';
import { newId } from '../../../src/lib/ids.ts';
import { creationRepo } from '../../../src/modules/orders/creation/creation-repo.ts';
import { type Json, ordersTest } from './helpers.ts';

const TWO_BANDS = [
  { minVolumeBrl: 0, maxVolumeBrl: 1000, merchantFeePercentage: 0.02 },
  { minVolumeBrl: 1000, maxVolumeBrl: null, merchantFeePercentage: 0.005 },
];

describe('order creation: volume, tiers and the one-statement insert', () => {
  const t = ordersTest();

  const usage = async (receiverId: string) =>
    t.ctx.database.db.selectFrom('receiver_daily_usage').select(['order_count', 'amount_brl']).where('receiver_id', '=', receiverId).executeTakeFirst();

  it('an order completed this month moves the merchant into the next tier for the following orders', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    await t.call('PUT', '/fee-tiers/PAYIN', merchant, TWO_BANDS);
    const first = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 1000 });
    expect(first.merchantFeePercentage).toBe(0.02);
    await t.call('POST', `/sandbox/orders/${first.id}/pix-payment`, merchant, {});
    await t.drive();
    expect((await t.call('GET', `/orders/${first.id}`, merchant)).json().status).toBe('COMPLETED');
    const second = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 100 });
    expect(second.merchantFeePercentage).toBe(0.005);
    // PAYOUT volume is its own: still the first band.
    await t.call('PUT', '/fee-tiers/PAYOUT', merchant, TWO_BANDS);
    expect((await t.payout(merchant, { receiverId: receiver.id, amountCrypto: 10, sourceToken: 'USDC' })).merchantFeePercentage).toBe(0.02);
  });

  it('the completed volume counter equals the sum of completed orders, per month', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const orders: Json[] = [];
    for (const amountBrl of [10.55, 20.45]) orders.push(await t.payin(merchant, { receiverId: receiver.id, amountBrl }));
    for (const order of orders) await t.call('POST', `/sandbox/orders/${order.id}/pix-payment`, merchant, {});
    await t.drive();
    const rows = await t.ctx.database.db.selectFrom('merchant_completed_volume').select(['month', 'amount_brl']).where('merchant_id', '=', merchant.merchantId).execute();
    expect(new Set(rows.map((row) => row.month))).toEqual(new Set(['2026-11-01']));
    expect(rows.reduce((sum, row) => sum + Math.round(Number(row.amount_brl) * 100), 0)).toBe(3100);
  });

  it('a change of tiers applies to the very next order (the cached bands are forgotten)', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    await t.call('PUT', '/fee-tiers/PAYIN', merchant, [{ minVolumeBrl: 0, maxVolumeBrl: null, merchantFeePercentage: 0.01 }]);
    expect((await t.payin(merchant, { receiverId: receiver.id, amountBrl: 10 })).merchantFeePercentage).toBe(0.01);
    await t.call('PUT', '/fee-tiers/PAYIN', merchant, [{ minVolumeBrl: 0, maxVolumeBrl: null, merchantFeePercentage: 0.03 }]);
    expect((await t.payin(merchant, { receiverId: receiver.id, amountBrl: 10 })).merchantFeePercentage).toBe(0.03);
  });

  it('creations refused for a taken externalId reserve nothing of the day', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    await t.call('PUT', `/receivers/${receiver.id}/limits`, merchant, { dailyLimitBrl: null, dailyTransactionLimit: 2, nightTransactionsEnabled: false });
    const raced = await Promise.all(Array.from({ length: 5 }, () => t.call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 10, externalId: 'once' })));
    expect(raced.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(await usage(receiver.id)).toEqual({ order_count: 1, amount_brl: '10.00' });
    expect((await t.call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 10 })).statusCode).toBe(201);
    expectErrorBody(await t.call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 10 }), 422, 'LIMIT_EXCEEDED');
  });

  describe('insertReserved', () => {
    /** `fullDay`: the receiver allows one order a day and has made it. */
    async function attempt(overrides: { atNight?: boolean; dailyTransactionLimit?: number | null; status?: string; fullDay?: boolean }) {
      const { merchant, receiver } = await t.merchantWithReceiver();
      const db = t.ctx.database.db;
      if (overrides.status) await db.updateTable('receivers').set({ status: overrides.status as 'SUSPENDED' }).where('id', '=', receiver.id).execute();
      if (overrides.fullDay) {
        await db.updateTable('receivers').set({ daily_transaction_limit: 1 }).where('id', '=', receiver.id).execute();
        await db.insertInto('receiver_daily_usage').values({ receiver_id: receiver.id, day: '2026-11-23', order_count: 1, amount_brl: '5.00' }).execute();
      }
      const now = new Date();
      const row = {
        id: newId(),
        merchant_id: merchant.merchantId,
        receiver_id: receiver.id as string,
        type: 'PAYIN' as const,
        status: 'AWAITING_PAYMENT' as const,
        chain: 'solana',
        token: 'USDC',
        amount_brl: '10.00',
        amount_token: '1.851851',
        exchange_rate: '5.4',
        platform_fee_percentage: '0',
        merchant_fee_percentage: '0',
        platform_fee_amount_brl: '0.00',
        merchant_fee_amount_brl: '0.00',
        net_amount_brl: '10.00',
        destination_wallet: receiver.walletAddress as string,
        limit_day: '2026-11-23',
        expires_at: new Date(now.getTime() + 900_000),
        created_at: now,
        updated_at: now,
      };
      const inserted = await creationRepo.insertReserved(t.ctx.database.db, {
        row,
        amountBrl: row.amount_brl,
        atNight: overrides.atNight ?? false,
        dailyLimitBrl: null,
        dailyTransactionLimit: overrides.fullDay ? 1 : (overrides.dailyTransactionLimit ?? null),
      });
      return { inserted, used: await usage(receiver.id) };
    }

    it('inserts the order and counts it against the day', async () => {
      const { inserted, used } = await attempt({});
      expect(inserted?.status).toBe('AWAITING_PAYMENT');
      expect(inserted?.amount_brl).toBe('10.00');
      expect(used).toEqual({ order_count: 1, amount_brl: '10.00' });
    });

    it.each([
      ['the receiver is no longer ACTIVE', { status: 'SUSPENDED' }],
      ['it is night and the receiver does not allow it', { atNight: true }],
      ['the receiver’s limits differ from those the early check used', { dailyTransactionLimit: 5 }],
    ])('inserts nothing and reserves nothing when %s', async (_why, overrides) => {
      const { inserted, used } = await attempt(overrides);
      expect(inserted).toBeUndefined();
      expect(used).toBeUndefined();
    });

    it('inserts nothing and leaves the day as it was when the day is full', async () => {
      const { inserted, used } = await attempt({ fullDay: true });
      expect(inserted).toBeUndefined();
      expect(used).toEqual({ order_count: 1, amount_brl: '5.00' });
    });
  });
});
