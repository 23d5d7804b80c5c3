/**
 * The gauges read from the database at scrape (issue 40, item 6): MED claims still open with
 * their nearest defense deadline and those past it (src/modules/disputes/metrics.ts), and the
 * operator's queue of stuck orders (src/modules/orders/operator/stuck-metrics.ts), through the
 * sandbox PSP. Each scrape here is a new registry: the gauges' own reads are cached 10 s.
 */
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { registerDisputeMetrics } from '../../src/modules/disputes/metrics.ts';
import { registerStuckOrderMetrics } from '../../src/modules/orders/operator/stuck-metrics.ts';
import { ordersTest } from '../modules/orders/helpers.ts';

const STUCK_ORDER_MINUTES = 30;

describe('gauges of MED claims and stuck orders', () => {
  const t = ordersTest();

  /** name{labels} → value, as a fresh scrape reads them. */
  async function scrape(): Promise<Record<string, number>> {
    const registry = new Registry();
    registerDisputeMetrics(registry, t.ctx.database.db, t.clock);
    registerStuckOrderMetrics(registry, t.ctx.database.db, t.clock, STUCK_ORDER_MINUTES);
    const values: Record<string, number> = {};
    for (const metric of await registry.getMetricsAsJSON()) {
      for (const v of metric.values) {
        const labels = Object.entries(v.labels).map(([k, l]) => `${k}="${l}"`).join(',');
        values[labels ? `${metric.name}{${labels}}` : metric.name] = v.value;
      }
    }
    return values;
  }

  it('read nothing open and nothing stuck on an empty database', async () => {
    expect(await scrape()).toEqual({
      'disputes_unresolved{status="OPEN"}': 0,
      'disputes_unresolved{status="DEFENDED"}': 0,
      disputes_open_past_deadline: 0,
      disputes_next_defense_deadline_timestamp_seconds: Number.POSITIVE_INFINITY,
      'orders_stuck{type="PAYIN",reason="IN_TRANSIT_TOO_LONG"}': 0,
      'orders_stuck{type="PAYIN",reason="FAILED_WITH_MONEY_HELD"}': 0,
      'orders_stuck{type="PAYOUT",reason="IN_TRANSIT_TOO_LONG"}': 0,
      'orders_stuck{type="PAYOUT",reason="FAILED_WITH_MONEY_HELD"}': 0,
    });
  });

  it('count an open claim with its deadline, one past its deadline, and the held order once it is stuck', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const paid = async (amountBrl: number) => {
      const order = await t.payin(merchant, { receiverId: receiver.id, amountBrl });
      expect((await t.call('POST', `/sandbox/orders/${order.id}/pix-payment`, merchant, {})).statusCode).toBe(200);
      return order;
    };
    const claim = async (orderId: string, body: object) => {
      const response = await t.call('POST', `/sandbox/orders/${orderId}/med-claim`, merchant, body);
      expect(response.statusCode, response.body).toBe(201);
      return response.json();
    };
    // A claim before the tokens leave holds the order in PAYMENT_RECEIVED: money arrived, not moving.
    const held = await paid(20);
    const open = await claim(held.id, { defenseHours: 48 });
    const late = await claim((await paid(21)).id, { defenseHours: 0 });
    expect(late.status).toBe('OPEN');

    let values = await scrape();
    expect(values['disputes_unresolved{status="OPEN"}']).toBe(2);
    expect(values.disputes_open_past_deadline).toBe(1);
    expect(values.disputes_next_defense_deadline_timestamp_seconds).toBe(Date.parse(open.defenseDeadline) / 1000);
    expect(values['orders_stuck{type="PAYIN",reason="IN_TRANSIT_TOO_LONG"}']).toBe(0);

    t.clock.advance((STUCK_ORDER_MINUTES + 1) * 60_000);
    values = await scrape();
    expect(values['orders_stuck{type="PAYIN",reason="IN_TRANSIT_TOO_LONG"}']).toBe(2);
    expect(values['orders_stuck{type="PAYOUT",reason="IN_TRANSIT_TOO_LONG"}']).toBe(0);

    // Defended, the claim leaves OPEN: no deadline ahead any more.
    const defended = await t.call('POST', `/disputes/${open.id}/defense`, merchant, { justification: 'The payer received the tokens they paid for.', evidence: [{ description: 'delivery receipt' }] });
    expect(defended.statusCode, defended.body).toBe(200);
    values = await scrape();
    expect(values['disputes_unresolved{status="DEFENDED"}']).toBe(1);
    expect(values['disputes_unresolved{status="OPEN"}']).toBe(1);
    expect(values.disputes_next_defense_deadline_timestamp_seconds).toBe(Number.POSITIVE_INFINITY);
  });
});
