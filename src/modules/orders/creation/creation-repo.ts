/**
 * The SQL of order creation's two round trips (create-order.ts): one read of everything the
 * refusals and the price need, and one statement that re-checks, reserves and inserts.
 */
import { type Insertable, type RawBuilder, sql } from 'kysely';
import type { Db } from '../../../db/database.ts';
import type { DestinationPolicy, WalletOwnershipPolicy } from '../../merchants/tables.ts';
import { RECEIVER_COLUMNS, type ReceiverRow } from '../../receivers/tables.ts';
import type { IdempotencyKeysTable } from '../../../platform/idempotency/tables.ts';
import { ORDER_COLUMNS, type OrderRow, type OrdersTable } from '../tables.ts';
import type { OrderType } from '../../../lib/order-types.ts';
import { eligibilitySql } from './creation-rules.ts';

/** The receiver row, its day's usage, the merchant's month volume, name and destination policy, and the order already holding the externalId. */
export type CreationContext = ReceiverRow & {
  merchant_name: string;
  destination_policy: DestinationPolicy;
  wallet_ownership_policy: WalletOwnershipPolicy;
  unproven_wallet_limit_brl: string | null;
  /** PAYIN: the order's wallet (the body's, else the receiver's) is the merchant's managed wallet or proven the receiver's. */
  wallet_proven: boolean;
  used_count: number | null;
  used_brl: string | null;
  month_volume_brl: string;
  existing_order_id: string | null;
  /** The request's Idempotency-Key exists already (a retry, or a reuse): the hook answers it. */
  key_used: boolean;
};

export interface ReservedInsert {
  row: Insertable<OrdersTable>;
  amountBrl: string;
  /** Whether the order is created inside the night window: then the receiver must allow night transactions. */
  atNight: boolean;
  /** The limits the early check used: the statement refuses if the receiver's limits changed since. */
  dailyLimitBrl: string | null;
  dailyTransactionLimit: number | null;
  /** An Idempotency-Key's row with its answer: inserted by the same statement, only if the order is. */
  key?: Insertable<IdempotencyKeysTable> | undefined;
}


/**
 * The row the insert of `row` returns, computed before it: the columns the insert leaves out
 * take their defaults (create-order.ts renders a keyed order's answer from it, so the answer can
 * be inserted by the same statement; test/modules/orders/created-view.test.ts checks the two agree).
 */
export function wouldBeRow(row: Insertable<OrdersTable>): OrderRow {
  const defaults = Object.fromEntries(ORDER_COLUMNS.map((column) => [column, null]));
  return { ...defaults, excess_amount_token: '0', limit_released: false, unproven_wallet_reserved: false, step_attempts: 0, ...row } as OrderRow;
}

/** The key's insert around its two parameters, by column list (one list in practice). */
const keyInserts = new Map<string, [RawBuilder<unknown>, RawBuilder<unknown>, RawBuilder<unknown>]>();

/**
 * The key's row as a CTE inserting only if the order is (`from created`). Its text is built once:
 * composing it from identifiers at every request cost a keyed order more than its rendering, and
 * the sealed answer (most of the row's bytes) is a parameter of its own, never escaped into the
 * JSON nor parsed as jsonb (bench/reports/2026-11-26-keyed-payin-excess.md).
 */
function keyInsertOf(key: Insertable<IdempotencyKeysTable>) {
  const { response_body: body, ...rest } = key;
  const columns = Object.keys(rest);
  const id = columns.join(',');
  let parts = keyInserts.get(id);
  if (!parts) {
    if (!columns.every((column) => /^[a-z_]+$/.test(column))) throw new Error(`not a column name: ${id}`);
    const names = columns.map((column) => `"${column}"`);
    parts = [
      sql.raw(`, keyed as (insert into idempotency_keys (${names.join(', ')}, "response_body") select ${names.map((name) => `k.${name}`).join(', ')}, `),
      sql.raw('::text from created, jsonb_populate_record(null::idempotency_keys, '),
      sql.raw('::jsonb) k returning 1)'),
    ];
    keyInserts.set(id, parts);
  }
  return sql`${parts[0]}${body ?? null}${parts[1]}${JSON.stringify(rest)}${parts[2]}`;
}

