/**
 * KEK rotation for every kind of sealed key (src/lib/key-vault.ts): each kind's table offers a
 * SealedKeyStore, and resealAll opens every key not sealed under the current WALLET_KEK_VERSION
 * (with its KEK from WALLET_KEK_PREVIOUS) and seals it again under the current one. One key per
 * statement, each a compare-and-set on the old sealed bytes: a crash leaves every key either old
 * (and still openable) or new, so a rerun finishes the job, and a rerun with nothing left does
 * nothing. A new kind of key plugs in by handing its store to the composition's list.
 */
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { KeyVault, SealedKey } from '../lib/key-vault.ts';

/** A stored key not sealed under the current version, as its store reads it. */
export interface StaleKey {
  /** The row's id in its store. */
  id: string;
  /** The owner its vault binds it to (the associated data). */
  ownerId: string;
  address: string;
  encryptedPrivateKey: string;
  keyVersion: number;
}

export interface SealedKeyStore {
  /** The kind's name in reports (`managedWallets`, `platformKeys`). */
  readonly name: string;
  /** What a key of this kind is, for messages ("managed wallet key"). */
  readonly noun: string;
  readonly vault: KeyVault;
  /** How many keys each version other than `version` seals. */
  countStale(version: number): Promise<Map<number, number>>;
  /** Up to `limit` keys not sealed under `version`. */
  listStale(version: number, limit: number): Promise<StaleKey[]>;
  /** Writes `to` over the key `from` if its sealed bytes are still `from`'s; says whether it did. */
  replace(from: StaleKey, to: SealedKey): Promise<boolean>;
}

/** A KEK that is missing or wrong for the keys stored: the operator's fix, in one line, naming no key. */
export class KekError extends Error {
  readonly code: 'KEK_VERSION_MISSING' | 'KEK_DOES_NOT_OPEN';
  constructor(code: KekError['code'], message: string) {
    super(message);
    this.name = 'KekError';
    this.code = code;
  }
}

const BATCH = 100;

/** `countStale` for a store whose table keeps each key's version in `key_version`: keys per version other than `version`. */
export async function countStaleKeys(db: Db, table: string, version: number): Promise<Map<number, number>> {
  const { rows } = await sql<{ key_version: number; count: string }>`
    select key_version, count(*)::text as count from ${sql.table(table)} where key_version <> ${version} group by key_version`.execute(db);
  return new Map(rows.map((row) => [row.key_version, Number(row.count)]));
}

/** Counts of keys re-sealed, by store name. Throws KekError before changing anything when a version has no KEK. */
export async function resealAll(stores: readonly SealedKeyStore[]): Promise<Record<string, number>> {
  for (const store of stores) {
    const missing = [...(await store.countStale(store.vault.currentVersion))].filter(([version]) => !store.vault.canOpen(version));
    if (missing.length > 0) {
      const [version, count] = missing[0]!;
      throw new KekError(
        'KEK_VERSION_MISSING',
        `${count} ${store.noun}(s) are sealed under KEK version ${version}, which neither WALLET_KEK nor WALLET_KEK_PREVIOUS holds: add "${version}:<that KEK, base64>" to WALLET_KEK_PREVIOUS and run rotate-kek again`,
      );
    }
  }
  const resealed: Record<string, number> = {};
  for (const store of stores) {
    const { vault } = store;
    let count = 0;
    for (;;) {
      const stale = await store.listStale(vault.currentVersion, BATCH);
      if (stale.length === 0) break;
      for (const key of stale) {
        let sealed: SealedKey;
        try {
          sealed = vault.reseal(key.ownerId, key);
        } catch (err) {
          // The usual cause: WALLET_KEK_PREVIOUS names another KEK for that version than the one that sealed it.
          const fix = `check the KEK given for version ${key.keyVersion} (WALLET_KEK or WALLET_KEK_PREVIOUS); the keys re-sealed so far stay so, run rotate-kek again once fixed`;
          throw Object.assign(new KekError('KEK_DOES_NOT_OPEN', `${store.noun} ${key.id} does not open under the KEK of version ${key.keyVersion}: ${fix}`), { cause: err });
        }
        // A row whose sealed key opens to another address is damaged: stop rather than bless it.
        if (sealed.address !== key.address) throw new Error(`${store.noun} ${key.id}: its sealed key does not match its address`);
        if (await store.replace(key, sealed)) count += 1;
      }
    }
    resealed[store.name] = count;
  }
  return resealed;
}
