/**
 * GET /admin/orders and GET /admin/orders/{id}: an operator finds any merchant's order by any of
 * its ids (made real through the sandbox: a completed PAYIN, a completed PAYOUT, a refunded
 * PAYIN), filters and pages across merchants, and reads one order with its timeline.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { expectErrorBody } from '../../helpers/app.ts';
import { adminHeaders } from '../../helpers/factories.ts';
import type { TestMerchant } from '../../helpers/app.ts';
import { type Json, ordersTest } from '../orders/helpers.ts';

const t = ordersTest();

const admin = async (url: string) => t.ctx.app.inject({ method: 'GET', url: `/api/v1/admin${url}`, headers: adminHeaders });
const ids = (body: Json) => (body.data as Json[]).map((order) => order.id);

interface Refs {
  id: string;
  external_id: string | null;
  pix_txid: string | null;
  pix_end_to_end_id: string | null;
  provider_transaction_id: string | null;
  refund_id: string | null;
  tx_hash: string | null;
}

let merchantA: TestMerchant;
let merchantB: TestMerchant;
let completedPayin: Refs;
let completedPayout: Refs;
let refunded: Refs;
let awaitingA: Json;
let sharedB: Json;

const refsOf = (id: string) =>
  t.ctx.database.db
    .selectFrom('orders')
    .select(['id', 'external_id', 'pix_txid', 'pix_end_to_end_id', 'provider_transaction_id', 'refund_id', 'tx_hash'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

beforeAll(async () => {
  const a = await t.merchantWithReceiver('Loja Alfa');
  const b = await t.merchantWithReceiver('Loja Beta');
  merchantA = a.merchant;
  merchantB = b.merchant;
  const sandbox = (who: TestMerchant, order: Json, action: string, body: Json = {}) => t.call('POST', `/sandbox/orders/${order.id}/${action}`, who, body);

  const payin = await t.payin(merchantA, { receiverId: a.receiver.id, amountBrl: 100.5, externalId: 'alfa-1' });
  await sandbox(merchantA, payin, 'pix-payment');
  const payout = await t.payout(merchantB, { receiverId: b.receiver.id, amountCrypto: 2, sourceToken: 'USDC', externalId: 'beta-1' });
  await sandbox(merchantB, payout, 'deposit');
  const refundedPayin = await t.payin(merchantA, { receiverId: a.receiver.id, amountBrl: 12 });
  await sandbox(merchantA, refundedPayin, 'failure-injections', { step: 'CHAIN_TRANSFER' });
  await sandbox(merchantA, refundedPayin, 'pix-payment');
  await t.drive();
  awaitingA = await t.payin(merchantA, { receiverId: a.receiver.id, amountBrl: 13, externalId: 'shared-ref' });
  sharedB = await t.payout(merchantB, { receiverId: b.receiver.id, amountCrypto: 3, sourceToken: 'USDC', externalId: 'shared-ref' });

  completedPayin = await refsOf(payin.id);
  completedPayout = await refsOf(payout.id);
  refunded = await refsOf(refundedPayin.id);
});

describe('GET /admin/orders', () => {
  it('finds an order by each kind of id, whatever its merchant', async () => {
    expect(completedPayout.provider_transaction_id).not.toBeNull();
    expect(refunded.refund_id).not.toBeNull();
    const cases: Array<[string, string | null, string]> = [
      ['order id', completedPayin.id, completedPayin.id],
      ['externalId', 'alfa-1', completedPayin.id],
      ['PIX txid (paymentReference)', completedPayin.pix_txid, completedPayin.id],
      ['PIX endToEndId received', completedPayin.pix_end_to_end_id, completedPayin.id],
      ['chain transfer signature', completedPayin.tx_hash, completedPayin.id],
      ['externalId of another merchant', 'beta-1', completedPayout.id],
      ['PIX endToEndId paid', completedPayout.pix_end_to_end_id, completedPayout.id],
      ['payout provider id', completedPayout.provider_transaction_id, completedPayout.id],
      ['deposit signature', completedPayout.tx_hash, completedPayout.id],
      ['refund id', refunded.refund_id, refunded.id],
    ];
    for (const [kind, q, expected] of cases) {
      expect(q, kind).toEqual(expect.any(String));
      const response = await admin(`/orders?q=${encodeURIComponent(q!)}`);
      expect(response.statusCode, response.body).toBe(200);
      expect(ids(response.json()), kind).toEqual([expected]);
    }
  });

  it('finds an order by a replaced transfer signature (previous_tx_hashes)', async () => {
    await t.ctx.database.db
      .updateTable('order_transactions')
      .set({ previous_tx_hashes: ['replaced-signature-1', 'replaced-signature-2'] })
      .where('order_id', '=', completedPayin.id)
      .where('type', '=', 'CHAIN_TRANSFER')
      .execute();
    expect(ids((await admin('/orders?q=replaced-signature-2')).json())).toEqual([completedPayin.id]);
  });

  it('answers an AdminOrder with its merchant, amounts as numbers and what an operator may do', async () => {
    const body = (await admin(`/orders?q=${completedPayin.id}`)).json();
    expect(body.nextCursor).toBeNull();
    expect(body.data[0]).toEqual({
      id: completedPayin.id,
      merchantId: merchantA.merchantId,
      merchantName: 'Loja Alfa',
      receiverId: expect.any(String),
      type: 'PAYIN',
      status: 'COMPLETED',
      amountBrl: 100.5,
      token: 'USDC',
      chain: 'solana',
      externalId: 'alfa-1',
      failureReason: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      allowedActions: [],
      moneyHeld: false,
    });
  });

  it('returns every merchant\'s orders with the same externalId; nothing for an unknown id', async () => {
    expect(ids((await admin('/orders?q=shared-ref')).json())).toEqual([sharedB.id, awaitingA.id]);
    expect((await admin('/orders?q=shared-ref')).json().data.map((o: Json) => o.merchantName)).toEqual(['Loja Beta', 'Loja Alfa']);
    expect(ids((await admin('/orders?q=no-such-reference')).json())).toEqual([]);
    expect(ids((await admin('/orders?q=00000000-0000-7000-8000-000000000000')).json())).toEqual([]);
  });

  it('filters by merchant, status, type and creation time', async () => {
    const all = ids((await admin('/orders?limit=100')).json());
    expect(all).toEqual([sharedB.id, awaitingA.id, refunded.id, completedPayout.id, completedPayin.id]);
    expect(ids((await admin(`/orders?merchantId=${merchantB.merchantId}`)).json())).toEqual([sharedB.id, completedPayout.id]);
    expect(ids((await admin('/orders?status=REFUNDED')).json())).toEqual([refunded.id]);
    expect(ids((await admin('/orders?status=PENDING')).json())).toEqual([]);
    expect(ids((await admin(`/orders?type=PAYOUT&merchantId=${merchantB.merchantId}&status=COMPLETED`)).json())).toEqual([completedPayout.id]);
    expect(ids((await admin(`/orders?q=shared-ref&merchantId=${merchantA.merchantId}`)).json())).toEqual([awaitingA.id]);
    // The orders were created at the test clock's time; their createdAt bounds the window.
    const createdAt = (await admin(`/orders?q=${refunded.id}`)).json().data[0].createdAt as string;
    const after = ids((await admin(`/orders?createdAfter=${encodeURIComponent(createdAt)}`)).json());
    const before = ids((await admin(`/orders?createdBefore=${encodeURIComponent(createdAt)}`)).json());
    expect(after).toContain(refunded.id);
    expect(before).not.toContain(refunded.id);
    expect([...after, ...before].sort()).toEqual([...all].sort());
  });

  it('pages newest first with a cursor until nextCursor is null', async () => {
    const all = ids((await admin('/orders')).json());
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 10; page++) {
      const body: Json = (await admin(`/orders?limit=2${cursor ? `&cursor=${cursor}` : ''}`)).json();
      seen.push(...ids(body));
      expect(body.data.length).toBeLessThanOrEqual(2);
      cursor = body.nextCursor;
      if (cursor === null) break;
      expect(cursor).toBe(body.data.at(-1).id);
    }
    expect(seen).toEqual(all);
  });

  it('refuses malformed queries with 400', async () => {
    for (const query of ['limit=0', 'limit=101', 'cursor=not-a-uuid', 'merchantId=x', 'status=LOST', 'createdAfter=yesterday', 'q=', 'unknown=1']) {
      expectErrorBody(await admin(`/orders?${query}`), 400, 'VALIDATION_ERROR');
    }
  });
});

describe('GET /admin/orders/{id}', () => {
  it("answers any merchant's order with its references and the merchant's own timeline", async () => {
    const response = await admin(`/orders/${completedPayout.id}`);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      id: completedPayout.id,
      merchantId: merchantB.merchantId,
      merchantName: 'Loja Beta',
      type: 'PAYOUT',
      status: 'COMPLETED',
      externalId: 'beta-1',
      providerTransactionId: completedPayout.provider_transaction_id,
      pixEndToEndId: completedPayout.pix_end_to_end_id,
      txHash: completedPayout.tx_hash,
      // A PAYOUT's signature is its deposit: no treasury wallet signed it.
      treasuryWallet: null,
      refundId: null,
      paymentReference: null,
      nextStepAt: null,
      allowedActions: [],
      moneyHeld: false,
    });
    // The merchant's timeline, but with the platform's ledger legs (decision 0041): the same
    // entries once those are taken out.
    const timeline = (await t.call('GET', `/orders/${completedPayout.id}/timeline`, merchantB)).json();
    const merchantLegs = (body.timeline as Json[])
      .map((e) => (e.ledgerEntry ? { ...e, ledgerEntry: { ...e.ledgerEntry, postings: e.ledgerEntry.postings.filter((p: Json) => p.owner === 'merchant') } } : e))
      .filter((e) => !e.ledgerEntry || e.ledgerEntry.postings.length > 0);
    expect(merchantLegs).toEqual(timeline.entries);
    expect((body.timeline as Json[]).flatMap((e) => e.ledgerEntry?.postings ?? []).map((p: Json) => p.owner)).toContain('platform');
    expect(body.timeline.map((e: Json) => e.kind)).toContain('TRANSACTION');
    // A PAYIN's transfer names the wallet that signed it (one wallet here).
    expect((await admin(`/orders/${completedPayin.id}`)).json()).toMatchObject({ txHash: completedPayin.tx_hash, treasuryWallet: 1 });
  });

  it("shows the fees, the partner markup and the net apart, as the merchant's order has them", async () => {
    const money = (order: Json) => ({ platformFeeAmountBrl: order.platformFeeAmountBrl, merchantFeeAmountBrl: order.merchantFeeAmountBrl, markup: order.markup, netAmountBrl: order.netAmountBrl });
    const plain = (await admin(`/orders/${completedPayout.id}`)).json();
    expect(plain.markup).toBeNull();
    expect(money(plain)).toEqual(money((await t.call('GET', `/orders/${completedPayout.id}`, merchantB)).json()));

    const { merchant, receiver } = await t.merchantWithReceiver();
    expect((await t.call('PUT', '/markups/PAYIN', merchant, { bps: 80, flatBrl: '1.00', capBrl: '2.00' })).statusCode).toBe(200);
    const order = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 200 });
    const body = (await admin(`/orders/${order.id}`)).json();
    // 0.8 % of 200.00 is 1.60, plus 1.00, capped at 2.00.
    expect(body.markup).toEqual({ bps: 80, flatBrl: 1, capBrl: 2, amountBrl: 2 });
    expect(money(body)).toEqual(money(order));
  });

  it('is 404 for an unknown id and 400 for a malformed one', async () => {
    expectErrorBody(await admin('/orders/00000000-0000-7000-8000-000000000000'), 404, 'NOT_FOUND');
    expectErrorBody(await admin('/orders/not-an-id'), 400, 'VALIDATION_ERROR');
  });
});
