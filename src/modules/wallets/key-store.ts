/**
 * Managed wallets' keys as a SealedKeyStore (src/platform/key-rotation.ts), so `admin rotate-kek`
 * re-seals them with every other kind. A wallet's key is bound to its receiver, or to its
 * merchant for the merchant's own wallet (the owner service.ts opens it with).
 */
import type { Db } from '../../db/database.ts';
import type { KeyVault } from '../../lib/key-vault.ts';
import { countStaleKeys, type SealedKeyStore } from '../../platform/key-rotation.ts';

export function walletKeyStore(db: Db, vault: KeyVault): SealedKeyStore {
  return {
    name: 'managedWallets',
    noun: 'managed wallet key',
    vault,
    countStale: (version) => countStaleKeys(db, 'managed_wallets', version),
    async listStale(version, limit) {
      const rows = await db
        .selectFrom('managed_wallets')
        .select(['id', 'merchant_id', 'receiver_id', 'address', 'encrypted_private_key', 'key_version'])
        .where('key_version', '<>', version)
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map((row) => ({
        id: row.id,
        ownerId: row.receiver_id ?? row.merchant_id,
        address: row.address,
        encryptedPrivateKey: row.encrypted_private_key,
        keyVersion: row.key_version,
      }));
    },
    async replace(from, to) {
      // Whether this statement changed the row, read from RETURNING (the same on both drivers).
      const updated = await db
        .updateTable('managed_wallets')
        .set({ encrypted_private_key: to.encryptedPrivateKey, key_version: to.keyVersion })
        .where('id', '=', from.id)
        .where('key_version', '=', from.keyVersion)
        .where('encrypted_private_key', '=', from.encryptedPrivateKey)
        .returning('id')
        .executeTakeFirst();
      return updated !== undefined;
    },
  };
}
