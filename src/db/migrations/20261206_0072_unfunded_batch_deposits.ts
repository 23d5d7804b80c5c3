import { type Kysely, sql } from 'kysely';

/**
 * A payout batch's deposit that never funded it (decision 0051): when the batch expires or is
 * cancelled before its deposits covered its total, what arrived is no longer CREDITED to it but
 * UNFUNDED, held for an operator to return as a LATE deposit is. chain_deposits.outcome's check
 * (0025, named by PostgreSQL after the column) takes the new value.
 */
const OUTCOMES = ['CREDITED', 'ORDER_FAILED', 'LATE', 'REPEATED', 'NO_ORDER', 'WRONG_MINT'];

async function allow(db: Kysely<unknown>, outcomes: string[]): Promise<void> {
  await db.schema.alterTable('chain_deposits').dropConstraint('chain_deposits_outcome_check').execute();
  await db.schema.alterTable('chain_deposits').addCheckConstraint('chain_deposits_outcome_check', sql`outcome in (${sql.join(outcomes.map((o) => sql.lit(o)))})`).execute();
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await allow(db, [...OUTCOMES, 'UNFUNDED']);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update chain_deposits set outcome = 'LATE' where outcome = 'UNFUNDED'`.execute(db);
  await allow(db, OUTCOMES);
}
