/**
 * The platform's own keys (docs/architecture/keys.md): the treasury and the sponsor, one sealed
 * row per purpose in platform_keys, opened once per process and kept in memory as signers. Outside
 * production the composition creates missing keys at start (zero setup); production only opens
 * them, and an operator creates or imports them with `npm run admin`. Nothing here returns, logs
 * or throws key material: only purposes and addresses leave this module.
 */
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { type KeyVault, seedFromKeypair, type Signer } from '../../lib/key-vault.ts';
import { countStaleKeys, KekError, type SealedKeyStore } from '../../platform/key-rotation.ts';
import { platformKeysRepo as repo } from './repo.ts';
import { PLATFORM_KEY_PURPOSES, type PlatformKeyPurpose, treasuryWalletPurpose } from './tables.ts';

export interface PlatformKeysDeps {
  db: Db;
  clock: Clock;
  /** Kind 'platform-key': the purpose is the owner its keys are bound to. */
  vault: KeyVault;
}

/** A key as an operator sees it: never more than its purpose and address. */
export interface PlatformKeyNote {
  purpose: PlatformKeyPurpose;
  address: string;
}

/** A refusal an operator fixes from the command line; the message names the fix and no secret. */
export class PlatformKeyError extends Error {
  readonly code: 'PLATFORM_KEYS_MISSING' | 'PLATFORM_KEY_EXISTS' | 'TREASURY_WALLETS_LOWERED';
  constructor(code: PlatformKeyError['code'], message: string) {
    super(message);
    this.name = 'PlatformKeyError';
    this.code = code;
  }
}

export interface PrepareOptions {
  /** Create the keys that are missing (development and test); else a missing key is refused. */
  createMissing: boolean;
  /** SPONSOR_PRIVATE_KEY: imported once when no SPONSOR key is stored. */
  sponsorKeypair?: string | undefined;
  /** CHAIN_TREASURY_WALLETS (default 1): the treasury wallets' keys prepared, TREASURY then TREASURY_2 … */
  treasuryWallets?: number | undefined;
}

export interface Prepared {
  signers: Record<'TREASURY' | 'SPONSOR', Signer>;
  /** Treasury wallet n's signer at index n − 1 (the first is signers.TREASURY). */
  treasuryWallets: Signer[];
  created: PlatformKeyNote[];
  imported: PlatformKeyNote[];
  /** SPONSOR_PRIVATE_KEY names another key than the stored SPONSOR one, which wins. */
  ignoredSponsorKeypair?: PlatformKeyNote;
}

export const MISSING_KEYS_FIX = 'run `npm run admin -- create-platform-keys` once (or bring an existing keypair with `npm run admin -- import-platform-key --purpose sponsor|treasury`)';

