/**
 * Issue 24 finding 3: a PAYOUT deposit never pays more than was ordered. Through the app and the
 * sandbox deposit driver: an over-payment completes the order for its ordered amount and holds
 * the excess in the ledger's deposits_to_return; the receiver's day and the order maximum hold
 * for what is actually paid out; an under-payment pays less; an exact deposit is unchanged.
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { decimal } from '../../../src/lib/money.ts';
import { setMerchantFee } from '../../helpers/factories.ts';
import type { TestMerchant } from '../../helpers/app.ts';
import { type Json, ordersTest } from './helpers.ts';

describe('PAYOUT deposits of another amount', () => {
  const t = ordersTest();
  const db = () => t.ctx.database.db;

  const deposit = async (who: TestMerchant, order: Json, amountCrypto?: number) => {
    const response = await t.call('POST', `/sandbox/orders/${order.id}/deposit`, who, amountCrypto === undefined ? {} : { amountCrypto });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Json;
  };
  const current = async (who: TestMerchant, order: Json) => (await t.call('GET', `/orders/${order.id}`, who)).json() as Json;
  /** The PIX the sandbox bank was asked to send for the order, in BRL. */
  const pixSent = async (orderId: string) => {
    const row = await db()
      .selectFrom('sandbox_pix_payouts as p')
      .innerJoin('orders as o', 'o.provider_transaction_id', 'p.provider_transaction_id')
      .select('p.amount_brl')
      .where('o.id', '=', orderId)
      .executeTakeFirstOrThrow();
    return decimal(row.amount_brl).toFixed(2);
  };
  const usedToday = async (receiverId: string) =>
    decimal((await db().selectFrom('receiver_daily_usage').select('amount_brl').where('receiver_id', '=', receiverId).executeTakeFirstOrThrow()).amount_brl).toFixed(2);
  /** The order's ledger postings summed per account and currency (accounts of every owner). */
  const ledgerOf = async (orderId: string) => {
    const { rows } = await sql<{ code: string; currency: string; total: string }>`
      select a.code, p.currency, sum(p.amount)::text as total
      from ledger_entries e join ledger_postings p on p.entry_id = e.id join ledger_accounts a on a.id = p.account_id
      where e.reference_type = 'order' and e.reference_id = ${orderId}
      group by a.code, p.currency`.execute(db());
    return Object.fromEntries(rows.map((row) => [`${row.code} ${row.currency}`, decimal(row.total).toString()]));
  };
  const sumsPerCurrency = (ledger: Record<string, string>) => {
    const sums: Record<string, string> = {};
    for (const [key, amount] of Object.entries(ledger)) {
      const currency = key.split(' ')[1]!;
      sums[currency] = decimal(sums[currency] ?? 0).plus(amount).toString();
    }
    return sums;
  };

  it('the issue’s case: 10 USDC ordered with a daily limit of 100 BRL, 1,000,000 deposited → the PIX pays the order’s net, the excess is held', async () => {
    const merchant = await t.merchant();
    const receiver = await t.activeReceiver(merchant, { limits: { dailyLimitBrl: 100 } });
    const order = await t.payout(merchant, { receiverId: receiver.id, amountCrypto: 10, sourceToken: 'USDC' });
    expect(order).toMatchObject({ amountCrypto: 10, amountBrl: 54, netAmountBrl: 53.73 });

    const received = await deposit(merchant, order, 1_000_000);
    expect(received).toMatchObject({ status: 'DEPOSIT_RECEIVED', amountCrypto: 10, amountBrl: 54, platformFeeAmountBrl: 0.27, netAmountBrl: 53.73 });
    await t.drive();
    const done = await current(merchant, order);
    expect(done).toMatchObject({ status: 'COMPLETED', amountCrypto: 10, amountBrl: 54, netAmountBrl: 53.73 });
    expect(done.transactions.map((tx: Json) => [tx.type, tx.status, tx.amount, tx.currency])).toEqual([
      ['CHAIN_DEPOSIT', 'CONFIRMED', 1_000_000, 'USDC'],
      ['CHAIN_DEPOSIT_EXCESS', 'HELD', 999_990, 'USDC'],
      ['PIX_OUT', 'CONFIRMED', 53.73, 'BRL'],
    ]);

    expect(await pixSent(order.id)).toBe('53.73');
    expect(await usedToday(receiver.id)).toBe('54.00');
    const row = await db().selectFrom('orders').select('excess_amount_token').where('id', '=', order.id).executeTakeFirstOrThrow();
    expect(decimal(row.excess_amount_token).toString()).toBe('999990');

    const ledger = await ledgerOf(order.id);
    expect(sumsPerCurrency(ledger)).toEqual({ USDC: '0', BRL: '0' });
    expect(ledger).toMatchObject({
      'token_treasury USDC': '1000000',
      'customer_funds_in_transit USDC': '0',
      'deposits_to_return USDC': '-999990',
      'pix_cash BRL': '-53.73',
    });
    // The merchant's account: what the platform owes it back, in tokens.
    const toReturn = await db()
      .selectFrom('ledger_postings as p')
      .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
      .select((eb) => eb.fn.sum<string>('p.amount').as('total'))
      .where('a.code', '=', 'deposits_to_return')
      .where('a.merchant_id', '=', merchant.merchantId)
      .executeTakeFirstOrThrow();
    expect(decimal(toReturn.total).toString()).toBe('-999990');

    const events = await t.events(order.id);
    expect(events.find((e) => e.event_type === 'order.deposit_received')!.payload.amountCrypto).toBe(1_000_000);
    expect(events.find((e) => e.event_type === 'order.completed')!.payload.amountBrl).toBe(54);
  });

  it('keeps the order maximum: an order near ORDER_MAX_AMOUNT_BRL over-paid twice over pays its own net', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const order = await t.payout(merchant, { receiverId: receiver.id, amountCrypto: 18_000, sourceToken: 'USDC' });
    expect(order).toMatchObject({ amountBrl: 97_200, netAmountBrl: 96_714 });
    await deposit(merchant, order, 36_000);
    await t.drive();
    const done = await current(merchant, order);
    expect(done).toMatchObject({ status: 'COMPLETED', amountBrl: 97_200, netAmountBrl: 96_714 });
    expect(decimal(done.amountBrl).lte(t.ctx.config.orders.maxAmountBrl)).toBe(true);
    expect(await pixSent(order.id)).toBe('96714.00');
  });

  it('an exact deposit is unchanged: no excess, two ledger legs, the ordered PIX', async () => {
    const merchant = await t.merchant();
    const receiver = await t.activeReceiver(merchant, { limits: { dailyLimitBrl: 100 } });
    const order = await t.payout(merchant, { receiverId: receiver.id, amountCrypto: 10, sourceToken: 'USDC' });
    await deposit(merchant, order);
    await t.drive();
    const done = await current(merchant, order);
    expect(done.transactions.map((tx: Json) => [tx.type, tx.amount])).toEqual([
      ['CHAIN_DEPOSIT', 10],
      ['PIX_OUT', 53.73],
    ]);
    expect(await pixSent(order.id)).toBe('53.73');
    const ledger = await ledgerOf(order.id);
    expect(Object.keys(ledger)).not.toContain('deposits_to_return USDC');
    expect(ledger['customer_funds_in_transit USDC']).toBe('0');
  });

  it('an under-payment pays less, within the day and never a centavo above the ordered net (fee rounding capped)', async () => {
    const merchant = await t.merchant();
    // A 2.5 % merchant fee: 5 USDC are 27.00 gross, 26.18 net; 4.999999 USDC are 26.99 gross, whose fees round down to leave 26.19.
    await setMerchantFee(t.ctx, merchant, 'PAYOUT', 0.025);
    const receiver = await t.activeReceiver(merchant, { limits: { dailyLimitBrl: 100 } });
    const order = await t.payout(merchant, { receiverId: receiver.id, amountCrypto: 5, sourceToken: 'USDC' });
    expect(order).toMatchObject({ amountBrl: 27, netAmountBrl: 26.18 });
    const received = await deposit(merchant, order, 4.999999);
    expect(received).toMatchObject({ amountCrypto: 4.999999, amountBrl: 26.99, netAmountBrl: 26.18, merchantFeeAmountBrl: 0.67, platformFeeAmountBrl: 0.14 });
    const half = await t.payout(merchant, { receiverId: receiver.id, amountCrypto: 10, sourceToken: 'USDC' });
    await deposit(merchant, half, 5);
    await t.drive();
    expect(await pixSent(order.id)).toBe('26.18');
    expect((await current(merchant, half)).status).toBe('COMPLETED');
    expect(await pixSent(half.id)).toBe('26.18');
    // The day keeps what creation reserved (27.00 + 54.00); what was paid out is within it.
    expect(await usedToday(receiver.id)).toBe('81.00');
    expect(sumsPerCurrency(await ledgerOf(order.id))).toEqual({ USDC: '0', BRL: '0' });
  });

  it('property: for any deposit, the BRL paid out is at most the net at creation and the day stays within its limit', async () => {
    const merchant = await t.merchant('Loja Propriedade');
    await setMerchantFee(t.ctx, merchant, 'PAYOUT', 0.025);
    let completed = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1_000_000, max: 18_000_000 }),
        fc.oneof(fc.integer({ min: 1, max: 40_000_000 }), fc.integer({ min: -20, max: 20 }), fc.integer({ min: 1, max: 1_000_000_000_000 })),
        async (orderedMicro, depositMicro) => {
          const receiver = await t.activeReceiver(merchant, { limits: { dailyLimitBrl: 100 } });
          const order = await t.payout(merchant, { receiverId: receiver.id, amountCrypto: orderedMicro / 1e6, sourceToken: 'USDC' });
          // A small integer is read as a difference from the ordered amount: the rounding edges.
          const micro = Math.abs(depositMicro) <= 20 ? orderedMicro + depositMicro : depositMicro;
          await deposit(merchant, order, micro / 1e6);
          await t.drive();
          const done = await current(merchant, order);
          if (done.status === 'FAILED') return;
          expect(done.status).toBe('COMPLETED');
          completed++;
          expect(decimal(await pixSent(order.id)).lte(order.netAmountBrl)).toBe(true);
          expect(decimal(await usedToday(receiver.id)).lte(100)).toBe(true);
          expect(sumsPerCurrency(await ledgerOf(order.id))).toEqual({ USDC: '0', BRL: '0' });
        },
      ),
      { numRuns: 12, seed: 24 },
    );
    expect(completed).toBeGreaterThan(0);
  });
});
