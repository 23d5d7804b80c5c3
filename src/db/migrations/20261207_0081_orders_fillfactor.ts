import { type Kysely, sql } from 'kysely';

/**
 * Room on the orders' pages for their updates (issue 44, bench chain-payin-backlog). An order is
 * written several times soon after its insert: each claim of a worker lane or a batch leader, the
 * release of a mate a batch could not carry, each step. The claims and releases change no indexed
 * column, so PostgreSQL can write them as heap-only tuples (no index touched) when the page holding
 * the row has room; at the default fillfactor of 100 the pages of newly inserted orders are full,
 * and every such update went to another page and into all of the table's 18 indexes. 80 leaves a
 * fifth of each new page free. Pages written before keep their layout until rewritten.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table orders set (fillfactor = 80)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table orders reset (fillfactor)`.execute(db);
}
