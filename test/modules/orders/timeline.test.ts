/**
 * GET /orders/{id}/timeline for a sandbox PAYIN driven to COMPLETED, with a webhook endpoint that
 * receives its events: status changes, movements with explorer links, ledger entries and
 * deliveries, oldest first; and another merchant's order answers 404 like an unknown one.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { expectErrorBody } from '../../helpers/app.ts';
import { createWebhookEndpoint } from '../../helpers/factories.ts';
import { startReceiver } from '../webhooks/helpers.ts';
import { UUID, ordersTest } from './helpers.ts';

const EXPLORER = 'https://explorer.solana.com/tx/{signature}?cluster=devnet';

describe('GET /orders/{id}/timeline', () => {
  const t = ordersTest(() => ({ CHAIN_EXPLORER_TX_URL: EXPLORER }));
  const receivers: Array<{ close(): Promise<void> }> = [];
  afterAll(() => Promise.all(receivers.map((r) => r.close())));

  it("tells a completed PAYIN's story in time order", async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const hooks = await startReceiver();
    receivers.push(hooks);
    const endpoint = await createWebhookEndpoint(t.ctx, merchant, { url: hooks.url });
    const order = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 100 });
    t.clock.advance(1000);
    await t.call('POST', `/sandbox/orders/${order.id}/pix-payment`, merchant, {});
    t.clock.advance(1000);
    await t.drive();
    // An order's deliveries go one after the other: a pass per event.
    for (let pass = 0; pass < 10 && hooks.requests.length < 2; pass++) await t.ctx.app.services.webhooks.runDeliveryPass();
    await hooks.waitFor(2);

    const response = await t.call('GET', `/orders/${order.id}/timeline`, merchant);
    expect(response.statusCode, response.body).toBe(200);
    const timeline = response.json();
    expect(timeline).toMatchObject({ orderId: order.id, type: 'PAYIN', status: 'COMPLETED' });
    const entries: Array<Record<string, any>> = timeline.entries; // eslint-disable-line @typescript-eslint/no-explicit-any
    const times = entries.map((entry) => entry.at);
    expect(times).toEqual([...times].sort());

    const statuses = entries.filter((e) => e.kind === 'STATUS').map((e) => e.status);
    expect(statuses).toEqual([
      { status: 'AWAITING_PAYMENT', source: 'CREATED', event: null },
      { status: 'PAYMENT_RECEIVED', source: 'EVENT', event: 'order.payment_received' },
      { status: 'COMPLETED', source: 'EVENT', event: 'order.completed' },
    ]);
    expect(entries[0]).toMatchObject({ kind: 'STATUS', at: order.createdAt, transaction: null, ledgerEntry: null, webhookDelivery: null });

    const movements = entries.filter((e) => e.kind === 'TRANSACTION').map((e) => e.transaction);
    expect(movements.map((m) => m.type)).toEqual(['PIX_IN', 'CHAIN_TRANSFER']);
    const [pixIn, transfer] = movements;
    expect(pixIn.explorerUrl).toBeNull();
    expect(transfer.txHash).toEqual(expect.any(String));
    expect(transfer.explorerUrl).toBe(`https://explorer.solana.com/tx/${transfer.txHash}?cluster=devnet`);
    const current = (await t.call('GET', `/orders/${order.id}`, merchant)).json();
    expect(movements.map((m) => m.id).sort()).toEqual(current.transactions.map((tx: { id: string }) => tx.id).sort());

    // The merchant's view of the ledger (decision 0041): this merchant charges no fee of its own,
    // so the order posted to no merchant account and its entries are the platform's only.
    const ledger = entries.filter((e) => e.kind === 'LEDGER_ENTRY').map((e) => e.ledgerEntry);
    const all = await t.ctx.app.services.ledger.orderEntries(merchant.merchantId, order.id, 'all');
    expect(all.map((e) => e.kind).sort()).toEqual(['PAYIN_COMPLETED', 'PAYIN_PIX_RECEIVED']);
    expect(all.flatMap((e) => e.postings).every((p) => p.owner === 'platform')).toBe(true);
    expect(ledger).toEqual([]);
    const posted = (await t.call('GET', '/ledger/entries?limit=100', merchant)).json();
    const postedIds = (posted.entries ?? posted.data).filter((e: { referenceId: string }) => e.referenceId === order.id).map((e: { id: string }) => e.id);
    expect(ledger.map((e) => e.id).sort()).toEqual(postedIds.sort());

    const deliveries = entries.filter((e) => e.kind === 'WEBHOOK_DELIVERY').map((e) => e.webhookDelivery);
    expect(deliveries.map((d) => d.event).sort()).toEqual(['order.completed', 'order.payment_received']);
    for (const delivery of deliveries) expect(delivery).toMatchObject({ endpointId: endpoint.id, status: 'SUCCEEDED', attempts: 1, lastStatusCode: 200 });
  });

  it("shows an order's current status when no event reports it (EXPIRED), and no explorer link without movements", async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const order = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 10 });
    t.clock.advance(900_000);
    await t.drive(1);
    const timeline = (await t.call('GET', `/orders/${order.id}/timeline`, merchant)).json();
    expect(timeline.status).toBe('EXPIRED');
    expect(timeline.entries.map((e: { kind: string; status: unknown }) => [e.kind, e.status])).toEqual([
      ['STATUS', { status: 'AWAITING_PAYMENT', source: 'CREATED', event: null }],
      ['STATUS', { status: 'EXPIRED', source: 'CURRENT', event: null }],
    ]);
  });

  it("answers another merchant's order exactly like an unknown one: 404", async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const order = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 10 });
    const other = await t.merchant('Outra Loja');
    const theirs = await t.call('GET', `/orders/${order.id}/timeline`, other);
    const unknown = await t.call('GET', `/orders/${UUID}/timeline`, other);
    expectErrorBody(theirs, 404, 'NOT_FOUND');
    expectErrorBody(unknown, 404, 'NOT_FOUND');
    expect(theirs.json().message).toBe(unknown.json().message);
  });
});
