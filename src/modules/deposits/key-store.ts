/**
 * Deposit addresses' keys as a SealedKeyStore (src/platform/key-rotation.ts), so `admin rotate-kek`
 * re-seals them with every other kind: a deposit key must open long after its order, to sweep or
 * return what reached it. Each key is bound to its reference (the owner in its associated data).
 */
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import type { KeyVault } from '../../lib/key-vault.ts';
import { countStaleKeys, type SealedKeyStore } from '../../platform/key-rotation.ts';

export function depositKeyStore(db: Db, vault: KeyVault, clock: Clock): SealedKeyStore {
  return {
    name: 'depositAddresses',
    noun: 'deposit address key',
    vault,
    countStale: (version) => countStaleKeys(db, 'deposit_addresses', version),
    async listStale(version, limit) {
      const rows = await db
        .selectFrom('deposit_addresses')
        .select(['reference', 'owner_address', 'encrypted_private_key', 'key_version'])
        .where('key_version', '<>', version)
        .orderBy('reference')
        .limit(limit)
        .execute();
      return rows.map((row) => ({ id: row.reference, ownerId: row.reference, address: row.owner_address, encryptedPrivateKey: row.encrypted_private_key, keyVersion: row.key_version }));
    },
    async replace(from, to) {
      // Whether this statement changed the row, read from RETURNING (the same on both drivers).
      const updated = await db
        .updateTable('deposit_addresses')
        .set({ encrypted_private_key: to.encryptedPrivateKey, key_version: to.keyVersion, updated_at: clock.now() })
        .where('reference', '=', from.id)
        .where('key_version', '=', from.keyVersion)
        .where('encrypted_private_key', '=', from.encryptedPrivateKey)
        .returning('reference')
        .executeTakeFirst();
      return updated !== undefined;
    },
  };
}
