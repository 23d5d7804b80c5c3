/**
 * Migration 0082: the order counters, the completed volume and the ledger's zero-sum check run
 * once per statement, from its transition tables. Multi-row statements of every kind (inserts,
 * moves in both directions within one UPDATE, several in one transaction, a change of merchant,
 * deletes) keep the counters equal to the rows (the volume only grows: COMPLETED is terminal); a
 * statement that changes nothing counted writes no counter row. An entry's postings balance at
 * the end of the statement that inserts them, and a posting added later is summed with the rest.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, DatabaseHandle } from '../../src/db/database.ts';
import { newId } from '../../src/lib/ids.ts';
import { openTestDatabase } from '../helpers/database.ts';

const MERCHANTS = ['0190a0e0-0000-7000-8000-0000000000c1', '0190a0e0-0000-7000-8000-0000000000c2'];
const RECEIVERS = ['0190a0e0-0000-7000-8000-0000000000d1', '0190a0e0-0000-7000-8000-0000000000d2'];

let handle: DatabaseHandle;
let db: Db;

beforeAll(async () => {
  handle = await openTestDatabase();
  db = handle.db;
  for (const [i, merchant] of MERCHANTS.entries()) {
    await sql`insert into merchants (id, name, status) values (${merchant}, ${`Counters ${i}`}, 'ACTIVE')`.execute(db);
    await sql`insert into receivers (id, merchant_id, person_type, document_type, document, name, email, night_transactions_enabled)
      values (${RECEIVERS[i]}, ${merchant}, 'PF', 'CPF', ${`counters-${i}`}, 'Counters', ${`counters-${i}@example.com`}, true)`.execute(db);
  }
}, 60_000);
afterAll(() => handle?.close());

/** `count` orders of each merchant in one statement, `status` as given (COMPLETED ones completed on `completedAt`). */
const insertOrders = (count: number, type: 'PAYIN' | 'PAYOUT', status: string, completedAt = '2026-11-20T15:00:00Z') => sql`
  insert into orders (id, merchant_id, receiver_id, type, status, chain, token, amount_brl, amount_token, exchange_rate,
    platform_fee_percentage, merchant_fee_percentage, platform_fee_amount_brl, merchant_fee_amount_brl, net_amount_brl,
    destination_wallet, limit_day, expires_at, completed_at)
  select gen_random_uuid(), m.id, m.receiver, ${type}, ${status}, 'solana', 'USDC', 10 + i, 2, 5.4, 0.01, 0.005, 0.1, 0.05, 9.85,
    '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T', current_date, now() + interval '15 minutes',
    case when ${status} = 'COMPLETED' then ${completedAt}::timestamptz end
  from generate_series(1, ${count}) i cross join (values (${MERCHANTS[0]}::uuid, ${RECEIVERS[0]}::uuid), (${MERCHANTS[1]}::uuid, ${RECEIVERS[1]}::uuid)) as m(id, receiver)`.execute(db);

async function expectCountersMatchRows() {
  const counted = await sql<{ merchant_id: string; type: string; status: string; count: number }>`
    select merchant_id, type, status, count(*)::int as count from orders where merchant_id = any(${MERCHANTS}::uuid[]) group by 1, 2, 3 order by 1, 2, 3`.execute(db);
  const counters = await sql<{ merchant_id: string; type: string; status: string; count: number }>`
    select merchant_id, type, status, sum(count)::int as count from merchant_order_counts where merchant_id = any(${MERCHANTS}::uuid[])
    group by 1, 2, 3 having sum(count) <> 0 order by 1, 2, 3`.execute(db);
  expect(counters.rows).toEqual(counted.rows);
  const completed = await sql<{ merchant_id: string; type: string; month: string; amount: string }>`
    select merchant_id, type, to_char(date_trunc('month', completed_at at time zone 'America/Sao_Paulo'), 'YYYY-MM-DD') as month, sum(amount_brl)::text as amount
    from orders where status = 'COMPLETED' and merchant_id = any(${MERCHANTS}::uuid[]) group by 1, 2, 3 order by 1, 2, 3`.execute(db);
  const volume = await sql<{ merchant_id: string; type: string; month: string; amount: string }>`
    select merchant_id, type, to_char(month, 'YYYY-MM-DD') as month, sum(amount_brl)::text as amount from merchant_completed_volume
    where merchant_id = any(${MERCHANTS}::uuid[]) group by 1, 2, 3 order by 1, 2, 3`.execute(db);
  expect(volume.rows).toEqual(completed.rows);
  return counted.rows;
}

