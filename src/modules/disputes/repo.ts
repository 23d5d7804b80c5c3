/**
 * SQL of the disputes module. Every function takes the transaction (or root db) it runs in.
 */
import { type Insertable, type Selectable, sql, type Updateable } from 'kysely';
import type { Db } from '../../db/database.ts';
import { claimDue } from '../../platform/leases.ts';
import { DISPUTE_COLUMNS, type DisputeStatus, type DisputesTable } from './tables.ts';
import { UNRESOLVED } from './state-machine.ts';
import { qualified } from '../../db/columns.ts';

export type DisputeRow = Selectable<DisputesTable>;

/** A dispute as the API shows it: the row, with the order's external id. */
export type DisputeListRow = DisputeRow & { external_id: string | null };

export interface DisputeFilter {
  merchantId?: string;
  status?: DisputeStatus;
  orderId?: string;
}

const listQuery = (db: Db, filter: DisputeFilter) =>
  db
    .selectFrom('disputes as d')
    .innerJoin('orders as o', 'o.id', 'd.order_id')
    .$if(filter.merchantId !== undefined, (qb) => qb.where('d.merchant_id', '=', filter.merchantId!))
    .$if(filter.status !== undefined, (qb) => qb.where('d.status', '=', filter.status!))
    .$if(filter.orderId !== undefined, (qb) => qb.where('d.order_id', '=', filter.orderId!));

export const disputesRepo = {
  /** The new claim's row; undefined when another transaction recorded this infraction first. */
  insert(db: Db, row: Insertable<DisputesTable>) {
    return db.insertInto('disputes').values(row).onConflict((oc) => oc.column('psp_infraction_id').doNothing()).returning(DISPUTE_COLUMNS).executeTakeFirst();
  },

  lockBy(db: Db, column: 'id' | 'psp_infraction_id' | 'return_id', value: string) {
    return db.selectFrom('disputes').select(DISPUTE_COLUMNS).where(column, '=', value).forUpdate().executeTakeFirst();
  },

  /** Guarded by the status the caller read: undefined when another transaction moved it first. */
  move(db: Db, id: string, from: DisputeStatus, changes: Updateable<DisputesTable>) {
    return db.updateTable('disputes').set(changes).where('id', '=', id).where('status', '=', from).returning(DISPUTE_COLUMNS).executeTakeFirst();
  },

  update(db: Db, id: string, changes: Updateable<DisputesTable>) {
    return db.updateTable('disputes').set(changes).where('id', '=', id).returning(DISPUTE_COLUMNS).executeTakeFirstOrThrow();
  },

  /** The claim's next event number (1, 2, ...), counted in the transaction that records the event. */
  async nextEventSequence(db: Db, id: string): Promise<number> {
    const row = await db.updateTable('disputes').set((eb) => ({ event_sequence: eb('event_sequence', '+', 1) })).where('id', '=', id).returning('event_sequence').executeTakeFirstOrThrow();
    return row.event_sequence;
  },

  /** Whether another claim still open names the order (it stays held until the last one ends). */
  async otherUnresolved(db: Db, orderId: string, exceptId: string): Promise<boolean> {
    const row = await db.selectFrom('disputes').select('id').where('order_id', '=', orderId).where('id', '<>', exceptId).where('status', 'in', [...UNRESOLVED]).executeTakeFirst();
    return row !== undefined;
  },

  async list(db: Db, filter: DisputeFilter, page: { offset: number; limit: number }): Promise<{ rows: DisputeListRow[]; total: number }> {
    const [rows, count] = await Promise.all([
      listQuery(db, filter).select(qualified('d', DISPUTE_COLUMNS)).select('o.external_id').orderBy('d.reported_at', 'desc').orderBy('d.id', 'desc').offset(page.offset).limit(page.limit).execute(),
      listQuery(db, filter).select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  },

  find(db: Db, id: string, merchantId?: string): Promise<DisputeListRow | undefined> {
    return listQuery(db, merchantId === undefined ? {} : { merchantId }).select(qualified('d', DISPUTE_COLUMNS)).select('o.external_id').where('d.id', '=', id).executeTakeFirst();
  },

  /**
   * Claims up to `limit` due disputes (platform/leases.ts): their next look is pushed `leaseMs`
   * ahead in the same statement, so another worker skips them and a worker that dies only delays them.
   */
  claimDue(db: Db, now: Date, limit: number, leaseMs: number): Promise<DisputeRow[]> {
    return claimDue<DisputeRow>(db, { table: 'disputes', dueColumn: 'next_step_at', leaseIn: 'due', columns: DISPUTE_COLUMNS, now, limit, leaseMs });
  },

  /** Where the sync with the PSP starts: the oldest claim still open, if any. */
  async oldestUnresolved(db: Db): Promise<Date | undefined> {
    const row = await db.selectFrom('disputes').select((eb) => eb.fn.min('reported_at').as('oldest')).where('status', 'in', [...UNRESOLVED]).executeTakeFirst();
    return row?.oldest ? new Date(row.oldest as Date) : undefined;
  },

  /**
   * The claims still open, for the gauges (metrics.ts), by status: how many, how many OPEN ones
   * passed their defense deadline undefended, and the nearest deadline still ahead of `now`.
   * Through disputes_unresolved_idx (migration 0042): only unresolved claims are read.
   */
  unresolvedSummary(db: Db, now: Date) {
    return db
      .selectFrom('disputes')
      .select([
        'status',
        sql<number>`count(*)::int`.as('count'),
        sql<number>`(count(*) filter (where defense_deadline <= ${now}))::int`.as('past_deadline'),
        sql<Date | null>`min(defense_deadline) filter (where defense_deadline > ${now})`.as('next_deadline'),
      ])
      .where('status', 'in', [...UNRESOLVED])
      .groupBy('status')
      .execute();
  },
};
