import { type Kysely, sql } from 'kysely';

/**
 * The deposit watcher at scale (issue 44, item 3): each watched address keeps the balance of its
 * token account (base units) as of the last signatures it handled, so a pass reads every balance in
 * `getMultipleAccounts` batches and lists signatures only where the balance moved. Existing
 * addresses start unknown (null: read once); new ones start at 0 (a fresh keypair's token account
 * does not exist yet).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('deposit_addresses').addColumn('observed_amount', 'numeric').execute();
  await db.schema
    .alterTable('deposit_addresses')
    .alterColumn('observed_amount', (col) => col.setDefault(sql`0`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('deposit_addresses').dropColumn('observed_amount').execute();
}