export function createPlatformKeys({ db, clock, vault }: PlatformKeysDeps) {
  const signers = new Map<PlatformKeyPurpose, Signer>();

  /**
   * A stored key opened, or the KEK setting to fix in one line (issue 40): every start opens both
   * platform keys, so they are where a wrong WALLET_KEK, or a rotation missing its previous KEK,
   * shows first, before any other sealed value is read.
   */
  function openSealed(purpose: PlatformKeyPurpose, sealed: { encryptedPrivateKey: string; keyVersion: number }): Signer {
    const version = sealed.keyVersion;
    if (!vault.canOpen(version)) {
      throw new KekError(
        'KEK_VERSION_MISSING',
        `the ${purpose} platform key is sealed under KEK version ${version}, which neither WALLET_KEK (version ${vault.currentVersion}) nor WALLET_KEK_PREVIOUS holds: add "${version}:<that KEK, base64>" to WALLET_KEK_PREVIOUS (a rotation keeps the previous KEK until rotate-kek has run), or set WALLET_KEK and WALLET_KEK_VERSION back`,
      );
    }
    try {
      return vault.open(purpose, sealed);
    } catch (err) {
      const setting = version === vault.currentVersion ? 'WALLET_KEK' : `WALLET_KEK_PREVIOUS's entry`;
      throw Object.assign(
        new KekError('KEK_DOES_NOT_OPEN', `the ${purpose} platform key does not open under ${setting} (KEK version ${version}): set ${setting} to the KEK the database was sealed with (the one in use before, as base64)`),
        { cause: err },
      );
    }
  }

  async function signer(purpose: PlatformKeyPurpose): Promise<Signer> {
    const cached = signers.get(purpose);
    if (cached) return cached;
    const row = await repo.find(db, purpose);
    if (!row) throw new PlatformKeyError('PLATFORM_KEYS_MISSING', `no ${purpose} key in the database: ${MISSING_KEYS_FIX}`);
    const opened = openSealed(purpose, { encryptedPrivateKey: row.encrypted_private_key, keyVersion: row.key_version });
    if (opened.address !== row.address) throw new Error(`platform key ${purpose}: decrypted key does not match its address`);
    signers.set(purpose, opened);
    return opened;
  }

  /** The purpose's key: a new one unless one exists (then that one). */
  async function create(purpose: PlatformKeyPurpose): Promise<PlatformKeyNote & { created: boolean }> {
    const sealed = vault.generate(purpose);
    const now = clock.now();
    const inserted = await repo.insertIfAbsent(db, { purpose, address: sealed.address, encrypted_private_key: sealed.encryptedPrivateKey, key_version: sealed.keyVersion, created_at: now, updated_at: now });
    if (inserted) return { purpose, address: inserted.address, created: true };
    const existing = await repo.find(db, purpose);
    if (!existing) throw new Error(`platform key ${purpose}: neither inserted nor found`);
    return { purpose, address: existing.address, created: false };
  }

  /**
   * An existing 64-byte keypair (base58 or a JSON array) as the purpose's key. The same key again
   * changes nothing; another key when one is stored is refused (replacing a funded key is a
   * decision this command does not take).
   */
  async function importKeypair(purpose: PlatformKeyPurpose, keypair: string, name = 'the keypair'): Promise<PlatformKeyNote & { imported: boolean }> {
    const seed = seedFromKeypair(keypair, name);
    const sealed = (() => {
      try {
        return vault.seal(purpose, seed);
      } finally {
        seed.fill(0);
      }
    })();
    // One key, one purpose: a treasury that is also the fee payer would pay fees from PAYIN money.
    const elsewhere = (await repo.listPublic(db)).find((row) => row.address === sealed.address && row.purpose !== purpose);
    if (elsewhere) {
      throw new PlatformKeyError('PLATFORM_KEY_EXISTS', `${name} is the stored ${elsewhere.purpose} key (address ${sealed.address}): the ${purpose} key must be another one; nothing changed`);
    }
    const now = clock.now();
    const inserted = await repo.insertIfAbsent(db, { purpose, address: sealed.address, encrypted_private_key: sealed.encryptedPrivateKey, key_version: sealed.keyVersion, created_at: now, updated_at: now });
    if (inserted) return { purpose, address: sealed.address, imported: true };
    const existing = await repo.find(db, purpose);
    if (existing?.address === sealed.address) return { purpose, address: sealed.address, imported: false };
    throw new PlatformKeyError('PLATFORM_KEY_EXISTS', `a ${purpose} key is stored already (address ${existing?.address ?? '?'}), and ${name} is another key (address ${sealed.address}): nothing changed`);
  }

  /** At start: import SPONSOR_PRIVATE_KEY if no sponsor is stored, create what is missing when allowed, then open every key. */
  async function prepare(options: PrepareOptions): Promise<Prepared> {
    const created: PlatformKeyNote[] = [];
    const imported: PlatformKeyNote[] = [];
    let ignoredSponsorKeypair: PlatformKeyNote | undefined;
    if (options.sponsorKeypair) {
      try {
        const result = await importKeypair('SPONSOR', options.sponsorKeypair, 'SPONSOR_PRIVATE_KEY');
        if (result.imported) imported.push({ purpose: 'SPONSOR', address: result.address });
      } catch (err) {
        // Another sponsor is stored: it is the one used (and the log says SPONSOR_PRIVATE_KEY is ignored).
        const stored = err instanceof PlatformKeyError ? await repo.find(db, 'SPONSOR') : undefined;
        if (!stored) throw err;
        ignoredSponsorKeypair = { purpose: 'SPONSOR', address: stored.address };
      }
    }
    const stored = new Set<string>((await repo.listPublic(db)).map((row) => row.purpose));
    const wallets = Array.from({ length: options.treasuryWallets ?? 1 }, (_, i) => treasuryWalletPurpose(i + 1));
    // A wallet is never retired by lowering the count: its transfers in flight, its books and its reconciliation need its key.
    const beyond = [...stored].filter((purpose) => /^TREASURY_\d$/.test(purpose) && !(wallets as string[]).includes(purpose)).sort();
    if (beyond.length > 0) {
      throw new PlatformKeyError('TREASURY_WALLETS_LOWERED', `the database holds the treasury wallet key ${beyond.at(-1)}: set CHAIN_TREASURY_WALLETS to at least ${beyond.at(-1)!.slice('TREASURY_'.length)} (wallets are added, never retired; decision 0057)`);
    }
    const missing = [...new Set<PlatformKeyPurpose>([...PLATFORM_KEY_PURPOSES, ...wallets])].filter((purpose) => !stored.has(purpose));
    if (missing.length > 0 && !options.createMissing) {
      throw new PlatformKeyError('PLATFORM_KEYS_MISSING', `no ${missing.join(' or ')} key in the database: ${MISSING_KEYS_FIX}`);
    }
    for (const purpose of missing) {
      const result = await create(purpose);
      if (result.created) created.push({ purpose, address: result.address });
    }
    const [sponsor, ...treasuryWallets] = await Promise.all([signer('SPONSOR'), ...wallets.map((purpose) => signer(purpose))]);
    return { signers: { TREASURY: treasuryWallets[0]!, SPONSOR: sponsor! }, treasuryWallets, created, imported, ...(ignoredSponsorKeypair ? { ignoredSponsorKeypair } : {}) };
  }

  /** Every stored key, public columns only. */
  async function list() {
    const rows = await repo.listPublic(db);
    return rows.map((row) => ({ purpose: row.purpose, address: row.address, keyVersion: row.key_version, createdAt: row.created_at, updatedAt: row.updated_at }));
  }

  const keyStore: SealedKeyStore = {
    name: 'platformKeys',
    noun: 'platform key',
    vault,
    countStale: (version) => countStaleKeys(db, 'platform_keys', version),
    async listStale(version, limit) {
      const rows = await repo.listStale(db, version, limit);
      return rows.map((row) => ({ id: row.purpose, ownerId: row.purpose, address: row.address, encryptedPrivateKey: row.encrypted_private_key, keyVersion: row.key_version }));
    },
    async replace(from, to) {
      // The signer in memory is the same key; only its sealed bytes change.
      return repo.replaceSealed(db, from.id as PlatformKeyPurpose, from, to, clock.now());
    },
  };

  return { signer, create, importKeypair, prepare, list, keyStore };
}

export type PlatformKeys = ReturnType<typeof createPlatformKeys>;
