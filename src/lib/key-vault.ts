/**
 * Ed25519 keys sealed at rest, for every kind the service holds (managed wallets, the platform's
 * treasury and sponsor, and any later kind): the 32-byte seed is sealed with AES-256-GCM under a
 * key-encryption key (WALLET_KEK), with the kind, the owner and the KEK version as associated data:
 * a sealed key copied onto another owner's row, into another kind's table, or relabelled with
 * another version, does not open. Each row keeps the version that sealed it, so the KEK can
 * rotate (new keys under the new version, old rows opened with WALLET_KEK_PREVIOUS until
 * re-sealed by src/platform/key-rotation.ts). Seeds are never logged or returned; signers hold
 * them as node:crypto KeyObjects, and no error message here carries key material.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { getBase58Decoder } from '@solana/kit';
import { type AeadBox, createAeadBox, deriveKey } from './aead.ts';
import { keypairBytes } from './solana.ts';

/** Signs Solana messages with one key; `address` is its public key, base58. */
export interface Signer {
  readonly address: string;
  sign(message: Uint8Array): Uint8Array;
}

/** The key-encryption keys (WALLET_KEK, WALLET_KEK_VERSION, WALLET_KEK_PREVIOUS). */
export interface KeyVaultSettings {
  /** The current KEK, 32 bytes base64: every new key is sealed under it. */
  kek: string;
  /** Stored with every key sealed under `kek`. */
  version: number;
  /** Retired KEKs by version, kept so keys sealed under them still open. */
  previous?: Record<number, string>;
}

const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const base58 = getBase58Decoder();

function privateKeyFromSeed(seed: Uint8Array): KeyObject {
  return createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

function addressOf(privateKey: KeyObject): string {
  const x = createPublicKey(privateKey).export({ format: 'jwk' }).x;
  if (!x) throw new Error('Ed25519 public key without x');
  return base58.decode(Buffer.from(x, 'base64url'));
}

export function signerFromSeed(seed: Uint8Array): Signer {
  const key = privateKeyFromSeed(seed);
  const address = addressOf(key);
  return { address, sign: (message) => new Uint8Array(sign(null, message, key)) };
}

/**
 * The seed of a 64-byte Solana keypair (seed then public key, base58 or solana-keygen's JSON
 * array); the two halves must agree. `name` says what was read in the error (never the value).
 */
export function seedFromKeypair(text: string, name = 'the keypair'): Buffer {
  const bytes = keypairBytes(text.trim());
  if (!bytes) throw new Error(`${name} is not a 64-byte Solana keypair`);
  const seed = Buffer.from(bytes.subarray(0, 32));
  if (signerFromSeed(seed).address !== base58.decode(bytes.subarray(32))) {
    seed.fill(0);
    throw new Error(`${name}: the public half does not match the private half`);
  }
  return seed;
}

/** A signer from a 64-byte keypair (see seedFromKeypair), e.g. SPONSOR_PRIVATE_KEY. */
export function signerFromKeypair(text: string, name = 'SPONSOR_PRIVATE_KEY'): Signer {
  const seed = seedFromKeypair(text, name);
  try {
    return signerFromSeed(seed);
  } finally {
    seed.fill(0);
  }
}

export interface SealedKey {
  address: string;
  encryptedPrivateKey: string;
  keyVersion: number;
}

export interface KeyVault {
  /** What it seals: part of the associated data and of the derived key's label. */
  readonly kind: string;
  readonly currentVersion: number;
  /** Whether a key sealed under `version` opens (its KEK is the current one or in WALLET_KEK_PREVIOUS). */
  canOpen(version: number): boolean;
  /** A new keypair for `ownerId`, sealed under the current KEK. */
  generate(ownerId: string): SealedKey;
  /** An existing keypair's seed (32 bytes) sealed for `ownerId` under the current KEK; the caller wipes the seed. */
  seal(ownerId: string, seed: Uint8Array): SealedKey;
  /** The signer of a stored key; throws if the KEK, the owner or the ciphertext is wrong. */
  open(ownerId: string, sealed: Omit<SealedKey, 'address'>): Signer;
  /** The same key sealed again under the current KEK (the seed never leaves the vault). */
  reseal(ownerId: string, sealed: Omit<SealedKey, 'address'>): SealedKey;
}

/**
 * A vault for one kind of key. Managed wallets are kind 'managed-wallet' (their rows were sealed
 * with that label before other kinds existed, so it must not change); each other kind names its own.
 */
export function createKeyVault(settings: KeyVaultSettings, kind = 'managed-wallet'): KeyVault {
  const boxes = new Map<number, AeadBox>();
  for (const [version, kek] of Object.entries(settings.previous ?? {})) boxes.set(Number(version), boxFor(kek));
  boxes.set(settings.version, boxFor(settings.kek));

  function boxFor(kek: string): AeadBox {
    return createAeadBox(deriveKey(Buffer.from(kek, 'base64'), `${kind}-keys`));
  }
  const associatedData = (ownerId: string, version: number) => `${kind}:${ownerId}:v${version}`;

  function seal(ownerId: string, seed: Uint8Array): SealedKey {
    const encryptedPrivateKey = boxes.get(settings.version)!.seal(seed, associatedData(ownerId, settings.version));
    return { address: addressOf(privateKeyFromSeed(seed)), encryptedPrivateKey, keyVersion: settings.version };
  }

  function withSeed<T>(ownerId: string, sealed: Omit<SealedKey, 'address'>, use: (seed: Buffer) => T): T {
    const box = boxes.get(sealed.keyVersion);
    if (!box) throw new Error(`no WALLET_KEK for key version ${sealed.keyVersion}`);
    const seed = box.open(sealed.encryptedPrivateKey, associatedData(ownerId, sealed.keyVersion));
    try {
      return use(seed);
    } finally {
      seed.fill(0);
    }
  }

  return {
    kind,
    currentVersion: settings.version,
    canOpen: (version) => boxes.has(version),
    generate(ownerId) {
      const { privateKey } = generateKeyPairSync('ed25519');
      const seed = Buffer.from(privateKey.export({ format: 'jwk' }).d!, 'base64url');
      try {
        return seal(ownerId, seed);
      } finally {
        seed.fill(0);
      }
    },
    seal,
    open: (ownerId, sealed) => withSeed(ownerId, sealed, signerFromSeed),
    reseal: (ownerId, sealed) => withSeed(ownerId, sealed, (seed) => seal(ownerId, seed)),
  };
}
