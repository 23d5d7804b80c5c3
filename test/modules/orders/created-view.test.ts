/**
 * The answer to a creating POST is built from the row in hand (no movements yet, the two names in
 * one query): it must be exactly what GET /orders/{id} shows for the same order.
 */
import { describe, expect, it } from 'vitest';
import { ordersTest } from './helpers.ts';

describe('the order a creating POST answers', () => {
  const t = ordersTest();

  it('equals GET /orders/{id} for a PAYIN and a PAYOUT', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver('Loja Resposta');
    for (const order of [await t.payin(merchant, { receiverId: receiver.id, amountBrl: 42.5 }), await t.payout(merchant, { receiverId: receiver.id, sourceToken: 'USDC', amountCrypto: 10 })]) {
      const read = await t.call('GET', `/orders/${order.id}`, merchant);
      expect(order).toEqual(read.json());
      expect(order).toMatchObject({ merchantName: 'Loja Resposta', receiverName: receiver.name, transactions: [] });
    }
  });
});
