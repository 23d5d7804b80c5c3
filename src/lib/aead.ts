/**
 * AES-256-GCM sealing of small secrets at rest, shared by webhook signing secrets and managed
 * wallet keys. The 256-bit key is derived with HKDF-SHA256 from a master key and a purpose label
 * (one master key never encrypts two kinds of data under the same key); the caller's associated
 * data (e.g. the owner's id) binds a ciphertext to its row: copied elsewhere it does not open.
 * Format: `v1:` + base64(iv[12] | tag[16] | ciphertext).
 */
import { createCipheriv, createDecipheriv, createSecretKey, hkdfSync, randomBytes } from 'node:crypto';

const FORMAT = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface AeadBox {
  seal(plaintext: Uint8Array, associatedData: string): string;
  /** Throws when the key, the associated data or the ciphertext is wrong. */
  open(sealed: string, associatedData: string): Buffer;
}

export function deriveKey(masterKey: string | Uint8Array, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), purpose, 32));
}

/** `key` must be 32 bytes (see deriveKey). */
export function createAeadBox(key: Uint8Array): AeadBox {
  if (key.length !== 32) throw new Error('AES-256-GCM needs a 32-byte key');
  // One KeyObject for the box's life: given raw bytes, every createCipheriv imports the key anew,
  // which was half the cost of sealing an order's answer (bench/reports/2026-11-26-keyed-payin-excess.md).
  const secret = createSecretKey(key);
  return {
    seal(plaintext, associatedData) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', secret, iv);
      cipher.setAAD(Buffer.from(associatedData));
      const encrypted = Buffer.concat([cipher.update(plaintext), cipher.final()]);
      return `${FORMAT}:${Buffer.concat([iv, cipher.getAuthTag(), encrypted]).toString('base64')}`;
    },
    open(sealed, associatedData) {
      const [format, data] = sealed.split(':');
      if (format !== FORMAT || !data) throw new Error('unknown sealed-secret format');
      const raw = Buffer.from(data, 'base64');
      if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('sealed secret too short');
      const decipher = createDecipheriv('aes-256-gcm', secret, raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(associatedData));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
    },
  };
}
