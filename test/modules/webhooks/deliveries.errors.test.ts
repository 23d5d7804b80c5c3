/**
 * Webhook deliveries, errors: the delivery log's query is validated (limit, event name, unknown
 * parameters are 400).
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type TestContext, createTestContext, expectErrorBody } from '../../helpers/app.ts';
import { webhooksFixture } from './helpers.ts';

let ctx: TestContext;
const { closeReceivers, call } = webhooksFixture(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext({ WEBHOOK_RETRY_SCHEDULE: '0,0' });
});
afterAll(async () => {
  await closeReceivers();
  await ctx?.close();
});

describe('delivery', () => {
  it('the log refuses a limit above 100, an unknown event name and an unknown parameter with 400', async () => {
    const merchant = await ctx.createMerchant();
    expectErrorBody(await call('GET', '/webhook/deliveries?limit=101', merchant), 400, 'VALIDATION_ERROR');
    expectErrorBody(await call('GET', '/webhook/deliveries?event=nope', merchant), 400, 'VALIDATION_ERROR');
    expectErrorBody(await call('GET', '/webhook/deliveries?foo=1', merchant), 400, 'VALIDATION_ERROR');
  });
});
