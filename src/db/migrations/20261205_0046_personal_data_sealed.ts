import { type Kysely, sql } from 'kysely';

/**
 * Personal data at rest (issue 38, docs/decisions/0026-personal-data-sealed-at-rest.md):
 * - `receivers.document_hash`: the document's keyed hash (blind index, src/lib/personal-data.ts);
 *   uniqueness of a document per merchant moves from the document (sealed: random bytes, never
 *   equal) to it. Null only on a row from before this migration until the sealing pass fills it.
 * - `receivers_document_hash_idx`: the lookups of a document across merchants (a wallet proven by
 *   one person: wallet-ownership/service.ts).
 * - `wallet_ownership_proofs_wallet_idx`: every proof of one wallet, across receivers and merchants.
 * - `operations_register`'s append-only trigger lets one change through: the sealing pass's, which
 *   sets `app.personal_data_reseal` in its transaction and changes nothing but the sealed columns
 *   (the receiver's name and document it copies, the parties' names and documents). Every other
 *   UPDATE, DELETE or TRUNCATE is refused as before.
 * The rows themselves are sealed by the application, which holds the key (a migration has none):
 * the sealing pass of src/modules/receivers/personal-data-store.ts runs at every start and in
 * `admin rotate-kek`, in batches of 100, each row a compare-and-set, so it can be rerun.
 */
const REGISTER_SEALED = sql.raw(
  `array['client_document', 'client_name', 'originator_name', 'originator_document', 'beneficiary_name', 'beneficiary_document']`,
);

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('receivers').addColumn('document_hash', 'text').execute();
  await db.schema.alterTable('receivers').dropConstraint('receivers_merchant_document_key').execute();
  await db.schema.alterTable('receivers').addUniqueConstraint('receivers_merchant_document_hash_key', ['merchant_id', 'document_hash']).execute();
  await db.schema.createIndex('receivers_document_hash_idx').on('receivers').column('document_hash').execute();
  await db.schema.createIndex('wallet_ownership_proofs_wallet_idx').on('wallet_ownership_proofs').column('wallet_address').execute();
  await sql`
    create or replace function operations_register_append_only() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' and current_setting('app.personal_data_reseal', true) = 'on'
        and (to_jsonb(new) - ${REGISTER_SEALED}) = (to_jsonb(old) - ${REGISTER_SEALED}) then
        return new;
      end if;
      raise exception 'operations_register is append-only: % refused', tg_op using errcode = 'insufficient_privilege';
    end $$`.execute(db);
}

/** Back to clear-text uniqueness: only sound on a database whose rows are not sealed yet. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function operations_register_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'operations_register is append-only: % refused', tg_op using errcode = 'insufficient_privilege';
    end $$`.execute(db);
  await db.schema.dropIndex('wallet_ownership_proofs_wallet_idx').execute();
  await db.schema.dropIndex('receivers_document_hash_idx').execute();
  await db.schema.alterTable('receivers').dropConstraint('receivers_merchant_document_hash_key').execute();
  await db.schema.alterTable('receivers').addUniqueConstraint('receivers_merchant_document_key', ['merchant_id', 'document']).execute();
  await db.schema.alterTable('receivers').dropColumn('document_hash').execute();
}
