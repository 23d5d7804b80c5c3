import { type Kysely, sql } from 'kysely';
import { APPEND_ONLY_FUNCTION, appendOnly, dropAppendOnly } from '../append-only.ts';

/**
 * One append-only trigger function instead of three (issue 39, docs/decisions/0028): the ledger
 * (0007), the audit log (0033) and the operations register (0041, with the sealing pass's
 * exception of 0046/0047) each wrote their own. They become `append_only_refuse_change()`, which
 * new migrations reuse through `appendOnly(db, table)` (src/db/append-only.ts). What is refused
 * stays what was refused, and the ledger's two tables now refuse TRUNCATE too, as the others did.
 *
 * The arguments of a row trigger name the columns the personal-data sealing pass may rewrite,
 * in a transaction that sets `app.personal_data_reseal`, when nothing else changes (the register's
 * sealed copies); a table without arguments lets nothing through.
 */
const REGISTER_SEALED = [
  'client_document',
  'client_name',
  'originator_name',
  'originator_document',
  'beneficiary_name',
  'beneficiary_document',
  'originator_account',
  'beneficiary_account',
] as const;

const LEDGER = ['ledger_entries', 'ledger_postings'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function ${sql.raw(APPEND_ONLY_FUNCTION)}() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' and tg_nargs > 0 then
        if current_setting('app.personal_data_reseal', true) = 'on' and (to_jsonb(new) - tg_argv) = (to_jsonb(old) - tg_argv) then
          return new;
        end if;
      end if;
      raise exception '% is append-only: % refused', tg_table_name, tg_op using errcode = 'insufficient_privilege';
    end $$`.execute(db);

  for (const table of LEDGER) await sql`drop trigger ${sql.raw(`${table}_append_only`)} on ${sql.table(table)}`.execute(db);
  await sql`drop function ledger_refuse_change()`.execute(db);
  await sql`drop trigger admin_audit_log_no_truncate on admin_audit_log`.execute(db);
  await sql`drop trigger admin_audit_log_no_change on admin_audit_log`.execute(db);
  await sql`drop function admin_audit_log_append_only()`.execute(db);
  await sql`drop trigger operations_register_no_truncate on operations_register`.execute(db);
  await sql`drop trigger operations_register_no_change on operations_register`.execute(db);
  await sql`drop function operations_register_append_only()`.execute(db);

  for (const table of LEDGER) await appendOnly(db, table);
  await appendOnly(db, 'admin_audit_log');
  await appendOnly(db, 'operations_register', { resealable: REGISTER_SEALED });
}

/** Back to the three functions as 0047 left them, with their own triggers. */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [...LEDGER, 'admin_audit_log', 'operations_register']) await dropAppendOnly(db, table);
  await sql`drop function ${sql.raw(APPEND_ONLY_FUNCTION)}()`.execute(db);

  await sql`
    create function ledger_refuse_change() returns trigger language plpgsql as $$
    begin
      raise exception 'the ledger is append-only: % on % refused', tg_op, tg_table_name using errcode = '42501';
    end $$`.execute(db);
  for (const table of LEDGER) {
    await sql`create trigger ${sql.raw(`${table}_append_only`)} before update or delete on ${sql.table(table)} for each row execute function ledger_refuse_change()`.execute(db);
  }
  await sql`
    create function admin_audit_log_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'admin_audit_log is append-only: % refused', tg_op using errcode = 'insufficient_privilege';
    end $$`.execute(db);
  await sql`create trigger admin_audit_log_no_change before update or delete on admin_audit_log for each row execute function admin_audit_log_append_only()`.execute(db);
  await sql`create trigger admin_audit_log_no_truncate before truncate on admin_audit_log for each statement execute function admin_audit_log_append_only()`.execute(db);
  const sealed = sql.raw(`array[${REGISTER_SEALED.map((column) => `'${column}'`).join(', ')}]`);
  await sql`
    create function operations_register_append_only() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' and current_setting('app.personal_data_reseal', true) = 'on'
        and (to_jsonb(new) - ${sealed}) = (to_jsonb(old) - ${sealed}) then
        return new;
      end if;
      raise exception 'operations_register is append-only: % refused', tg_op using errcode = 'insufficient_privilege';
    end $$`.execute(db);
  await sql`create trigger operations_register_no_change before update or delete on operations_register for each row execute function operations_register_append_only()`.execute(db);
  await sql`create trigger operations_register_no_truncate before truncate on operations_register for each statement execute function operations_register_append_only()`.execute(db);
}
