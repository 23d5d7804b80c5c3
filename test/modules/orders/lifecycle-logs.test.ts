/**
 * An order's life in the logs (issue 40; docs/architecture/overview.md, "Following an order in
 * the logs"): a PAYIN and a PAYOUT driven to COMPLETED on the sandbox PSP and chain with the real
 * worker steps, the app logging to a captured pino destination. Each order has its "order
 * created" line, then one "order moved" line per change, in order, with the reference of each
 * step; the requests that touched it name it (and a receiver's, a merchant's, by id); and nothing in the whole log is a CPF, a name, a PIX
 * key or a secret. A change whose transaction rolled back writes no line.
 */
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logger.ts';
import { inTransaction } from '../../../src/platform/commit-signals.ts';
import { ADMIN_TOKEN } from '../../helpers/app.ts';
import { type Json, ordersTest } from './helpers.ts';

let captured = '';
const logger = createLogger('info', { write: (line: string) => void (captured += line) });
const lines = (): Json[] =>
  captured
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Json);
/** The order's lifecycle lines, as "created STATUS" and "FROM → TO". */
const lifecycleOf = (orderId: string) => lines().filter((line) => line.orderId === orderId && (line.msg === 'order created' || line.msg === 'order moved'));
const steps = (of: Json[]) => of.map((line) => (line.msg === 'order created' ? `created ${line.status}` : `${line.from} → ${line.to}`));
const requestLine = (method: string, route: string) => lines().filter((line) => line.msg === 'request completed' && line.method === method && line.route === route);

