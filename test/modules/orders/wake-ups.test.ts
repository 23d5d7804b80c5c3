/**
 * Order steps chain at once: with the worker's sweep set to a minute, a PIX notification still
 * takes a PAYIN to COMPLETED right away — the payment's commit wakes the worker (a notification
 * after commit), and each step that leaves the next one due runs it in the same go.
 */
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../../src/http/metrics.ts';
import { createWorkerJobs } from '../../../src/jobs.ts';
import { createLogger } from '../../../src/logger.ts';
import { startWorker } from '../../../src/platform/worker.ts';
import { ordersTest } from './helpers.ts';

const t = ordersTest();

describe('order steps without sleeps', () => {
  it('from the PIX notification to COMPLETED without waiting for the sweep interval', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const order = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 100 });
    const services = t.ctx.app.services;
    const config = { ...t.ctx.config, orders: { ...t.ctx.config.orders, workerIntervalMs: 60_000 } };
    const jobs = createWorkerJobs(services, config, createMetrics()).filter((job) => job.name === 'order-steps');
    const worker = startWorker(jobs, createLogger('silent'), services.notifications);
    try {
      // The worker's first pass (at start) finds nothing due; it then sleeps for a minute.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const started = Date.now();
      expect((await t.call('POST', `/sandbox/orders/${order.id}/pix-payment`, merchant, {})).statusCode).toBe(200);
      let status = '';
      while (status !== 'COMPLETED' && Date.now() - started < 10_000) {
        status = (await t.call('GET', `/orders/${order.id}`, merchant)).json().status;
        if (status !== 'COMPLETED') await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(status).toBe('COMPLETED');
      expect(Date.now() - started).toBeLessThan(10_000);
      const events = (await t.events(order.id)).map((event) => event.event_type);
      expect(events).toEqual(['order.payment_received', 'order.completed']);
    } finally {
      await worker.stop();
    }
  });
});
