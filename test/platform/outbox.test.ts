import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvent } from '../../src/platform/outbox.ts';
import { inTransaction } from '../../src/platform/commit-signals.ts';
import { type TestContext, createTestContext } from '../helpers/app.ts';

describe('event outbox', () => {
  let ctx: TestContext;
  let merchantId: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    merchantId = (await ctx.createMerchant()).merchantId;
  });
  afterAll(() => ctx.close());

  const eventsOf = (type: string) => ctx.database.db.selectFrom('events').selectAll().where('event_type', '=', type).execute();

  it('commits with the transaction that records it, with event in the flat payload', async () => {
    const recorded = await inTransaction(ctx.database.db, (trx) => recordEvent(trx, { merchantId, event: 'test.committed', payload: { orderId: 'o1', amountBrl: 10.5 } }));
    const rows = await eventsOf('test.committed');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: recorded.id, merchant_id: merchantId, payload: { event: 'test.committed', orderId: 'o1', amountBrl: 10.5 } });
  });

  it('disappears with a transaction that rolls back', async () => {
    await expect(
      inTransaction(ctx.database.db, async (trx) => {
        await recordEvent(trx, { merchantId, event: 'test.rolled_back', payload: {} });
        throw new Error('the state change failed');
      }),
    ).rejects.toThrow('the state change failed');
    expect(await eventsOf('test.rolled_back')).toHaveLength(0);
  });

  it('refuses a deliveryId: it is assigned per delivery', async () => {
    await expect(
      inTransaction(ctx.database.db, (trx) => recordEvent(trx, { merchantId, event: 'test.bad', payload: { deliveryId: 'x' } })),
    ).rejects.toThrow(/deliveryId/);
  });
});
