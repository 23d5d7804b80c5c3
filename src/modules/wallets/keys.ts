/**
 * Managed wallet keys: Ed25519 keypairs whose 32-byte seed is sealed with AES-256-GCM under a
 * key-encryption key (WALLET_KEK), the owner's id and the KEK version as associated data: a sealed
 * key copied onto another owner's row, or relabelled with another version, does not open. Each row
 * keeps the version that sealed it, so the KEK can rotate (new keys under the new version, old rows
 * opened with WALLET_KEK_PREVIOUS until re-sealed). Seeds are never logged or returned; signers
 * hold them as non-exportable-by-accident node:crypto KeyObjects.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { getBase58Decoder } from '@solana/kit';
import { type AeadBox, createAeadBox, deriveKey } from '../../lib/aead.ts';
import { keypairBytes } from '../../lib/solana.ts';
import type { KeyVaultSettings } from './settings.ts';

/** Signs Solana messages with one key; `address` is its public key, base58. */
export interface Signer {
  readonly address: string;
  sign(message: Uint8Array): Uint8Array;
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

/** The sponsor from SPONSOR_PRIVATE_KEY (64 bytes: seed then public key; the two must agree). */
export function signerFromKeypair(text: string): Signer {
  const bytes = keypairBytes(text);
  if (!bytes) throw new Error('SPONSOR_PRIVATE_KEY is not a 64-byte Solana keypair');
  const signer = signerFromSeed(bytes.subarray(0, 32));
  if (signer.address !== base58.decode(bytes.subarray(32))) throw new Error('SPONSOR_PRIVATE_KEY: the public half does not match the private half');
  return signer;
}

export interface SealedKey {
  address: string;
  encryptedPrivateKey: string;
  keyVersion: number;
}

export interface KeyVault {
  readonly currentVersion: number;
  /** A new keypair for `ownerId` (receiver or merchant id), sealed under the current KEK. */
  generate(ownerId: string): SealedKey;
  /** The signer of a stored key; throws if the KEK, the owner or the ciphertext is wrong. */
  open(ownerId: string, sealed: Omit<SealedKey, 'address'>): Signer;
}

const associatedData = (ownerId: string, version: number) => `managed-wallet:${ownerId}:v${version}`;

export function createKeyVault(settings: KeyVaultSettings): KeyVault {
  const boxes = new Map<number, AeadBox>();
  for (const [version, kek] of Object.entries(settings.previous ?? {})) boxes.set(Number(version), boxFor(kek));
  boxes.set(settings.version, boxFor(settings.kek));

  function boxFor(kek: string): AeadBox {
    return createAeadBox(deriveKey(Buffer.from(kek, 'base64'), 'managed-wallet-keys'));
  }

  return {
    currentVersion: settings.version,
    generate(ownerId) {
      const { privateKey } = generateKeyPairSync('ed25519');
      const seed = Buffer.from(privateKey.export({ format: 'jwk' }).d!, 'base64url');
      try {
        const encryptedPrivateKey = boxes.get(settings.version)!.seal(seed, associatedData(ownerId, settings.version));
        return { address: addressOf(privateKey), encryptedPrivateKey, keyVersion: settings.version };
      } finally {
        seed.fill(0);
      }
    },
    open(ownerId, sealed) {
      const box = boxes.get(sealed.keyVersion);
      if (!box) throw new Error(`no WALLET_KEK for key version ${sealed.keyVersion}`);
      const seed = box.open(sealed.encryptedPrivateKey, associatedData(ownerId, sealed.keyVersion));
      try {
        return signerFromSeed(seed);
      } finally {
        seed.fill(0);
      }
    },
  };
}
