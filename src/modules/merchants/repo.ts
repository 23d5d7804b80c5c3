import { sql } from 'kysely';
import type { Db as Executor } from '../../db/database.ts';
import type { MerchantRow, MerchantStatus } from './tables.ts';

/** Every function takes the transaction (or the root db) it runs in. */

const MERCHANT_COLUMNS = ['id', 'name', 'status', 'destination_policy', 'created_at', 'updated_at'] as const;

/** The public columns of a credential: never the secret hash. */
const CREDENTIAL_COLUMNS = ['id', 'merchant_id', 'key_id', 'label', 'created_at', 'revoked_at', 'expires_at', 'allowed_ips', 'scopes', 'last_used_at'] as const;

export const merchantsRepo = {
  insertMerchant(db: Executor, merchant: { id: string; name: string; status: MerchantStatus; created_at: Date }) {
    return db.insertInto('merchants').values(merchant).returning(MERCHANT_COLUMNS).executeTakeFirstOrThrow();
  },

  findMerchant(db: Executor, id: string): Promise<MerchantRow | undefined> {
    return db.selectFrom('merchants').select(MERCHANT_COLUMNS).where('id', '=', id).executeTakeFirst();
  },

  async listMerchants(db: Executor, page: { offset: number; limit: number }) {
    const [rows, count] = await Promise.all([
      db.selectFrom('merchants').select(MERCHANT_COLUMNS).orderBy('id', 'desc').offset(page.offset).limit(page.limit).execute(),
      db.selectFrom('merchants').select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  },

  /** Guarded: only changes a merchant whose status is `from`. */
  setMerchantStatus(db: Executor, id: string, from: MerchantStatus, to: MerchantStatus, now: Date) {
    return db
      .updateTable('merchants')
      .set({ status: to, updated_at: now })
      .where('id', '=', id)
      .where('status', '=', from)
      .returning(MERCHANT_COLUMNS)
      .executeTakeFirst();
  },

  insertCredential(
    db: Executor,
    credential: { id: string; merchant_id: string; key_id: string; secret_hash: string; label?: string | null; expires_at?: Date | null; allowed_ips?: string[] | null; scopes?: string[] | null },
  ) {
    return db.insertInto('api_credentials').values(credential).returning(CREDENTIAL_COLUMNS).executeTakeFirstOrThrow();
  },

  listCredentials(db: Executor, merchantId: string) {
    return db
      .selectFrom('api_credentials')
      .select(CREDENTIAL_COLUMNS)
      .where('merchant_id', '=', merchantId)
      .orderBy('created_at', 'desc')
      .execute();
  },

  revokeCredential(db: Executor, merchantId: string, credentialId: string, now: Date) {
    return db
      .updateTable('api_credentials')
      .set({ revoked_at: now })
      .where('id', '=', credentialId)
      .where('merchant_id', '=', merchantId)
      .where('revoked_at', 'is', null)
      .returning(CREDENTIAL_COLUMNS)
      .executeTakeFirst();
  },

  findCredential(db: Executor, merchantId: string, credentialId: string) {
    return db
      .selectFrom('api_credentials')
      .select(CREDENTIAL_COLUMNS)
      .where('id', '=', credentialId)
      .where('merchant_id', '=', merchantId)
      .executeTakeFirst();
  },

  /** The one query of authentication, by key id (key + secret) or by credential id (bearer). */
  findCredentialForAuth(db: Executor, by: { keyId: string } | { id: string }) {
    return db
      .selectFrom('api_credentials as c')
      .innerJoin('merchants as m', 'm.id', 'c.merchant_id')
      .select(['c.id', 'c.key_id', 'c.merchant_id', 'c.secret_hash', 'c.revoked_at', 'c.expires_at', 'c.allowed_ips', 'c.scopes', 'm.status as merchant_status', 'm.name as merchant_name', 'm.created_at as merchant_created_at'])
      .where('keyId' in by ? 'c.key_id' : 'c.id', '=', 'keyId' in by ? by.keyId : by.id)
      .executeTakeFirst();
  },

  /** Last-use times, batched: a row only moves forward (two processes may report the same key). */
  async markCredentialsUsed(db: Executor, uses: readonly { id: string; at: Date }[]): Promise<void> {
    await sql`
      update api_credentials c set last_used_at = u.at
      from unnest(${uses.map((use) => use.id)}::uuid[], ${uses.map((use) => use.at.toISOString())}::timestamptz[]) as u(id, at)
      where c.id = u.id and (c.last_used_at is null or c.last_used_at < u.at)`.execute(db);
  },

  countMerchants(db: Executor) {
    return db
      .selectFrom('merchants')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.total));
  },
};
