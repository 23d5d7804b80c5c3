import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectErrorBody } from '../../helpers/app.ts';
import { type ReceiversFixture, createReceiversFixture } from './helpers.ts';

describe('receivers: operator status security', () => {
  let ctx: ReceiversFixture['ctx'];
  let merchant: ReceiversFixture['merchant'];
  let createReceiver: ReceiversFixture['createReceiver'];

  beforeAll(async () => {
    ({ ctx, merchant, createReceiver } = await createReceiversFixture());
  });
  afterAll(() => ctx.close());

  describe('operator status decisions', () => {
    it('merchants cannot call operator routes (403)', async () => {
      const receiver = await createReceiver();
      const response = await ctx.app.inject({ method: 'POST', url: `/api/v1/admin/receivers/${receiver.id}/kyc/approve`, headers: merchant.headers });
      expectErrorBody(response, 403, 'FORBIDDEN');
    });
  });
});
