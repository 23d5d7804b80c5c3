/**
 * Webhook endpoints, errors: the body of POST and PATCH is validated (URL, event names, unknown
 * fields, at least one field); nothing is created or changed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext, expectErrorBody } from '../../helpers/app.ts';
import { webhooksFixture } from './helpers.ts';

let ctx: TestContext;
const { closeReceivers, newReceiver, call, createEndpoint } = webhooksFixture(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext({ WEBHOOK_RETRY_SCHEDULE: '0,0' });
});
afterAll(async () => {
  await closeReceivers();
  await ctx?.close();
});

describe('endpoints', () => {
  it('validates the body: url, event names, unknown fields', async () => {
    const merchant = await ctx.createMerchant();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ url: 'not a url' }, 'body.url'],
      [{ url: 'ftp://127.0.0.1/x' }, 'body.url'],
      [{ url: 'http://user:pw@127.0.0.1/x' }, 'body.url'],
      [{ url: 'http://127.0.0.1/x', eventTypes: ['order.unknown'] }, 'body.eventTypes.0'],
      [{ url: 'http://127.0.0.1/x', eventTypes: [] }, 'body.eventTypes'],
      [{ url: 'http://127.0.0.1/x', secret: 'mine' }, 'body'],
    ];
    for (const [body, field] of cases) {
      const error = expectErrorBody(await call('POST', '/webhook/endpoints', merchant, body), 400, 'VALIDATION_ERROR');
      expect(Object.keys(error.details ?? {}).join(' ')).toContain(field);
    }
  });

  it('PATCH with no field, or with a secret, is 400 and changes nothing', async () => {
    const merchant = await ctx.createMerchant();
    const receiver = await newReceiver();
    const endpoint = await createEndpoint(merchant, { url: receiver.url });
    expectErrorBody(await call('PATCH', `/webhook/endpoints/${endpoint.id}`, merchant, {}), 400, 'VALIDATION_ERROR');
    expectErrorBody(await call('PATCH', `/webhook/endpoints/${endpoint.id}`, merchant, { secret: 'x' }), 400, 'VALIDATION_ERROR');
    expect((await call('GET', `/webhook/endpoints/${endpoint.id}`, merchant)).json()).toMatchObject({ url: receiver.url, enabled: true, eventTypes: null });
  });
});
