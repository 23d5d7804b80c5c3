/**
 * Endpoint signing secrets: `whsec_` + base64 of 32 random bytes (Standard Webhooks). They sign
 * every delivery, so they cannot be hashed; they are stored encrypted with AES-256-GCM under a
 * key derived from WEBHOOK_SECRET_KEY, the endpoint id as associated data (a ciphertext copied to
 * another endpoint does not decrypt). Shown to the merchant only when created or rotated.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;
const FORMAT = 'v1';

export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/** The HMAC key of a secret: the base64 after the prefix, decoded. */
export function secretKeyBytes(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

export interface SecretBox {
  seal(secret: string, endpointId: string): string;
  open(ciphertext: string, endpointId: string): string;
}

export function createSecretBox(masterKey: string): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'webhook-endpoint-secrets', 32));
  return {
    seal(secret, endpointId) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(endpointId));
      const encrypted = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return `${FORMAT}:${Buffer.concat([iv, cipher.getAuthTag(), encrypted]).toString('base64')}`;
    },
    open(ciphertext, endpointId) {
      const [format, data] = ciphertext.split(':');
      if (format !== FORMAT || !data) throw new Error('unknown webhook secret format');
      const raw = Buffer.from(data, 'base64');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      decipher.setAAD(Buffer.from(endpointId));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}