export const creationRepo = {
  /**
   * One read for every refusal knowable before the provider call and for the price: undefined
   * when the receiver is unknown or another merchant's.
   */
  async context(db: Db, input: { merchantId: string; receiverId: string; type: OrderType; day: string; month: string; externalId: string | null; key: string | null; wallet: string | null }) {
    // The wallet ownership policy's question, asked only of a PAYIN under a policy other than ALLOW.
    const wallet = sql`coalesce(${input.wallet}::text, r.wallet_address)`;
    const result = await sql<CreationContext>`
      select ${sql.join(RECEIVER_COLUMNS.map((column) => sql.ref(`r.${column}`)))}, m.name as merchant_name, m.destination_policy, m.wallet_ownership_policy, m.unproven_wallet_limit_brl,
        (${input.type} = 'PAYIN' and m.wallet_ownership_policy <> 'ALLOW' and (
          exists (select 1 from managed_wallets w where w.address = ${wallet} and w.merchant_id = m.id)
          or exists (select 1 from wallet_ownership_proofs p where p.receiver_id = r.id and p.wallet_address = ${wallet}))) as wallet_proven,
        u.order_count as used_count, u.amount_brl as used_brl,
        (select coalesce(sum(v.amount_brl), 0) from merchant_completed_volume v
          where v.merchant_id = ${input.merchantId} and v.type = ${input.type} and v.month = ${input.month}::date) as month_volume_brl,
        (select o.id from orders o where ${input.externalId}::text is not null and o.merchant_id = ${input.merchantId} and o.external_id = ${input.externalId}::text) as existing_order_id,
        exists (select 1 from idempotency_keys k where ${input.key}::text is not null and k.merchant_id = ${input.merchantId} and k.key = ${input.key}::text) as key_used
      from receivers r
      join merchants m on m.id = r.merchant_id
      left join receiver_daily_usage u on u.receiver_id = r.id and u.day = ${input.day}::date
      where r.id = ${input.receiverId} and r.merchant_id = ${input.merchantId}`.execute(db);
    return result.rows[0];
  },

  /**
   * The whole creation transaction as one statement: the receiver still eligible with the same
   * limits, the day's reservation within them, and the insert only if both hold. A statement is
   * atomic, so nothing is reserved unless the order is inserted: the reservation is the only
   * write that can come out empty, and the inserts refuse only by raising (a taken externalId
   * or charge, or a key a concurrent request with it inserted first: 23505), which undoes the
   * reservation too. Undefined when the receiver or the limits refused: the caller then finds out
   * which, in a transaction of its own.
   *
   * Eligibility is re-checked with the SQL generated from creation-rules.ts's one definition
   * (`eligibilitySql`); the limits are compared with those the early read saw, since the
   * reservation's bounds are those.
   */
  async insertReserved(db: Db, input: ReservedInsert): Promise<OrderRow | undefined> {
    const { row } = input;
    const columns = Object.keys(row);
    const returned = sql.join(ORDER_COLUMNS.map((column) => sql.id(column)));
    const keyInsert = input.key ? keyInsertOf(input.key) : sql``;
    const result = await sql<OrderRow>`
      with eligible as (
        select r.id from receivers r
        where r.id = ${row.receiver_id} and r.merchant_id = ${row.merchant_id}
          and ${eligibilitySql('r', input.atNight)}
          and r.daily_limit_brl is not distinct from ${input.dailyLimitBrl}::numeric
          and r.daily_transaction_limit is not distinct from ${input.dailyTransactionLimit}::int
      ), reserved as (
        insert into receiver_daily_usage as u (receiver_id, day, order_count, amount_brl)
        select id, ${row.limit_day}::date, 1, ${input.amountBrl}::numeric from eligible
        where (${input.dailyTransactionLimit}::int is null or 1 <= ${input.dailyTransactionLimit}::int)
          and (${input.dailyLimitBrl}::numeric is null or ${input.amountBrl}::numeric <= ${input.dailyLimitBrl}::numeric)
        on conflict (receiver_id, day) do update
          set order_count = u.order_count + 1, amount_brl = u.amount_brl + excluded.amount_brl
          where (${input.dailyTransactionLimit}::int is null or u.order_count + 1 <= ${input.dailyTransactionLimit}::int)
            and (${input.dailyLimitBrl}::numeric is null or u.amount_brl + excluded.amount_brl <= ${input.dailyLimitBrl}::numeric)
        returning 1
      ), created as (
        insert into orders (${sql.join(columns.map((column) => sql.id(column)))})
        select ${sql.join(columns.map((column) => sql.ref(`v.${column}`)))}
        from jsonb_populate_record(null::orders, ${JSON.stringify(row)}::jsonb) v
        where exists (select 1 from reserved)
        returning ${returned}
      )${keyInsert}
      select ${returned} from created`.execute(db);
    return result.rows[0];
  },
};

/** Whether an error is the unique index on (merchant_id, external_id) refusing a second order. */
export function isExternalIdConflict(err: unknown): boolean {
  const pgError = err as { code?: string; constraint?: string; message?: string };
  return pgError.code === '23505' && (pgError.constraint === 'orders_merchant_external_id_key' || String(pgError.message).includes('orders_merchant_external_id_key'));
}
