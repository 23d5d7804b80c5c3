/**
 * A PIX paid to a standing charge when the treasury on chain cannot send its tokens (decision
 * 0051): the PIX arrived, so its PAYIN is made (order.created), but refused at once and the PIX
 * returned, the end an over-admitted PAYIN reaches when its transfer fails, never a transfer
 * attempted. A node that cannot be read (the treasury's balance unknown) refuses nothing: the
 * PAYIN goes on and its transfer step waits the outage out as any PAYIN paid before it.
 */
import { describe, expect, it } from 'vitest';
import type { TestMerchant } from '../../helpers/app.ts';
import { type Json, ordersTest } from '../orders/helpers.ts';
import { fakeTreasury } from '../treasury/helpers.ts';

describe('standing charges against an on-chain treasury', () => {
  const treasury = fakeTreasury({ SOL: '2', USDC: '0' });
  const t = ordersTest(() => ({}), { treasuryReader: treasury.reader });

  const charge = async (merchant: TestMerchant, receiverId: string) => {
    const response = await t.call('POST', `/receivers/${receiverId}/standing-charges`, merchant, {});
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as Json;
  };
  const pay = async (merchant: TestMerchant, made: Json, amountBrl: string) => {
    const response = await t.call('POST', `/sandbox/receivers/${made.receiverId}/standing-charges/${made.id}/pix-payment`, merchant, { amountBrl });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Json;
  };
  const transfers = (orderId: string) => t.ctx.database.db.selectFrom('order_transactions').select('status').where('order_id', '=', orderId).where('type', '=', 'CHAIN_TRANSFER').execute();

  it('a treasury short of the tokens: the PAYIN is made and its PIX returned at once, no transfer tried; funded, the next PIX goes on', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const open = await charge(merchant, receiver.id);
    const refused = await pay(merchant, open, '40.00');
    expect(refused).toMatchObject({ type: 'PAYIN', status: 'REFUNDING', failureReason: 'The treasury cannot send the tokens now: the PIX is returned' });
    await t.drive();
    expect((await t.call('GET', `/orders/${refused.id}`, merchant)).json()).toMatchObject({ status: 'REFUNDED' });
    expect(await transfers(refused.id)).toEqual([]);
    const row = await t.ctx.database.db.selectFrom('orders').select(['refund_id', 'limit_released']).where('id', '=', refused.id).executeTakeFirstOrThrow();
    expect(row.limit_released).toBe(true);
    expect(await t.ctx.database.db.selectFrom('sandbox_pix_refunds').select(['status', 'nature']).where('refund_id', '=', row.refund_id!).executeTakeFirstOrThrow()).toEqual({ status: 'DEVOLVIDO', nature: 'ORIGINAL' });

    // Funded on chain: read again once the balance is old, and the next PIX makes a PAYIN that goes on.
    treasury.set('USDC', '1000');
    t.clock.advance(121_000);
    const accepted = await pay(merchant, open, '40.00');
    expect(accepted.status).toBe('PAYMENT_RECEIVED');
  });
});

describe('standing charges when the treasury node was never readable', () => {
  const treasury = fakeTreasury({ SOL: '2', USDC: '1000' });
  treasury.state.failing = true;
  const t = ordersTest(() => ({}), { treasuryReader: treasury.reader });

  it('refuses nothing: the balance unknown, the PAYIN goes on to its transfer', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const made = await t.call('POST', `/receivers/${receiver.id}/standing-charges`, merchant, {});
    expect(made.statusCode, made.body).toBe(201);
    // POST /payin is refused meanwhile (its liquidity unknown): a standing charge's PIX already arrived.
    expect((await t.call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 25 })).statusCode).toBe(503);
    const paid = await t.call('POST', `/sandbox/receivers/${receiver.id}/standing-charges/${made.json().id}/pix-payment`, merchant, { amountBrl: '25.00' });
    expect(paid.json()).toMatchObject({ status: 'PAYMENT_RECEIVED' });
    await t.drive();
    expect((await t.call('GET', `/orders/${paid.json().id}`, merchant)).json()).toMatchObject({ status: 'COMPLETED' });
  });
});
