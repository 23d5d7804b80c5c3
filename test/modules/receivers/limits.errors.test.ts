import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorBody } from '../../helpers/app.ts';
import { type ReceiversFixture, createReceiversFixture } from './helpers.ts';

describe('receivers: limits errors', () => {
  let ctx: ReceiversFixture['ctx'];
  let call: ReceiversFixture['call'];
  let createReceiver: ReceiversFixture['createReceiver'];

  beforeAll(async () => {
    ({ ctx, call, createReceiver } = await createReceiversFixture());
  });
  afterAll(() => ctx.close());

  describe('limits', () => {
    it.each([
      ['a negative count', { dailyTransactionLimit: -1 }, 'body.dailyTransactionLimit'],
      ['a fractional count', { dailyTransactionLimit: 2.5 }, 'body.dailyTransactionLimit'],
      ['a negative amount', { dailyLimitBrl: -10 }, 'body.dailyLimitBrl'],
      ['an amount with 3 decimals', { dailyLimitBrl: 1.001 }, 'body.dailyLimitBrl'],
      ['a string amount', { dailyLimitBrl: '100' }, 'body.dailyLimitBrl'],
      ['a missing field', { nightTransactionsEnabled: undefined }, 'body.nightTransactionsEnabled'],
    ])('PUT refuses %s', async (_case, override, field) => {
      const receiver = await createReceiver();
      const body = { dailyLimitBrl: 100, dailyTransactionLimit: 2, nightTransactionsEnabled: false, ...override };
      expect(expectErrorBody(await call('PUT', `/receivers/${receiver.id}/limits`, body), 400, 'VALIDATION_ERROR').details).toHaveProperty([field]);
    });
  });
});
