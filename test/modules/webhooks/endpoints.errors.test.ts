import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorBody } from '../../helpers/app.ts';
import { type WebhooksFixture, createWebhooksFixture } from './helpers.ts';

describe('webhooks: endpoints errors', () => {
  let ctx: WebhooksFixture['ctx'];
  let close: WebhooksFixture['close'];
  let call: WebhooksFixture['call'];

  beforeAll(async () => {
    ({ ctx, close, call } = await createWebhooksFixture());
  });
  afterAll(() => close());

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
  });
});
