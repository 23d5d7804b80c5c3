/**
 * Ledger entries written by order transitions: every movement of both lifecycles, each entry
 * zero-sum and posted once per (order, kind); a refunded payin nets to zero in transit and
 * recognises no fee. The platform's legs are read as the back office sees them (the `all` view):
 * GET /ledger/entries shows a merchant its own accounts only (balances.test.ts).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decimal } from '../../../src/lib/money.ts';
import { TestClock, type TestContext, createTestContext } from '../../helpers/app.ts';
import { type Json, NOON_SP, ledgerFixture } from './helpers.ts';

const clock = new TestClock(new Date(NOON_SP));
let ctx: TestContext;
const { call, feeMerchant, drive, completedPayin, unbalancedEntries } = ledgerFixture(() => ctx);
/** Every entry of the orders, with every leg. */
const allEntries = async (merchantId: string, ...orderIds: string[]) =>
  (await Promise.all(orderIds.map((id) => ctx.app.services.ledger.orderEntries(merchantId, id, 'all')))).flat() as Json[];

beforeAll(async () => {
  ctx = await createTestContext({}, { clock });
});
afterAll(() => ctx?.close());
beforeEach(() => clock.set(NOON_SP));

describe('entries', () => {
  it('posts every movement of both lifecycles, each entry zero-sum, once per (order, kind)', async () => {
    const { merchant, receiverId } = await feeMerchant('Loja Fluxos');
    const payin = await completedPayin(merchant, receiverId, 100);
    const payout = (await call('POST', '/payout', merchant, { receiverId, amountCrypto: 10, sourceToken: 'USDC' })).json();
    await call('POST', `/sandbox/orders/${payout.id}/deposit`, merchant, {});
    await drive();
    const entries = { entries: await allEntries(merchant.merchantId, payin.id, payout.id) };
    const kinds = entries.entries.map((e: Json) => `${e.referenceId === payin.id ? 'payin' : 'payout'}:${e.kind}`).sort();
    expect(kinds).toEqual(['payin:PAYIN_COMPLETED', 'payin:PAYIN_PIX_RECEIVED', 'payout:PAYOUT_COMPLETED', 'payout:PAYOUT_DEPOSIT_RECEIVED']);
    const payoutDone = entries.entries.find((e: Json) => e.kind === 'PAYOUT_COMPLETED')!;
    expect(payoutDone.postings).toEqual(
      expect.arrayContaining([
        { account: 'merchant_fees_payable', owner: 'merchant', currency: 'BRL', amount: '-0.54' },
        { account: 'pix_cash', owner: 'platform', currency: 'BRL', amount: '-53.19' },
        { account: 'fx_conversion', owner: 'platform', currency: 'USDC', amount: '-10' },
      ]),
    );
    expect(await unbalancedEntries()).toEqual([]);
    // Replaying a transition's posting is a no-op.
    const row = await ctx.database.db.selectFrom('orders').selectAll().where('id', '=', payin.id).executeTakeFirstOrThrow();
    const posted = await ctx.database.db.transaction().execute((trx) => ctx.app.services.ledger.postOrderEntries(trx, [{ order: row, movement: 'PAYIN_COMPLETED' }], clock.now()));
    expect(posted).toBe(0);
    expect((await call('GET', '/ledger/fees/balance', merchant)).json().balance).toBe('1.54');
  });

  it('a refunded payin nets to zero in transit and recognises no fee', async () => {
    const { merchant, receiverId } = await feeMerchant('Loja Estorno');
    const order = (await call('POST', '/payin', merchant, { receiverId, amountBrl: 80 })).json();
    await call('POST', `/sandbox/orders/${order.id}/fail`, merchant, { step: 'CHAIN_TRANSFER' });
    await call('POST', `/sandbox/orders/${order.id}/pix-payment`, merchant, {});
    await drive();
    expect((await call('GET', `/orders/${order.id}`, merchant)).json().status).toBe('REFUNDED');
    const entries = await allEntries(merchant.merchantId, order.id);
    expect(entries.map((e: Json) => e.kind).sort()).toEqual(['PAYIN_PIX_RECEIVED', 'PAYIN_REFUNDED']);
    // Neither touches a merchant account: the merchant's list has none of them.
    expect((await call('GET', '/ledger/entries', merchant)).json().entries).toEqual([]);
    const inTransit = entries.flatMap((e: Json) => e.postings).filter((p: Json) => p.account === 'customer_funds_in_transit');
    expect(inTransit.reduce((sum: ReturnType<typeof decimal>, p: Json) => sum.plus(p.amount), decimal(0)).toString()).toBe('0');
    expect((await call('GET', '/ledger/fees/balance', merchant)).json().balance).toBe('0.00');
  });
});
