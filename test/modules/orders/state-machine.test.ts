/**
 * The order state machine as one table: every (type, from, to) pair of the spec's statuses is
 * allowed exactly when the table says so. PENDING is in the spec's enumeration, never stored,
 * and never a source or target of a transition.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { ORDER_TYPES } from '../../../src/lib/order-types.ts';
import { canTransition } from '../../../src/modules/orders/state-machine.ts';
import { ORDER_STATUSES, STORED_ORDER_STATUSES } from '../../../src/modules/orders/tables.ts';
import { createTestContext } from '../../helpers/app.ts';

const ALLOWED: Record<(typeof ORDER_TYPES)[number], string[]> = {
  PAYIN: [
    'AWAITING_PAYMENT → PAYMENT_RECEIVED',
    'AWAITING_PAYMENT → REFUNDING',
    'AWAITING_PAYMENT → EXPIRED',
    'PAYMENT_RECEIVED → SWAPPING',
    'PAYMENT_RECEIVED → REFUNDING',
    'SWAPPING → TRANSFERRING',
    'SWAPPING → REFUNDING',
    'TRANSFERRING → COMPLETED',
    'TRANSFERRING → REFUNDING',
    'EXPIRED → REFUNDING',
    'REFUNDING → REFUNDED',
    'REFUNDING → FAILED',
  ],
  PAYOUT: [
    'AWAITING_DEPOSIT → DEPOSIT_RECEIVED',
    'AWAITING_DEPOSIT → EXPIRED',
    'AWAITING_DEPOSIT → FAILED',
    'DEPOSIT_RECEIVED → PIX_SENDING',
    'DEPOSIT_RECEIVED → FAILED',
    'PIX_SENDING → PIX_SENT_UNCONFIRMED',
    'PIX_SENDING → FAILED',
    'PIX_SENT_UNCONFIRMED → COMPLETED',
    'PIX_SENT_UNCONFIRMED → FAILED',
  ],
};

describe('order state machine', () => {
  const rows = ORDER_TYPES.flatMap((type) =>
    ORDER_STATUSES.flatMap((from) => ORDER_STATUSES.map((to) => ({ type, from, to, allowed: ALLOWED[type].includes(`${from} → ${to}`) }))),
  );

  it.each(rows)('$type $from → $to: allowed=$allowed', ({ type, from, to, allowed }) => {
    expect(canTransition(type, from, to)).toBe(allowed);
  });

  it('never moves into or out of PENDING, and PENDING is the one status never stored', () => {
    expect(rows.filter((row) => row.allowed && (row.from === 'PENDING' || row.to === 'PENDING'))).toEqual([]);
    expect(ORDER_STATUSES.filter((status) => !STORED_ORDER_STATUSES.includes(status as never))).toEqual(['PENDING']);
  });

  it('lists the same statuses as the database CHECK constraint of the migration', async () => {
    const ctx = await createTestContext();
    try {
      const { rows: constraints } = await sql<{ definition: string }>`
        select pg_get_constraintdef(oid) as definition from pg_constraint
        where conrelid = 'orders'::regclass and contype = 'c' and pg_get_constraintdef(oid) like '%status%'`.execute(ctx.database.db);
      const listed = [...constraints[0]!.definition.matchAll(/'([A-Z_]+)'/g)].map((match) => match[1]);
      expect([...listed].sort()).toEqual([...ORDER_STATUSES].sort());
    } finally {
      await ctx.close();
    }
  });

  it('answers a listing filtered on PENDING with an empty page', async () => {
    const ctx = await createTestContext();
    try {
      const merchant = await ctx.createMerchant();
      const response = await ctx.app.inject({ url: '/api/v1/orders?status=PENDING', headers: merchant.headers });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ data: [], total: 0 });
    } finally {
      await ctx.close();
    }
  });
});
