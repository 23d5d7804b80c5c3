import { type Kysely, sql } from 'kysely';

/**
 * Personal data at rest, the parties' accounts (issue 38, docs/decisions/0026-personal-data-sealed-at-rest.md):
 * the operations register's `originator_account` and `beneficiary_account` hold a PAYOUT's PIX key
 * (copied sealed from the order, orders/sealed-columns.ts) or a wallet. The append-only trigger of
 * 0046 lets the sealing pass change only the sealed columns: these two join them, so the pass can
 * seal the accounts written before and re-seal them after a KEK rotation. Nothing else changes.
 */
const sealedColumns = (accounts: boolean) =>
  sql.raw(
    `array['client_document', 'client_name', 'originator_name', 'originator_document', 'beneficiary_name', 'beneficiary_document'${accounts ? ", 'originator_account', 'beneficiary_account'" : ''}]`,
  );

async function appendOnlyTrigger(db: Kysely<unknown>, accounts: boolean) {
  await sql`
    create or replace function operations_register_append_only() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' and current_setting('app.personal_data_reseal', true) = 'on'
        and (to_jsonb(new) - ${sealedColumns(accounts)}) = (to_jsonb(old) - ${sealedColumns(accounts)}) then
        return new;
      end if;
      raise exception 'operations_register is append-only: % refused', tg_op using errcode = 'insufficient_privilege';
    end $$`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await appendOnlyTrigger(db, true);
}

/** Back to 0046's trigger: only sound while no account is sealed (the pass would be refused on them). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await appendOnlyTrigger(db, false);
}
