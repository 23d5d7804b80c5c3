/**
 * orders_by_status on GET /metrics (orders/reads/status-metrics.ts): the orders now in each status, by
 * type, database-wide, read from the trigger-maintained counters when Prometheus scrapes.
 */
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../../src/db/database.ts';
import { registerOrderStatusMetrics } from '../../../src/modules/orders/reads/status-metrics.ts';
import { ordersTest } from './helpers.ts';

const sample = (body: string, type: string, status: string) => {
  const match = body.match(new RegExp(`^orders_by_status\\{type="${type}",status="${status}"\\} (\\S+)$`, 'm'));
  return match ? Number(match[1]) : undefined;
};

describe('orders_by_status', () => {
  const t = ordersTest();

  it("counts every merchant's orders by type and status, as the orders now stand", async () => {
    const first = await t.merchantWithReceiver('First');
    const second = await t.merchantWithReceiver('Second');
    const paid = await t.payin(first.merchant, { receiverId: first.receiver.id, amountBrl: 100 });
    await t.payin(first.merchant, { receiverId: first.receiver.id, amountBrl: 50 });
    await t.payin(second.merchant, { receiverId: second.receiver.id, amountBrl: 20 });
    await t.payout(second.merchant, { receiverId: second.receiver.id, amountCrypto: 10, sourceToken: 'USDC' });
    await t.call('POST', `/sandbox/orders/${paid.id}/pix-payment`, first.merchant, {});
    await t.drive();
    expect((await t.call('GET', `/orders/${paid.id}`, first.merchant)).json().status).toBe('COMPLETED');

    const response = await t.ctx.app.inject({ url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('# TYPE orders_by_status gauge');
    expect(sample(response.body, 'PAYIN', 'AWAITING_PAYMENT')).toBe(2);
    expect(sample(response.body, 'PAYIN', 'COMPLETED')).toBe(1);
    expect(sample(response.body, 'PAYOUT', 'AWAITING_DEPOSIT')).toBe(1);
    // A status the order left counts 0, not the order twice.
    const total = [...response.body.matchAll(/^orders_by_status\{[^}]*\} (\S+)$/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
    expect(total).toBe(4);
  });
});

describe('orders_by_status reads', () => {
  const t = ordersTest();

  it('reads the counters at most every 5 s, and a failed read leaves the scrape answering', async () => {
    let now = 0;
    const registry = new Registry();
    registerOrderStatusMetrics(registry, t.ctx.database.db, () => now);
    const { merchant, receiver } = await t.merchantWithReceiver();
    await t.payin(merchant, { receiverId: receiver.id, amountBrl: 10 });
    expect(sample(await registry.metrics(), 'PAYIN', 'AWAITING_PAYMENT')).toBe(1);
    await t.payin(merchant, { receiverId: receiver.id, amountBrl: 10 });
    now = 4_999;
    expect(sample(await registry.metrics(), 'PAYIN', 'AWAITING_PAYMENT')).toBe(1);
    now = 5_000;
    expect(sample(await registry.metrics(), 'PAYIN', 'AWAITING_PAYMENT')).toBe(2);

    const failing = new Registry();
    const unreachable = {
      selectFrom: () => {
        throw new Error('connection refused');
      },
    } as unknown as Db;
    registerOrderStatusMetrics(failing, unreachable, () => now);
    expect(await failing.metrics()).toContain('# TYPE orders_by_status gauge');
  });
});
