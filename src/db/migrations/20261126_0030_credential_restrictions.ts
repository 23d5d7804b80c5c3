import { type Kysely, sql } from 'kysely';

/**
 * What a merchant may restrict an API key to (issue 28, docs/architecture/people-and-sessions.md):
 * an expiry, an IP allow-list (addresses and CIDR ranges, validated by the service), and scopes
 * (merchants/scopes.ts). NULL means unrestricted, as every key issued before. `last_used_at` is
 * written at most once a minute per key and process, off the request path.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('api_credentials')
    .addColumn('expires_at', 'timestamptz')
    .addColumn('allowed_ips', sql`text[]`, (col) => col.check(sql`cardinality(allowed_ips) between 1 and 20`))
    .addColumn('scopes', sql`text[]`, (col) => col.check(sql`cardinality(scopes) between 1 and 10`))
    .addColumn('last_used_at', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_credentials').dropColumn('expires_at').dropColumn('allowed_ips').dropColumn('scopes').dropColumn('last_used_at').execute();
}
