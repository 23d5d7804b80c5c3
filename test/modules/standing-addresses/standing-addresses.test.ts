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
});
