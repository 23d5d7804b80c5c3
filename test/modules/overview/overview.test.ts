/**
 * GET /overview with known orders on several São Paulo days (one at 23:30 there, already the next
 * day in UTC): the period's volumes, the statuses, the fees as the ledger has them, the failed
 * orders and the endpoints needing attention; another merchant sees none of it.
 */
import { describe, expect, it } from 'vitest';
import { expectErrorBody } from '../../helpers/app.ts';
import { callAs, createWebhookEndpoint, setMerchantFee } from '../../helpers/factories.ts';
import { ordersTest } from '../orders/helpers.ts';

describe('GET /overview', () => {
  const t = ordersTest();

  it('sums the period by São Paulo day and type, and reports statuses, fees and what needs attention', async () => {
    const merchant = await t.merchant();
    const receiver = await t.activeReceiver(merchant);
    const night = await t.call('PUT', `/receivers/${receiver.id}/limits`, merchant, { dailyLimitBrl: 100000, dailyTransactionLimit: 100, nightTransactionsEnabled: true });
    expect(night.statusCode, night.body).toBe(200);
    await setMerchantFee(t.ctx, merchant, 'PAYIN', 0.01);
    const payin = (amountBrl: number) => t.payin(merchant, { receiverId: receiver.id, amountBrl });
    const sandbox = (id: string, action: string, body = {}) => t.call('POST', `/sandbox/orders/${id}/${action}`, merchant, body);

    t.clock.set('2026-10-20T15:00:00.000Z'); // outside a 3-day period, inside 90 days
    await payin(99);
    t.clock.set('2026-11-22T02:30:00.000Z'); // 2026-11-21 23:30 in São Paulo
    await payin(10.1);
    t.clock.set('2026-11-22T15:00:00.000Z');
    const completed = await payin(20.2);
    await sandbox(completed.id, 'pix-payment');
    const failed = await t.payout(merchant, { receiverId: receiver.id, amountCrypto: 4, sourceToken: 'USDC' });
    await sandbox(failed.id, 'deposit', { amountCrypto: 0.1 });
    await t.drive();
    t.clock.set('2026-11-23T15:00:00.000Z');
    await payin(30.3);
    await payin(40.4);
    expect((await t.call('GET', `/orders/${completed.id}`, merchant)).json().status).toBe('COMPLETED');
    const failedNow = (await t.call('GET', `/orders/${failed.id}`, merchant)).json();
    expect(failedNow.status).toBe('FAILED');

    const response = await t.call('GET', '/overview?days=3', merchant);
    expect(response.statusCode, response.body).toBe(200);
    const overview = response.json();
    expect(overview).toMatchObject({ days: 3, from: '2026-11-21', to: '2026-11-23', timeZone: 'America/Sao_Paulo' });
    const zero = { count: 0, amountBrl: '0.00', completedCount: 0, completedAmountBrl: '0.00' };
    expect(overview.volumes).toEqual([
      { day: '2026-11-21', type: 'PAYIN', count: 1, amountBrl: '10.10', completedCount: 0, completedAmountBrl: '0.00' },
      { day: '2026-11-21', type: 'PAYOUT', ...zero },
      { day: '2026-11-22', type: 'PAYIN', count: 1, amountBrl: '20.20', completedCount: 1, completedAmountBrl: '20.20' },
      { day: '2026-11-22', type: 'PAYOUT', count: 1, amountBrl: failedNow.amountBrl.toFixed(2), completedCount: 0, completedAmountBrl: '0.00' },
      { day: '2026-11-23', type: 'PAYIN', count: 2, amountBrl: '70.70', completedCount: 0, completedAmountBrl: '0.00' },
      { day: '2026-11-23', type: 'PAYOUT', ...zero },
    ]);
    expect(overview.attention.failedOrders).toEqual({ count: 1, latestIds: [failed.id] });

    const counts = Object.fromEntries(overview.ordersByStatus.map((row: { status: string; count: number }) => [row.status, row.count]));
    for (const [status, count] of Object.entries(counts)) {
      expect((await t.call('GET', `/orders?status=${status}&limit=1`, merchant)).json().total, status).toBe(count);
    }
    expect(Object.values(counts).reduce((a, b) => (a as number) + (b as number), 0)).toBe(6);
    expect(counts).toMatchObject({ COMPLETED: 1, FAILED: 1 });

    const balance = (await t.call('GET', '/ledger/fees/balance', merchant)).json();
    expect(overview.fees.balance).toBe(balance.balance);
    expect(overview.fees.balance).not.toBe('0.00');
    expect(overview.fees).toMatchObject({ currency: 'BRL', unsettledEntries: 1, unsettledAmountBrl: balance.balance });

    // The 99 BRL order of October is inside 90 days; the default is 30.
    const wide = (await t.call('GET', '/overview?days=90', merchant)).json();
    expect(wide.volumes).toHaveLength(180);
    expect(wide.volumes.find((v: { day: string; type: string }) => v.day === '2026-10-20' && v.type === 'PAYIN')).toMatchObject({ count: 1, amountBrl: '99.00' });
    const byDefault = (await t.call('GET', '/overview', merchant)).json();
    expect(byDefault).toMatchObject({ days: 30, from: '2026-10-25' });
  });

  it('lists the webhook endpoints that are failing or disabled', async () => {
    const merchant = await t.merchant();
    const healthy = await createWebhookEndpoint(t.ctx, merchant, { url: 'http://127.0.0.1:9/a' });
    const disabled = await createWebhookEndpoint(t.ctx, merchant, { url: 'http://127.0.0.1:9/b' });
    expect((await callAs(t.ctx, merchant, 'PATCH', `/webhook/endpoints/${disabled.id}`, { enabled: false })).statusCode).toBeLessThan(300);
    const failingSince = new Date('2026-11-23T14:00:00.000Z');
    await t.ctx.database.db.updateTable('webhook_endpoints').set({ failing_since: failingSince }).where('id', '=', healthy.id).execute();
    const overview = (await t.call('GET', '/overview', merchant)).json();
    expect(overview.attention.webhookEndpoints).toEqual(
      expect.arrayContaining([
        { id: healthy.id, url: healthy.url, enabled: true, failingSince: failingSince.toISOString(), disabledReason: null },
        { id: disabled.id, url: disabled.url, enabled: false, failingSince: null, disabledReason: null },
      ]),
    );
    expect(overview.attention.webhookEndpoints).toHaveLength(2);
  });

  it("refuses a period out of range, and shows another merchant nothing of this one's", async () => {
    const merchant = await t.merchant();
    for (const days of ['0', '91', 'x']) expectErrorBody(await t.call('GET', `/overview?days=${days}`, merchant), 400, 'VALIDATION_ERROR');
    const { merchant: busy, receiver } = await t.merchantWithReceiver();
    await t.payin(busy, { receiverId: receiver.id, amountBrl: 10 });
    const overview = (await t.call('GET', '/overview?days=1', merchant)).json();
    expect(overview.volumes).toEqual([
      { day: '2026-11-23', type: 'PAYIN', count: 0, amountBrl: '0.00', completedCount: 0, completedAmountBrl: '0.00' },
      { day: '2026-11-23', type: 'PAYOUT', count: 0, amountBrl: '0.00', completedCount: 0, completedAmountBrl: '0.00' },
    ]);
    expect(overview.ordersByStatus).toEqual([]);
    expect(overview.fees).toEqual({ balance: '0.00', chargebacksOwed: '0.00', currency: 'BRL', unsettledEntries: 0, unsettledAmountBrl: '0.00' });
    expect(overview.attention).toEqual({ failedOrders: { count: 0, latestIds: [] }, webhookEndpoints: [] });
  });
});