describe('order lifecycle logs', () => {
  const t = ordersTest(() => ({}), { logger });
  /** Every receiver's document and every merchant's API secret the tests used: none may be in the log. */
  const forbidden: string[] = [];
  const merchantWithReceiver = async () => {
    const made = await t.merchantWithReceiver('Loja Logs');
    forbidden.push(made.merchant.apiSecret, String(made.receiver.document));
    return made;
  };

  it('follow a PAYIN to COMPLETED: created, each change with its reference, the requests naming the order', async () => {
    const { merchant, receiver } = await merchantWithReceiver();
    const order = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 150.75, externalId: 'pedido-log-1' });
    await t.call('POST', `/sandbox/orders/${order.id}/pix-payment`, merchant, {});
    await t.drive();
    const done = (await t.call('GET', `/orders/${order.id}`, merchant)).json();
    expect(done.status).toBe('COMPLETED');
    const [pixIn, transfer] = done.transactions as Json[];

    const got = lifecycleOf(order.id);
    expect(steps(got)).toEqual(['created AWAITING_PAYMENT', 'AWAITING_PAYMENT → PAYMENT_RECEIVED', 'PAYMENT_RECEIVED → SWAPPING', 'SWAPPING → TRANSFERRING', 'TRANSFERRING → COMPLETED']);
    for (const line of got) expect(line).toMatchObject({ level: 30, orderId: order.id, merchantId: merchant.merchantId, type: 'PAYIN' });
    const [created, paid, swapping, transferring, completed] = got as [Json, Json, Json, Json, Json];
    expect(created).toMatchObject({ pixTxid: order.paymentReference, targetToken: 'USDC', chain: 'solana' });
    expect(Number(created.amountBrl)).toBe(150.75);
    expect(paid).toMatchObject({ pixEndToEndId: pixIn!.txHash, currency: 'BRL' });
    expect(Number(paid.amount)).toBe(150.75);
    expect(swapping.txHash).toBeUndefined();
    expect(transferring).toMatchObject({ txHash: transfer!.txHash, currency: 'USDC' });
    expect(completed).toMatchObject({ txHash: transfer!.txHash, pixEndToEndId: pixIn!.txHash, currency: 'USDC' });
    expect(Number(completed.amount)).toBe(order.amountToken);

    // The requests that created, paid and read it carry its id.
    expect(requestLine('POST', '/api/v1/payin').map((line) => line.orderId)).toContain(order.id);
    expect(requestLine('POST', '/api/v1/sandbox/orders/:id/pix-payment').map((line) => line.orderId)).toContain(order.id);
    expect(requestLine('GET', '/api/v1/orders/:id').map((line) => line.orderId)).toContain(order.id);
  });

  it('follow a PAYOUT to COMPLETED: created, deposit found, PIX out, completed', async () => {
    const { merchant, receiver } = await merchantWithReceiver();
    const order = await t.payout(merchant, { receiverId: receiver.id, amountCrypto: 100, sourceToken: 'USDC' });
    await t.call('POST', `/sandbox/orders/${order.id}/deposit`, merchant, {});
    await t.drive();
    const done = (await t.call('GET', `/orders/${order.id}`, merchant)).json();
    expect(done.status).toBe('COMPLETED');
    const [deposit, pixOut] = done.transactions as Json[];
    const sent = (await t.events(order.id)).find((event) => event.event_type === 'order.pix_sending')!;

    const got = lifecycleOf(order.id);
    expect(steps(got)).toEqual(['created AWAITING_DEPOSIT', 'AWAITING_DEPOSIT → DEPOSIT_RECEIVED', 'DEPOSIT_RECEIVED → PIX_SENDING', 'PIX_SENDING → PIX_SENT_UNCONFIRMED', 'PIX_SENT_UNCONFIRMED → COMPLETED']);
    for (const line of got) expect(line).toMatchObject({ level: 30, orderId: order.id, merchantId: merchant.merchantId, type: 'PAYOUT' });
    const [created, deposited, sending, sentLine, completed] = got as [Json, Json, Json, Json, Json];
    expect(created).toMatchObject({ depositAddress: order.depositAddress, sourceToken: 'USDC' });
    expect(deposited).toMatchObject({ txHash: deposit!.txHash, currency: 'USDC' });
    expect(Number(deposited.amount)).toBe(100);
    expect(sending.providerTransactionId).toBeUndefined();
    expect(sentLine).toMatchObject({ providerTransactionId: sent.payload.pspTransactionId, currency: 'BRL' });
    expect(completed).toMatchObject({ pixEndToEndId: pixOut!.txHash, providerTransactionId: sent.payload.pspTransactionId });
    expect(requestLine('POST', '/api/v1/payout').map((line) => line.orderId)).toContain(order.id);
    expect(requestLine('POST', '/api/v1/sandbox/orders/:id/deposit').map((line) => line.orderId)).toContain(order.id);
  });

  it('names the other resources a request touched by id: a receiver made or read, a merchant in the back office', async () => {
    const merchant = await t.merchant();
    const receiver = await t.pendingReceiver(merchant);
    await t.call('GET', `/receivers/${receiver.id}/limits`, merchant);
    await t.ctx.app.inject({ method: 'GET', url: `/api/v1/admin/merchants/${merchant.merchantId}`, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(requestLine('POST', '/api/v1/receivers').map((line) => line.receiverId)).toContain(receiver.id);
    expect(requestLine('GET', '/api/v1/receivers/:id/limits').map((line) => line.receiverId)).toContain(receiver.id);
    expect(requestLine('GET', '/api/v1/admin/merchants/:id').map((line) => line.merchantId)).toContain(merchant.merchantId);
  });

  it('names no order on a request whose id is not one (the caller text is not logged)', async () => {
    const merchant = await t.merchant();
    expect((await t.call('GET', '/orders/not-an-order-id', merchant)).statusCode).toBe(400);
    const [line] = requestLine('GET', '/api/v1/orders/:id').filter((request) => request.statusCode === 400);
    expect(line).toBeDefined();
    expect(line!.orderId).toBeUndefined();
    expect(captured).not.toContain('not-an-order-id');
  });

  it('writes no line for a change whose transaction rolled back, and one once it commits', async () => {
    const { merchant, receiver } = await merchantWithReceiver();
    const order = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 20 });
    const { db } = t.ctx.database;
    const { orderNotifications } = t.ctx.app.services;
    const paid = { kind: 'charge_paid' as const, txid: order.paymentReference, endToEndId: 'E12345678202611231500ROLLBACK001', amountBrl: '20.00', paidAt: t.clock.now() };
    await expect(
      inTransaction(db, async (trx) => {
        expect((await orderNotifications.handlePixNotification(paid, trx))?.status).toBe('PAYMENT_RECEIVED');
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await t.call('GET', `/orders/${order.id}`, merchant)).json().status).toBe('AWAITING_PAYMENT');
    expect(steps(lifecycleOf(order.id))).toEqual(['created AWAITING_PAYMENT']);

    await orderNotifications.handlePixNotification(paid);
    expect(steps(lifecycleOf(order.id))).toEqual(['created AWAITING_PAYMENT', 'AWAITING_PAYMENT → PAYMENT_RECEIVED']);
    expect(lifecycleOf(order.id)[1]).toMatchObject({ pixEndToEndId: paid.endToEndId });
  });

  it('carry, over the whole run, no CPF, no name, no PIX key, no e-mail and no secret', async () => {
    // The runs above, plus one more pair of orders on a receiver whose PIX key is an e-mail.
    const { merchant, receiver } = await merchantWithReceiver();
    await t.call('POST', '/sandbox/pix-keys', merchant, { key: 'joana@example.com', keyType: 'EMAIL', document: receiver.document });
    const payout = await t.payout(merchant, { receiverId: receiver.id, amountCrypto: 10, sourceToken: 'USDC', pixKey: 'joana@example.com', pixKeyType: 'EMAIL' });
    await t.call('POST', `/sandbox/orders/${payout.id}/deposit`, merchant, {});
    await t.drive();
    expect((await t.call('GET', `/orders/${payout.id}`, merchant)).json().status).toBe('COMPLETED');
    expect(lifecycleOf(payout.id)).toHaveLength(5);

    const cpfs = forbidden.filter((text) => /^\d{11}$/.test(text));
    expect(cpfs.length).toBeGreaterThan(0);
    const formatted = cpfs.map((cpf) => `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`);
    for (const text of [...forbidden, ...formatted, 'Joana Souza', 'Joana', 'joana@example.com', ADMIN_TOKEN]) {
      expect(captured, `the log carries ${text}`).not.toContain(text);
    }
  });
});
