import { type Kysely, sql } from 'kysely';
import { appendOnly, dropAppendOnly } from '../append-only.ts';

/**
 * The audit log's rename entries hold a receiver's names sealed (src/platform/audit/sealed-details.ts,
 * docs/decisions/0026): the log stays append-only, but the sealing pass may now rewrite `details`
 * (and nothing else, in a transaction that declares itself the pass), as it rewrites the operations
 * register's sealed copies; and a rename entry written with a clear name voids the sealing marker
 * (0052), so the next start seals it.
 *
 * Frozen here as this migration writes them: the action and the keys.
 */
const ACTION = 'receiver.kyc_review_on_rename';
const KEYS = ['previousName', 'name'] as const;
const MARKER_TRIGGER = sql.raw('admin_audit_log_personal_data_clear');

export async function up(db: Kysely<unknown>): Promise<void> {
  await dropAppendOnly(db, 'admin_audit_log');
  await appendOnly(db, 'admin_audit_log', { resealable: ['details'] });
  const clear = sql.raw(KEYS.map((key) => `(jsonb_typeof(new.details -> '${key}') = 'string' and new.details ->> '${key}' !~ '^pd[0-9]+:')`).join(' or '));
  await sql`create trigger ${MARKER_TRIGGER} after insert or update of details on admin_audit_log
    for each row when (new.action = ${sql.lit(ACTION)} and (${clear})) execute function personal_data_clear_write()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger ${MARKER_TRIGGER} on admin_audit_log`.execute(db);
  await dropAppendOnly(db, 'admin_audit_log');
  await appendOnly(db, 'admin_audit_log');
}
