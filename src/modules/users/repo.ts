/** SQL of users (their sessions: sessions-repo.ts). Rows map to the API's shapes here; hashes and sealed secrets never leave. */
import type { Db } from '../../db/database.ts';
import { createTotpRepo } from '../../platform/people/totp-repo.ts';
import type { Role } from './roles.ts';

/** The pool or a transaction on it. */
type Executor = Db;

export interface User {
  id: string;
  merchantId: string;
  email: string;
  role: Role;
  totpEnabled: boolean;
  createdAt: string;
}

const USER_COLUMNS = ['id', 'merchant_id', 'email', 'role', 'totp_enabled_at', 'created_at'] as const;

type UserRow = { id: string; merchant_id: string; email: string; role: Role; totp_enabled_at: Date | null; created_at: Date };
export const toUser = (row: UserRow): User => ({
  id: row.id,
  merchantId: row.merchant_id,
  email: row.email,
  role: row.role,
  totpEnabled: row.totp_enabled_at !== null,
  createdAt: row.created_at.toISOString(),
});

export function createUsersRepo(db: Db) {
  return {
    ...createTotpRepo(db, 'users'),
    async signInRecord(email: string) {
      return db
        .selectFrom('users')
        .innerJoin('merchants', 'merchants.id', 'users.merchant_id')
        .select([...USER_COLUMNS.map((c) => `users.${c}` as const), 'users.password_hash', 'users.totp_secret_sealed', 'merchants.status as merchant_status'])
        .where('users.email', '=', email)
        .executeTakeFirst();
    },
    async get(merchantId: string, id: string, trx: Executor = db) {
      const row = await trx.selectFrom('users').select(USER_COLUMNS).where('merchant_id', '=', merchantId).where('id', '=', id).executeTakeFirst();
      return row ? toUser(row) : undefined;
    },
    async list(merchantId: string) {
      const rows = await db.selectFrom('users').select(USER_COLUMNS).where('merchant_id', '=', merchantId).orderBy('created_at').orderBy('id').execute();
      return rows.map(toUser);
    },
    async countOwners(trx: Executor, merchantId: string) {
      const row = await trx.selectFrom('users').select((eb) => eb.fn.countAll<string>().as('n')).where('merchant_id', '=', merchantId).where('role', '=', 'OWNER').executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async insert(trx: Executor, user: { id: string; merchantId: string; email: string; role: Role; passwordHash: string }) {
      const row = await trx
        .insertInto('users')
        .values({ id: user.id, merchant_id: user.merchantId, email: user.email, role: user.role, password_hash: user.passwordHash })
        .onConflict((oc) => oc.column('email').doNothing())
        .returning(USER_COLUMNS)
        .executeTakeFirst();
      return row ? toUser(row) : undefined;
    },
    async setRole(trx: Executor, id: string, role: Role, now: Date) {
      await trx.updateTable('users').set({ role, updated_at: now }).where('id', '=', id).execute();
    },
    async remove(trx: Executor, id: string) {
      await trx.deleteFrom('users').where('id', '=', id).execute();
    },
    /** Locks the user's row for the rest of the transaction (role and owner-count checks). */
    async lockMerchantUsers(trx: Executor, merchantId: string) {
      await trx.selectFrom('users').select('id').where('merchant_id', '=', merchantId).forUpdate().execute();
    },
  };
}

export type UsersRepo = ReturnType<typeof createUsersRepo>;
