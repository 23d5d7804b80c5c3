/**
 * TOTP (RFC 6238: SHA-1, 6 digits, 30 s, the authenticator apps' defaults) through otpauth. A code
 * is accepted one step either side of now (clock drift), and once: `step` answers the time step
 * it matched, which the caller stores per person (`totp_last_step`) and refuses again (sessions.ts).
 * The secret is stored sealed with the AEAD of src/lib/aead.ts under its own key derived from
 * WEBHOOK_SECRET_KEY (or its previous version while it rotates), the person's id as associated data.
 */
import { Secret, TOTP } from 'otpauth';
import { createRotatingBox, type MasterKeys, type RotatingBox } from '../../lib/rotating-box.ts';

const ISSUER = 'Crypto/BRL Exchange';
const PERIOD_SECONDS = 30;
export const TOTP_SECRETS_PURPOSE = 'user-totp-secrets';

export function createTotp(masterKey: string | MasterKeys) {
  const box: RotatingBox = createRotatingBox(masterKey, TOTP_SECRETS_PURPOSE);
  const totpOf = (base32: string, label: string) => new TOTP({ issuer: ISSUER, label, secret: Secret.fromBase32(base32) });
  return {
    /** A new secret: its base32 text, the otpauth:// URI for a QR code, and the sealed form to store. */
    enrol(userId: string, email: string) {
      const secret = new Secret({ size: 20 });
      const totp = new TOTP({ issuer: ISSUER, label: email, secret });
      return { secret: secret.base32, otpauthUri: totp.toString(), sealed: box.seal(Buffer.from(secret.base32), userId) };
    },
    /** The time step `code` is valid for (now or one either side), or null when it is none of them. */
    step(sealed: string, userId: string, code: string, now: Date): number | null {
      const base32 = box.open(sealed, userId).toString();
      const delta = totpOf(base32, userId).validate({ token: code, timestamp: now.getTime(), window: 1 });
      return delta === null ? null : Math.floor(now.getTime() / 1000 / PERIOD_SECONDS) + delta;
    },
  };
}

export type Totp = ReturnType<typeof createTotp>;
