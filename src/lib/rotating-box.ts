/**
 * A sealing box under a master key with a previous-version slot, for the secrets that rotate
 * without downtime (WEBHOOK_SECRET_KEY and API_SECRET_PEPPER with their `*_PREVIOUS`,
 * docs/architecture/keys.md): it seals under the current key and opens under the current one,
 * then the previous one. `rotate-secrets` (src/platform/secret-rotation.ts) re-seals what only
 * the previous key opens, after which the previous slot can be emptied.
 *
 * The AES-GCM tag tells which key sealed a value, so no version is stored: a value that does not
 * open under the current key is stale, one that opens under neither is refused as before.
 */
import { type AeadBox, createAeadBox, deriveKey } from './aead.ts';

export interface MasterKeys {
  current: string;
  previous?: string | undefined;
}

export interface RotatingBox extends AeadBox {
  /** The plaintext and whether the current key sealed it; throws when neither key opens it. */
  openWithVersion(sealed: string, associatedData: string): { plaintext: Buffer; current: boolean };
}

/** A lone key (tests, older callers) is a key ring without a previous slot. */
export const masterKeysOf = (keys: string | MasterKeys): MasterKeys => (typeof keys === 'string' ? { current: keys } : keys);

export function createRotatingBox(keys: string | MasterKeys, purpose: string): RotatingBox {
  const ring = masterKeysOf(keys);
  const current = createAeadBox(deriveKey(ring.current, purpose));
  const previous = ring.previous ? createAeadBox(deriveKey(ring.previous, purpose)) : undefined;
  function openWithVersion(sealed: string, associatedData: string) {
    try {
      return { plaintext: current.open(sealed, associatedData), current: true };
    } catch (err) {
      if (!previous) throw err;
      return { plaintext: previous.open(sealed, associatedData), current: false };
    }
  }
  return {
    seal: (plaintext, associatedData) => current.seal(plaintext, associatedData),
    open: (sealed, associatedData) => openWithVersion(sealed, associatedData).plaintext,
    openWithVersion,
  };
}
