import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorBody } from '../../helpers/app.ts';
import { type ReceiversFixture, createReceiversFixture } from './helpers.ts';

const UNKNOWN_ID = '00000000-0000-7000-8000-000000000000';

describe('receivers: limits security', () => {
  let ctx: ReceiversFixture['ctx'];
  let other: ReceiversFixture['other'];
  let call: ReceiversFixture['call'];
  let createReceiver: ReceiversFixture['createReceiver'];

  beforeAll(async () => {
    ({ ctx, other, call, createReceiver } = await createReceiversFixture());
  });
  afterAll(() => ctx.close());

  describe('limits', () => {
    it('unknown or foreign receiver: 404 with the Error object', async () => {
      const receiver = await createReceiver();
      expect(expectErrorBody(await call('GET', `/receivers/${UNKNOWN_ID}/limits`), 404, 'NOT_FOUND').message).toBe('Receiver not found');
      expectErrorBody(await call('GET', `/receivers/${receiver.id}/limits`, undefined, other), 404, 'NOT_FOUND');
      expectErrorBody(
        await call('PUT', `/receivers/${receiver.id}/limits`, { dailyLimitBrl: 1, dailyTransactionLimit: 1, nightTransactionsEnabled: true }, other),
        404,
        'NOT_FOUND',
      );
    });
  });
});
