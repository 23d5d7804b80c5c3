/**
 * Standing PIX charges (issue 43, item 2; docs/decisions/0045-standing-pix-charges.md): the routes,
 * and what each PIX paid to a charge's static code does on the sandbox PSP: a PAYIN made in the
 * notification's transaction (order.created), completed by the usual transitions, or returned.
 */
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestMerchant } from '../../helpers/app.ts';
import { randomCpf } from '../../helpers/documents.ts';
import { type Json, ordersTest } from '../orders/helpers.ts';
import { confirmPixNotification } from '../../../src/modules/orders/psp/pix-confirmation.ts';

describe('standing PIX charges', () => {
  const t = ordersTest();
  const create = async (merchant: TestMerchant, receiverId: string, body: Json = {}) => t.call('POST', `/receivers/${receiverId}/standing-charges`, merchant, body);
  const charge = async (merchant: TestMerchant, receiverId: string, body: Json = {}) => {
    const response = await create(merchant, receiverId, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as Json;
  };
  const pay = async (merchant: TestMerchant, made: Json, body: Json = {}) => {
    const response = await t.call('POST', `/sandbox/receivers/${made.receiverId}/standing-charges/${made.id}/pix-payment`, merchant, body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Json;
  };
  const order = async (merchant: TestMerchant, id: string) => (await t.call('GET', `/orders/${id}`, merchant)).json() as Json;
  const ordersOf = (chargeId: string) =>
    t.ctx.database.db.selectFrom('orders').select(['id', 'status', 'pix_end_to_end_id', 'pix_txid', 'limit_released']).where('source_id', '=', chargeId).orderBy('created_at').execute();

  it('is made for an APPROVED, ACTIVE receiver with a wallet: a static code with its own txid; listed, read and disabled', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const open = await charge(merchant, receiver.id, { description: 'loja física' });
    expect(open).toMatchObject({ receiverId: receiver.id, status: 'ACTIVE', amountBrl: null, token: 'USDC', chain: 'solana', destinationWallet: receiver.walletAddress, description: 'loja física', disabledAt: null });
    expect(open.txid).toMatch(/^[A-Za-z0-9]{25}$/);
    // A static code (no point of initiation 12), the platform's key in 26, no amount (54), the txid in 62/05.
    expect(open.pixCopiaECola).toContain(`0525${open.txid}`);
    expect(open.pixCopiaECola).not.toMatch(/^000201010212/);
    const fixed = await charge(merchant, receiver.id, { amountBrl: '150.00' });
    expect(fixed.amountBrl).toBe(150);
    expect(fixed.pixCopiaECola).toContain('5406150.00');
    const list = await t.call('GET', `/receivers/${receiver.id}/standing-charges`, merchant);
    expect(list.json().data.map((c: Json) => c.id)).toEqual([fixed.id, open.id]);
    expect((await t.call('GET', `/receivers/${receiver.id}/standing-charges/${open.id}`, merchant)).json()).toEqual(open);
    const disabled = await t.call('POST', `/receivers/${receiver.id}/standing-charges/${open.id}/disable`, merchant);
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(disabled.json()).toMatchObject({ status: 'DISABLED', disabledAt: expect.any(String) });
    // Again: answered as it is.
    expect((await t.call('POST', `/receivers/${receiver.id}/standing-charges/${open.id}/disable`, merchant)).json()).toEqual(disabled.json());
  });

  it('refuses an unknown or foreign receiver (404), one without a wallet or not approved (422), and a bad amount (400)', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const other = await t.merchant('Outra Loja');
    expect((await create(other, receiver.id)).statusCode).toBe(404);
    expect((await create(merchant, '00000000-0000-7000-8000-000000000000')).json()).toMatchObject({ error: 'NOT_FOUND' });
    expect((await t.call('GET', `/receivers/${receiver.id}/standing-charges/00000000-0000-7000-8000-000000000000`, merchant)).statusCode).toBe(404);
    const walletless = await t.activeReceiver(merchant, { walletAddress: undefined });
    const noWallet = await create(merchant, walletless.id);
    expect(noWallet.statusCode).toBe(422);
    expect(noWallet.json().error).toBe('NO_RECEIVER_WALLET');
    const pending = await t.pendingReceiver(merchant);
    expect((await create(merchant, pending.id)).json().error).toBe('KYC_NOT_APPROVED');
    expect((await create(merchant, receiver.id, { amountBrl: '10.001' })).statusCode).toBe(400);
  });

  it('two PIX paid to one charge make two PAYINs, each COMPLETED with its transfer, announced by order.created', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const open = await charge(merchant, receiver.id);
    const first = await pay(merchant, open, { amountBrl: '100.00' });
    const second = await pay(merchant, open, { amountBrl: '250.50' });
    expect(first.id).not.toBe(second.id);
    expect([first.status, second.status]).toEqual(['PAYMENT_RECEIVED', 'PAYMENT_RECEIVED']);
    await t.drive();
    for (const [made, amount] of [[first, 100], [second, 250.5]] as const) {
      const done = await order(merchant, made.id);
      expect(done).toMatchObject({ type: 'PAYIN', status: 'COMPLETED', amountBrl: amount, destinationWallet: receiver.walletAddress });
      const transfers = await t.ctx.database.db.selectFrom('order_transactions').select(['status']).where('order_id', '=', made.id).where('type', '=', 'CHAIN_TRANSFER').execute();
      expect(transfers.map((x) => x.status)).toContain('CONFIRMED');
      const events = await t.events(made.id);
      expect(events[0]).toMatchObject({ event_type: 'order.created', payload: { type: 'PAYIN', status: 'AWAITING_PAYMENT', amountBrl: amount, sourceKind: 'STANDING_PIX_CHARGE', sourceId: open.id } });
      expect(events.map((e) => e.event_type)).toEqual(expect.arrayContaining(['order.payment_received', 'order.completed']));
    }
    const rows = await ordersOf(open.id);
    expect(rows).toHaveLength(2);
    expect(rows.every((row) => row.pix_txid === null && row.pix_end_to_end_id !== null)).toBe(true);
  });

  it('a repeated notification makes nothing new; the PSP confirms a static PIX by its endToEndId', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const open = await charge(merchant, receiver.id);
    const notification = await t.ctx.app.services.adapters.sandbox.pix.simulateStaticPayment(open.txid, { amountBrl: '80.00', payer: null });
    const confirmed = await confirmPixNotification(t.ctx.app.services.adapters.pix, notification);
    expect(confirmed).toMatchObject({ confirmed: true, notification: { txid: open.txid, endToEndId: notification.endToEndId, amountBrl: '80.00' } });
    const notifications = t.ctx.app.services.orderNotifications;
    const made = await notifications.handlePixNotification(notification);
    const again = await notifications.handlePixNotification(notification);
    await Promise.all([notifications.handlePixNotification(notification), notifications.handlePixNotification(notification)]);
    expect(again?.id).toBe(made?.id);
    expect(await ordersOf(open.id)).toHaveLength(1);
    expect((await t.events(made!.id)).filter((e) => e.event_type === 'order.created')).toHaveLength(1);
  });

  it('reconciliation makes the order of a static PIX whose notification was lost, once', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const open = await charge(merchant, receiver.id);
    const lost = await t.ctx.app.services.adapters.sandbox.pix.simulateStaticPayment(open.txid, { amountBrl: '42.00', payer: null });
    t.clock.advance(1_000);
    expect((await t.ctx.app.services.reconciliation.runPass()).chargesApplied).toBeGreaterThanOrEqual(1);
    const rows = await ordersOf(open.id);
    expect(rows).toMatchObject([{ pix_end_to_end_id: lost.endToEndId, status: 'PAYMENT_RECEIVED' }]);
    await t.ctx.app.services.reconciliation.runPass();
    expect(await ordersOf(open.id)).toHaveLength(1);
  });

  it('a refused PIX is returned (natureza ORIGINAL): another amount than the fixed one, a disabled charge, over the limits, a third party under FIRST_PARTY', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const fixed = await charge(merchant, receiver.id, { amountBrl: '50.00' });
    const wrong = await pay(merchant, fixed, { amountBrl: '49.99' });
    expect(wrong.status).toBe('REFUNDING');
    expect(wrong.failureReason).toBe('PIX of 49.99 BRL to a standing charge of 50.00 BRL');
    const limited = await t.activeReceiver(merchant);
    const limits = await t.call('PUT', `/receivers/${limited.id}/limits`, merchant, { dailyLimitBrl: 100, dailyTransactionLimit: null, nightTransactionsEnabled: true });
    expect(limits.statusCode, limits.body).toBe(200);
    const capped = await charge(merchant, limited.id);
    const over = await pay(merchant, capped, { amountBrl: '100.01' });
    expect(over.status).toBe('REFUNDING');
    expect(over.failureReason).toContain('daily limits');
    const within = await pay(merchant, capped, { amountBrl: '100.00' });
    expect(within.status).toBe('PAYMENT_RECEIVED');
    const open = await charge(merchant, receiver.id);
    await t.call('POST', `/receivers/${receiver.id}/standing-charges/${open.id}/disable`, merchant);
    const toDisabled = await pay(merchant, open, { amountBrl: '20.00' });
    expect(toDisabled.failureReason).toBe('PIX to a disabled standing charge');
    const policy = await t.ctx.app.inject({ method: 'PUT', url: `/api/v1/admin/merchants/${merchant.merchantId}/policies`, headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload: { reason: 'review', payerPolicy: 'FIRST_PARTY' } });
    expect(policy.statusCode, policy.body).toBe(200);
    const third = await pay(merchant, await charge(merchant, receiver.id), { amountBrl: '30.00', payer: { document: randomCpf(), name: 'Carlos Terceiro' } });
    expect(third.failureReason).toContain('third party');
    await t.drive();
    for (const refused of [wrong, over, toDisabled, third]) {
      const ended = await order(merchant, refused.id);
      expect(ended.status, ended.failureReason).toBe('REFUNDED');
      const row = await t.ctx.database.db.selectFrom('orders').select(['refund_id', 'pix_end_to_end_id']).where('id', '=', refused.id).executeTakeFirstOrThrow();
      const refund = await t.ctx.database.db.selectFrom('sandbox_pix_refunds').selectAll().where('refund_id', '=', row.refund_id!).executeTakeFirstOrThrow();
      expect(refund).toMatchObject({ end_to_end_id: row.pix_end_to_end_id, status: 'DEVOLVIDO', nature: 'ORIGINAL' });
      expect(Number(refund.amount_brl)).toBe(ended.amountBrl);
    }
    // The refused one reserved nothing: the day holds only the accepted 100.00.
    const usage = await t.call('GET', `/receivers/${limited.id}/limits`, merchant);
    expect(usage.json()).toMatchObject({ usedTodayBrl: 100, ordersToday: 1 });
  });
});
