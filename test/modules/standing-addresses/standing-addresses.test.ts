/**
 * Standing deposit addresses (issue 43, item 1; docs/decisions/0046-standing-addresses-hold-over-limit-deposits.md):
 * the routes: made for an APPROVED, ACTIVE receiver with a PIX key of its own, listed, read, disabled.
 */
import { describe, expect, it } from 'vitest';
import type { TestMerchant } from '../../helpers/app.ts';
import { type Json, ordersTest } from '../orders/helpers.ts';

describe('standing deposit addresses', () => {
  const t = ordersTest();
  const create = async (merchant: TestMerchant, receiverId: string, body: Json = {}) => t.call('POST', `/receivers/${receiverId}/standing-addresses`, merchant, body);
  const standing = async (merchant: TestMerchant, receiverId: string, body: Json = {}) => {
    const response = await create(merchant, receiverId, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as Json;
  };

  it("is made for an APPROVED, ACTIVE receiver: a new address paying the receiver's document key; listed, read and disabled", async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const first = await standing(merchant, receiver.id, { description: 'loja física' });
    expect(first).toMatchObject({ receiverId: receiver.id, status: 'ACTIVE', token: 'USDC', chain: 'solana', pixKey: receiver.document, description: 'loja física', disabledAt: null });
    expect(first.depositAddress).toEqual(expect.any(String));
    const second = await standing(merchant, receiver.id);
    // Never reused: each its own address.
    expect(second.depositAddress).not.toBe(first.depositAddress);
    const list = await t.call('GET', `/receivers/${receiver.id}/standing-addresses`, merchant);
    expect(list.json().data.map((a: Json) => a.id)).toEqual([second.id, first.id]);
    expect((await t.call('GET', `/receivers/${receiver.id}/standing-addresses/${first.id}`, merchant)).json()).toEqual(first);
    const disabled = await t.call('POST', `/receivers/${receiver.id}/standing-addresses/${first.id}/disable`, merchant);
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(disabled.json()).toMatchObject({ status: 'DISABLED', disabledAt: expect.any(String) });
    // Again: answered as it is.
    expect((await t.call('POST', `/receivers/${receiver.id}/standing-addresses/${first.id}/disable`, merchant)).json()).toEqual(disabled.json());
  });

  it('refuses an unknown or foreign receiver (404), one not approved (422), a key not the receiver\'s (422) and a bad body (400)', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const other = await t.merchant('Outra Loja');
    expect((await create(other, receiver.id)).statusCode).toBe(404);
    expect((await create(merchant, '00000000-0000-7000-8000-000000000000')).json()).toMatchObject({ error: 'NOT_FOUND' });
    expect((await t.call('GET', `/receivers/${receiver.id}/standing-addresses/00000000-0000-7000-8000-000000000000`, merchant)).statusCode).toBe(404);
    expect((await t.call('GET', `/receivers/${receiver.id}/standing-addresses`, other)).statusCode).toBe(404);
    const pending = await t.pendingReceiver(merchant);
    const notApproved = await create(merchant, pending.id);
    expect(notApproved.statusCode).toBe(422);
    expect(notApproved.json().error).toBe('KYC_NOT_APPROVED');
    expect((await create(merchant, receiver.id, { pixKey: 'x@example.com' })).statusCode).toBe(400);
    expect((await create(merchant, receiver.id, { sourceToken: 'NOPE' })).statusCode).toBe(400);
    expect((await create(merchant, receiver.id, { unknown: 1 })).statusCode).toBe(400);
    // Another person's CPF key: under RECEIVER_ONLY (the default policy), refused.
    const foreign = await create(merchant, receiver.id, { pixKey: '52998224725', pixKeyType: 'CPF' });
    expect(foreign.statusCode, foreign.body).toBe(422);
    expect(await t.ctx.database.db.selectFrom('standing_deposit_addresses').select('id').where('receiver_id', '=', receiver.id).execute()).toEqual([]);
  });

  const deposit = async (merchant: TestMerchant, made: Json, amountCrypto: string) => {
    const response = await t.call('POST', `/sandbox/receivers/${made.receiverId}/standing-addresses/${made.id}/deposit`, merchant, { amountCrypto });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as Json[];
  };

  it('three deposits make three PAYOUTs, each COMPLETED with its PIX, announced by order.created; a repeated detection credits once', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const made = await standing(merchant, receiver.id);
    for (const amount of ['10', '20', '30.5']) await deposit(merchant, made, amount);
    const deposits = (await t.call('GET', `/receivers/${receiver.id}/standing-addresses/${made.id}/deposits`, merchant)).json().data as Json[];
    expect(deposits).toHaveLength(3);
    expect(deposits.map((d) => d.status)).toEqual(['ORDERED', 'ORDERED', 'ORDERED']);
    expect(new Set(deposits.map((d) => d.orderId)).size).toBe(3);
    await t.drive();
    for (const d of deposits) {
      const order = (await t.call('GET', `/orders/${d.orderId}`, merchant)).json() as Json;
      expect(order).toMatchObject({ type: 'PAYOUT', status: 'COMPLETED', amountCrypto: d.amountCrypto, pixKey: receiver.document });
      const events = await t.events(d.orderId);
      expect(events[0]).toMatchObject({ event_type: 'order.created', payload: { type: 'PAYOUT', status: 'AWAITING_DEPOSIT', sourceKind: 'STANDING_DEPOSIT_ADDRESS', sourceId: made.id } });
      expect(events.map((e) => e.event_type)).toEqual(expect.arrayContaining(['order.deposit_received', 'order.completed']));
    }
    // The watcher sees the first deposit's signature again: recorded once, no second order.
    const standingDeposits = t.ctx.app.services.standingDeposits;
    const again = { depositAddress: made.depositAddress, token: 'USDC', amount: '10', txHash: deposits[2]!.signature, blockTime: null };
    expect(await standingDeposits.handleDeposit(again)).toBe('REPEATED');
    expect(await standingDeposits.runPass()).toBe(0);
    expect(await t.ctx.database.db.selectFrom('orders').select('id').where('source_id', '=', made.id).execute()).toHaveLength(3);
    // Not one of its addresses: the orders' rule applies.
    expect(await standingDeposits.handleDeposit({ ...again, depositAddress: 'elsewhere', txHash: 'other' })).toBeUndefined();
  });

  it('holds a deposit below the minimum order for review, visible on the address; a disabled address makes no order', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const made = await standing(merchant, receiver.id);
    const [held] = await deposit(merchant, made, '0.01');
    expect(held).toMatchObject({ status: 'HELD_BELOW_MINIMUM', orderId: null, amountCrypto: 0.01, holdReason: expect.stringContaining('VALIDATION') });
    expect(await t.ctx.database.db.selectFrom('orders').select('id').where('source_id', '=', made.id).execute()).toEqual([]);
    await t.call('POST', `/receivers/${receiver.id}/standing-addresses/${made.id}/disable`, merchant);
    expect(await deposit(merchant, made, '10')).toHaveLength(1);
  });
});