describe('order counters and completed volume, per statement', () => {
  it('agree with the rows after multi-row inserts, moves, updates that move nothing, and deletes', async () => {
    await insertOrders(20, 'PAYIN', 'PAYMENT_RECEIVED');
    await insertOrders(5, 'PAYIN', 'COMPLETED', '2026-10-31T23:30:00-03:00');
    await insertOrders(3, 'PAYOUT', 'AWAITING_DEPOSIT');
    expect(await expectCountersMatchRows()).toHaveLength(6);

    await sql`update orders set status = 'TRANSFERRING' where id in (select id from orders where status = 'PAYMENT_RECEIVED' order by id limit 12)`.execute(db);
    await expectCountersMatchRows();
    // One statement moves orders into TRANSFERRING and others out of it, to COMPLETED: the
    // statement's net change per counter, summed before each counter row is written.
    await sql`
      update orders set status = case status when 'PAYMENT_RECEIVED' then 'TRANSFERRING' else 'COMPLETED' end,
        completed_at = case status when 'TRANSFERRING' then '2026-11-30T23:59:00-03:00'::timestamptz end
      where id in (select id from orders where status = 'PAYMENT_RECEIVED' order by id limit 4)
         or id in (select id from orders where status = 'TRANSFERRING' order by id limit 5)`.execute(db);
    await expectCountersMatchRows();

    // A claim, and an update of completed orders: rows updated, nothing counted changed; no
    // counter row is written (the same row versions after).
    const versions = () => sql<{ row: string }>`
      select (c.*)::text || xmin::text as row from merchant_order_counts c
      union all select (v.*)::text || xmin::text from merchant_completed_volume v order by 1`.execute(db);
    const before = await versions();
    await sql`update orders set claimed_until = now(), claimed_by = gen_random_uuid() where status = 'TRANSFERRING'`.execute(db);
    await sql`update orders set status = status, updated_at = now() where status in ('COMPLETED', 'AWAITING_DEPOSIT')`.execute(db);
    expect((await versions()).rows).toEqual(before.rows);

    // Several statements in one transaction (one counter shard), and an order moved to another merchant.
    await db.transaction().execute(async (trx) => {
      await sql`update orders set status = 'TRANSFERRING' where id in (select id from orders where status = 'PAYMENT_RECEIVED' order by id limit 2)`.execute(trx);
      await sql`update orders set status = 'COMPLETED', completed_at = now() where id in (select id from orders where status = 'TRANSFERRING' order by id limit 3)`.execute(trx);
      await sql`update orders set merchant_id = ${MERCHANTS[1]} where id = (select id from orders where merchant_id = ${MERCHANTS[0]} and status = 'PAYMENT_RECEIVED' order by id limit 1)`.execute(trx);
    });
    await expectCountersMatchRows();

    await sql`delete from orders where status in ('PAYMENT_RECEIVED', 'AWAITING_DEPOSIT')`.execute(db);
    const rows = await expectCountersMatchRows();
    const byStatus = (status: string) => rows.filter((row) => row.status === status).reduce((sum, row) => sum + row.count, 0);
    expect([byStatus('COMPLETED'), byStatus('TRANSFERRING'), rows.length]).toEqual([18, 10, 4]);
  });
});

describe('ledger entries balance per statement', () => {
  const account = async (code: string, currency: string) => {
    const id = newId();
    await sql`insert into ledger_accounts (id, code, merchant_id, currency, wallet) values (${id}, ${code}, null, ${currency}, null)`.execute(db);
    return id;
  };
  const entry = async () => {
    const id = newId();
    await sql`insert into ledger_entries (id, merchant_id, kind, reference_type, reference_id, created_at) values (${id}, ${MERCHANTS[0]}, 'MANUAL', 'entry', ${newId()}, now())`.execute(db);
    return id;
  };
  const insertPostings = (postings: Array<[entryId: string, accountId: string, currency: string, amount: string]>) =>
    sql`insert into ledger_postings (id, entry_id, account_id, currency, amount) values ${sql.join(postings.map(([e, a, c, amount]) => sql`(${newId()}, ${e}, ${a}, ${c}, ${amount})`))}`.execute(db);

  it('accepts balanced entries inserted together, refuses one that does not balance, and sums a later posting with the rest', async () => {
    const [cash, fees, tokens] = [await account('counters_cash', 'BRL'), await account('counters_fees', 'BRL'), await account('counters_tokens', 'USDC')];
    const [first, second] = [await entry(), await entry()];
    // Two entries in one statement, one of them in two currencies, each zero per currency.
    await insertPostings([
      [first, cash, 'BRL', '10.00'],
      [first, fees, 'BRL', '-10.00'],
      [second, cash, 'BRL', '5.50'],
      [second, fees, 'BRL', '-5.50'],
      [second, tokens, 'USDC', '1.000001'],
      [second, tokens, 'USDC', '-1.000001'],
    ]);
    const third = await entry();
    await expect(insertPostings([[third, cash, 'BRL', '1.00'], [third, fees, 'BRL', '-0.99']])).rejects.toThrow(/does not sum to zero per currency/);
    // A balanced entry first does not hide an unbalanced one after it in the same statement.
    const fourth = await entry();
    await expect(insertPostings([[fourth, cash, 'BRL', '2.00'], [fourth, fees, 'BRL', '-2.00'], [third, cash, 'BRL', '1.00']])).rejects.toThrow(new RegExp(`ledger entry ${third} does not sum`));
    // Zero in BRL, not per currency.
    await expect(insertPostings([[third, cash, 'BRL', '1.00'], [third, tokens, 'USDC', '-1.00']])).rejects.toThrow(/does not sum to zero per currency/);
    await expect(insertPostings([[first, cash, 'BRL', '0.01']])).rejects.toThrow(new RegExp(`ledger entry ${first} does not sum`));
    await insertPostings([[first, cash, 'BRL', '0.01'], [first, fees, 'BRL', '-0.01']]);
    const sums = await sql<{ entry_id: string; currency: string; sum: string }>`
      select entry_id, currency, sum(amount)::text as sum from ledger_postings where entry_id in (${first}, ${second}, ${third}) group by 1, 2 order by 1, 2`.execute(db);
    expect(sums.rows.map((row) => row.sum)).toEqual(['0.000000000', '0.000000000', '0.000000000']);
  });
});
