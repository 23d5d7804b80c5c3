/**
 * The status list is written once (ORDER_STATUSES) and everything else derives from it: the API's
 * enum, the stored statuses, and the database's CHECK (the migration's frozen copy). PENDING is
 * in the spec's list, so in the API's enum, but never stored: a filter on it finds nothing.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { ORDER_STATUSES, STORED_ORDER_STATUSES } from '../../../src/modules/orders/tables.ts';
import { OrderListQuery, OrderSchema } from '../../../src/modules/orders/schemas.ts';
import { ordersTest } from './helpers.ts';

describe('order statuses', () => {
  const t = ordersTest();

  it('the API enumerates the spec’s fourteen statuses, PENDING included, in the spec’s order', () => {
    expect(ORDER_STATUSES).toHaveLength(14);
    expect(OrderSchema.properties.status).toMatchObject({ enum: [...ORDER_STATUSES] });
    expect(OrderListQuery.properties.status).toMatchObject({ enum: [...ORDER_STATUSES] });
  });

  it('every status but PENDING may be stored', () => {
    expect(STORED_ORDER_STATUSES).toEqual(ORDER_STATUSES.filter((status) => status !== 'PENDING'));
  });

  it('the migration’s CHECK allows exactly ORDER_STATUSES', async () => {
    const { rows } = await sql<{ def: string }>`
      select pg_get_constraintdef(oid) as def from pg_constraint
      where conrelid = 'orders'::regclass and contype = 'c' and pg_get_constraintdef(oid) like '%status%'`.execute(t.ctx.database.db);
    expect(rows).toHaveLength(1);
    expect([...rows[0]!.def.matchAll(/'([A-Z_]+)'/g)].map((match) => match[1]).sort()).toEqual([...ORDER_STATUSES].sort());
  });

  it('GET /orders?status=PENDING is valid and finds nothing, as no order is ever PENDING', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    await t.payin(merchant, { receiverId: receiver.id, amountBrl: 10 });
    const pending = await t.call('GET', '/orders?status=PENDING', merchant);
    expect(pending.statusCode).toBe(200);
    expect(pending.json()).toEqual({ data: [], total: 0, page: 1, limit: 20, hasMore: false });
    expect((await t.call('GET', '/orders?status=AWAITING_PAYMENT', merchant)).json().total).toBe(1);
  });
});
