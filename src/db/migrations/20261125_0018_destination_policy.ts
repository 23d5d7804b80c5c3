import { type Kysely, sql } from 'kysely';

/**
 * Money goes only to the receiver (issue 24, finding 5; docs/architecture/receivers-and-pricing.md "Destination policy"):
 * - `merchants.destination_policy`: RECEIVER_ONLY (every existing and new merchant) refuses a
 *   payout to a PIX key not the receiver's and a PAYIN to a wallet not the receiver's; ANY is set
 *   only by an operator, audited.
 * - `sandbox_pix_keys`: the sandbox PSP's DICT, the holder of each non-document key registered
 *   through `POST /sandbox/pix-keys` (a CPF or CNPJ key's holder is the key itself).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('merchants')
    .addColumn('destination_policy', 'text', (col) =>
      col.notNull().defaultTo('RECEIVER_ONLY').check(sql`destination_policy in ('RECEIVER_ONLY', 'ANY')`),
    )
    .execute();
  await db.schema
    .createTable('sandbox_pix_keys')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('key_type', 'text', (col) => col.notNull().check(sql`key_type in ('EMAIL', 'PHONE', 'EVP')`))
    .addColumn('holder_document', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sandbox_pix_keys').execute();
  await db.schema.alterTable('merchants').dropColumn('destination_policy').execute();
}
