import { type Kysely, sql } from 'kysely';

/**
 * A standing address's PIX key and recipient name are personal data, sealed at rest as an order's
 * (migration 0052's marker): a clear value written into them voids the marker. Rows an earlier
 * version stored in clear are sealed by the first start of this code (new sealed columns change the
 * marker's fingerprint, so that start scans).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create trigger standing_deposit_addresses_personal_data_clear after insert or update of pix_key, recipient_name on standing_deposit_addresses
    for each row when (new.pix_key !~ '^pd[0-9]+:' or new.recipient_name !~ '^pd[0-9]+:')
    execute function personal_data_clear_write()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger standing_deposit_addresses_personal_data_clear on standing_deposit_addresses`.execute(db);
}
