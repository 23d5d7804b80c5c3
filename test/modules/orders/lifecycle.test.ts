/**
 * What happens to orders after creation, across both types: the sandbox's demo auto-complete, a
 * worker killed mid-step, and every emitted order event checked against the published catalog.
 */
import { Ajv } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { orderEventDefinitions } from '../../../src/modules/orders/events.ts';
import { buildCatalog } from '../../../src/modules/webhooks/catalog.ts';
import { waitFor } from '../../helpers/processes.ts';
import { ordersTest } from './helpers.ts';

const addFormats = addFormatsPlugin as unknown as (ajv: Ajv) => void;

describe('order lifecycle', () => {
  const t = ordersTest();

  it('sandbox auto-complete pays and deposits by itself for orders older than SANDBOX_AUTO_COMPLETE_SECONDS', async () => {
    const app = await t.ctx.buildApp({ SANDBOX_AUTO_COMPLETE_SECONDS: '10' });
    const { merchant, receiver } = await t.merchantWithReceiver();
    const payin = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 10 });
    const payout = await t.payout(merchant, { receiverId: receiver.id, amountCrypto: 2, sourceToken: 'USDC' });
    await app.services.sandbox.settlePass();
    expect((await t.call('GET', `/orders/${payin.id}`, merchant)).json().status).toBe('AWAITING_PAYMENT');
    t.clock.advance(10_000);
    for (let i = 0; i < 5; i++) {
      await app.services.sandbox.settlePass();
      await app.services.orderSteps.runDuePass();
    }
    expect((await t.call('GET', `/orders/${payin.id}`, merchant)).json().status).toBe('COMPLETED');
    expect((await t.call('GET', `/orders/${payout.id}`, merchant)).json().status).toBe('COMPLETED');
  });

  it('a worker killed mid-step leaves the order to the next worker after its lease, with no double effect', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const order = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 15 });
    await t.call('POST', `/sandbox/orders/${order.id}/pix-payment`, merchant, {});
    // A worker claims the order, then dies before running its step.
    const claimed = await t.ctx.database.db.transaction().execute((trx) =>
      trx.updateTable('orders').set({ claimed_until: new Date(t.clock.now().getTime() + 30_000) }).where('id', '=', order.id).returning('id').execute(),
    );
    expect(claimed).toHaveLength(1);
    await t.ctx.app.services.orderSteps.runDuePass();
    expect((await t.call('GET', `/orders/${order.id}`, merchant)).json().status).toBe('PAYMENT_RECEIVED');
    t.clock.advance(31_000);
    await t.drive();
    expect((await t.call('GET', `/orders/${order.id}`, merchant)).json().status).toBe('COMPLETED');
    expect((await t.events(order.id)).map((e) => e.event_type)).toEqual(['order.payment_received', 'order.completed']);
    const transfers = await t.ctx.database.db.selectFrom('sandbox_chain_transfers').select('idempotency_key').where('idempotency_key', '=', order.id).execute();
    expect(transfers).toHaveLength(1);
  });

  it('an order that becomes due while another is in a slow step starts at once in a free lane, not after it', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const slow = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 16 });
    const quick = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 17 });
    const chain = t.ctx.app.services.adapters.chain;
    const prepare = chain.prepareTransfer.bind(chain);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let slowStarted!: () => void;
    const slowIsWaiting = new Promise<void>((resolve) => (slowStarted = resolve));
    chain.prepareTransfer = async (input) => {
      if (input.reference === slow.id) {
        slowStarted();
        await released;
      }
      return prepare(input);
    };
    const steps = t.ctx.app.services.orderSteps;
    try {
      await t.call('POST', `/sandbox/orders/${slow.id}/pix-payment`, merchant, {});
      await steps.fill();
      await slowIsWaiting;
      // Paid while the slow order holds its lane: the next fill (the payment's wake-up) runs it.
      await t.call('POST', `/sandbox/orders/${quick.id}/pix-payment`, merchant, {});
      await steps.fill();
      await waitFor(async () => ((await t.call('GET', `/orders/${quick.id}`, merchant)).json().status === 'COMPLETED' ? true : undefined), 5000);
      expect((await t.call('GET', `/orders/${slow.id}`, merchant)).json().status).toBe('SWAPPING');
    } finally {
      release();
      await steps.drain();
      chain.prepareTransfer = prepare;
    }
    expect((await t.call('GET', `/orders/${slow.id}`, merchant)).json().status).toBe('COMPLETED');
  });

  it('every order event emitted through both lifecycles matches its published catalog schema, and all eight are emitted', async () => {
    const merchant = await t.merchant();
    await t.everyEnding(merchant);
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    const catalog = buildCatalog(orderEventDefinitions());
    const rows = await t.ctx.database.db.selectFrom('events').select(['event_type', 'payload']).where('merchant_id', '=', merchant.merchantId).where('event_type', 'like', 'order.%').execute();
    for (const row of rows) {
      const entry = catalog.entries.find((e) => e.name === row.event_type);
      expect(entry, row.event_type).toBeDefined();
      const validate = ajv.compile(entry!.payload);
      const valid = validate({ ...row.payload, deliveryId: 'd' });
      expect(valid, `${row.event_type}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    expect(new Set(rows.map((row) => row.event_type))).toEqual(new Set(catalog.entries.filter((e) => e.category === 'order').map((e) => e.name)));
  });
});
