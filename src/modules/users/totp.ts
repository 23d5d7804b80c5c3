/**
 * TOTP (RFC 6238: SHA-1, 6 digits, 30 s, the authenticator apps' defaults) through otpauth. A code
 * is accepted one step either side of now (clock drift). The secret is stored sealed with the
 * AEAD of src/lib/aead.ts under its own derived key, the user id as associated data.
 */
import { Secret, TOTP } from 'otpauth';
import { type AeadBox, createAeadBox, deriveKey } from '../../lib/aead.ts';

const ISSUER = 'Crypto/BRL Exchange';

export function createTotp(masterKey: string) {
  const box: AeadBox = createAeadBox(deriveKey(masterKey, 'user-totp-secrets'));
  const totpOf = (base32: string, label: string) => new TOTP({ issuer: ISSUER, label, secret: Secret.fromBase32(base32) });
  return {
    /** A new secret: its base32 text, the otpauth:// URI for a QR code, and the sealed form to store. */
    enrol(userId: string, email: string) {
      const secret = new Secret({ size: 20 });
      const totp = new TOTP({ issuer: ISSUER, label: email, secret });
      return { secret: secret.base32, otpauthUri: totp.toString(), sealed: box.seal(Buffer.from(secret.base32), userId) };
    },
    /** Whether `code` is current for the sealed secret. */
    check(sealed: string, userId: string, code: string, now: Date): boolean {
      const base32 = box.open(sealed, userId).toString();
      return totpOf(base32, userId).validate({ token: code, timestamp: now.getTime(), window: 1 }) !== null;
    },
  };
}

export type Totp = ReturnType<typeof createTotp>;
