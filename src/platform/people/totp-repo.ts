/**
 * SQL of a person's TOTP state, one implementation for both kinds of person (the `users` and
 * `operators` tables hold the same TOTP columns). Enrolment may replace a secret only while TOTP
 * is off; a code's time step is spent by a guarded update, so a replayed code changes nothing.
 */
import type { ColumnType, Kysely } from 'kysely';
import type { Db } from '../../db/database.ts';

export type PeopleTable = 'users' | 'operators';

interface TotpColumns {
  id: string;
  email: string;
  totp_secret_sealed: string | null;
  totp_enabled_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  totp_last_step: ColumnType<string | number | null, number | null | undefined, number | null>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}
/** The TOTP columns of either table: the database's own map knows each table whole. */
const totpDb = (db: Db) => db as unknown as Kysely<Record<PeopleTable, TotpColumns>>;

export function createTotpRepo(db: Db, table: PeopleTable) {
  return {
    async totpState(id: string) {
      return totpDb(db).selectFrom(table).select(['email', 'totp_secret_sealed', 'totp_enabled_at']).where('id', '=', id).executeTakeFirstOrThrow();
    },
    async setTotpSecret(id: string, sealed: string, now: Date) {
      await totpDb(db).updateTable(table).set({ totp_secret_sealed: sealed, updated_at: now }).where('id', '=', id).where('totp_enabled_at', 'is', null).execute();
    },
    /** Turns TOTP on, spending the confirming code's step; false when it was on already. */
    async enableTotp(id: string, now: Date, step: number) {
      const result = await totpDb(db).updateTable(table).set({ totp_enabled_at: now, totp_last_step: step, updated_at: now }).where('id', '=', id).where('totp_enabled_at', 'is', null).executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    /** Spends a TOTP step: stored only if newer than the last one, so a replayed or older code changes nothing and answers false. */
    async acceptTotpStep(trx: Db, id: string, step: number) {
      const result = await totpDb(trx)
        .updateTable(table)
        .set({ totp_last_step: step })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
  };
}
