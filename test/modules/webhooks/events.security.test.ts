import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectErrorBody } from '../../helpers/app.ts';
import { type WebhooksFixture, createWebhooksFixture } from './helpers.ts';

describe('webhooks: event catalog security', () => {
  let ctx: WebhooksFixture['ctx'];
  let close: WebhooksFixture['close'];

  beforeAll(async () => {
    ({ ctx, close } = await createWebhooksFixture());
  });
  afterAll(() => close());

  describe('GET /webhook/events', () => {
    it('requires credentials', async () => {
      expectErrorBody(await ctx.app.inject({ method: 'GET', url: '/api/v1/webhook/events' }), 401, 'UNAUTHORIZED');
    });
  });
});
