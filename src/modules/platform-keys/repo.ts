import type { Db } from '../../db/database.ts';
import type { PlatformKeyPurpose, PlatformKeysTable } from './tables.ts';
import type { Insertable } from 'kysely';

/** What shows a key without being able to sign with it. */
const PUBLIC_COLUMNS = ['purpose', 'address', 'key_version', 'created_at', 'updated_at'] as const;
const SIGNING_COLUMNS = [...PUBLIC_COLUMNS, 'encrypted_private_key'] as const;

/** Every function takes the transaction (or root db) it runs in. */
export const platformKeysRepo = {
  find(db: Db, purpose: PlatformKeyPurpose) {
    return db.selectFrom('platform_keys').select(SIGNING_COLUMNS).where('purpose', '=', purpose).executeTakeFirst();
  },

  listPublic(db: Db) {
    return db.selectFrom('platform_keys').select(PUBLIC_COLUMNS).orderBy('purpose').execute();
  },

  /** The key, unless the purpose has one already (then undefined): two processes starting at once keep one key. */
  insertIfAbsent(db: Db, row: Insertable<PlatformKeysTable>) {
    return db
      .insertInto('platform_keys')
      .values(row)
      .onConflict((oc) => oc.column('purpose').doNothing())
      .returning(PUBLIC_COLUMNS)
      .executeTakeFirst();
  },

  listStale(db: Db, version: number, limit: number) {
    return db.selectFrom('platform_keys').select(SIGNING_COLUMNS).where('key_version', '<>', version).orderBy('purpose').limit(limit).execute();
  },

  /** Guarded on the old sealed bytes: a concurrent re-seal wins and this changes nothing. */
  async replaceSealed(db: Db, purpose: PlatformKeyPurpose, from: { encryptedPrivateKey: string; keyVersion: number }, to: { encryptedPrivateKey: string; keyVersion: number }, now: Date) {
    // Whether this statement changed the row, read from RETURNING (the same on both drivers).
    const updated = await db
      .updateTable('platform_keys')
      .set({ encrypted_private_key: to.encryptedPrivateKey, key_version: to.keyVersion, updated_at: now })
      .where('purpose', '=', purpose)
      .where('key_version', '=', from.keyVersion)
      .where('encrypted_private_key', '=', from.encryptedPrivateKey)
      .returning('purpose')
      .executeTakeFirst();
    return updated !== undefined;
  },
};
