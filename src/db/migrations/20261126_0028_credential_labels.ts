import { type Kysely, sql } from 'kysely';

/**
 * A merchant's own name for an API key (issue 28: keys created by its people, docs/architecture/
 * people-and-sessions.md), so a list of keys says which is which before one is revoked. Optional:
 * keys issued before, and by operators, have none.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('api_credentials')
    .addColumn('label', 'text', (col) => col.check(sql`char_length(label) between 1 and 100`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_credentials').dropColumn('label').execute();
}
