/**
 * Endpoint signing secrets: `whsec_` + base64 of 32 random bytes (Standard Webhooks). They sign
 * every delivery, so they cannot be hashed; they are stored encrypted with AES-256-GCM under a
 * key derived from WEBHOOK_SECRET_KEY, or its previous version while it rotates (src/lib/rotating-box.ts), the endpoint id as associated data (a ciphertext copied to
 * another endpoint does not decrypt). Shown to the merchant only when created or rotated.
 */
import { randomBytes } from 'node:crypto';
import { createRotatingBox, type MasterKeys } from '../../lib/rotating-box.ts';

export const SECRET_PREFIX = 'whsec_';
export const WEBHOOK_SECRETS_PURPOSE = 'webhook-endpoint-secrets';
const SECRET_BYTES = 32;

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

export function createSecretBox(masterKey: string | MasterKeys): SecretBox {
  const box = createRotatingBox(masterKey, WEBHOOK_SECRETS_PURPOSE);
  return {
    seal: (secret, endpointId) => box.seal(Buffer.from(secret, 'utf8'), endpointId),
    open: (ciphertext, endpointId) => box.open(ciphertext, endpointId).toString('utf8'),
  };
}
