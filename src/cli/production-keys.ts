/**
 * `npm run -s admin -- generate-keys`: fresh values for every key production requires (and the
 * operator and metrics tokens), one `NAME='value'` line each, in the formats start-up accepts;
 * ready for an env file or `set -a; . ./file`. Printed once, stored nowhere: the operator puts
 * them in the secret store every process of the deployment reads.
 */
import { randomBytes } from 'node:crypto';
import { generateDevSecrets } from '../runtime-config.ts';

/** The lines, with a comment saying what each key protects. */
export function productionKeyLines(): string[] {
  const keys = generateDevSecrets();
  const token = () => randomBytes(32).toString('base64url');
  const entries: Array<[name: string, value: string, what: string]> = [
    ['JWT_PRIVATE_KEY', keys.jwtPrivateKeyPem.trim().replaceAll('\n', '\\n'), 'Ed25519 PKCS#8 PEM (\\n escapes) signing access tokens'],
    ['API_SECRET_PEPPER', keys.apiSecretPepper, 'HMAC key of stored API secrets: changing it invalidates every API secret'],
    ['WEBHOOK_SECRET_KEY', keys.webhookSecretKey, "encrypts endpoints' signing secrets at rest"],
    ['WALLET_KEK', keys.walletKek, "32 bytes, base64: encrypts managed wallets' private keys (rotate with WALLET_KEK_VERSION/WALLET_KEK_PREVIOUS)"],
    ['SPONSOR_PRIVATE_KEY', keys.sponsorPrivateKey, "the platform's fee payer keypair, base58 (fund its address before use)"],
    ['ADMIN_TOKEN', token(), 'bearer token of /api/v1/admin'],
    ['METRICS_TOKEN', token(), 'bearer token of GET /metrics'],
  ];
  return entries.flatMap(([name, value, what]) => [`# ${what}`, `${name}='${value}'`]);
}
