/**
 * `npm run -s admin -- generate-keys`: fresh values for every key production requires (and the
 * operator and metrics tokens), one `NAME='value'` line each, in the formats start-up accepts;
 * ready for an env file or `set -a; . ./file`. Printed once, stored nowhere: the operator puts
 * them in the secret store every process of the deployment reads.
 *
 * No Solana key is among them: the treasury and the sponsor live sealed under WALLET_KEK in the
 * database (platform_keys), created there by `admin create-platform-keys` (or brought in by
 * `admin import-platform-key`), so no process environment, env file or secret store holds them
 * in clear. The printed comment says so, since the command is where an operator looks for them.
 */
import { randomBytes } from 'node:crypto';
import { generateDevSecrets } from '../runtime-config.ts';

/** The lines, with a comment saying what each key protects. */
export function productionKeyLines(): string[] {
  const keys = generateDevSecrets();
  const token = () => randomBytes(32).toString('base64url');
  const entries: Array<[name: string, value: string, what: string]> = [
    ['JWT_PRIVATE_KEY', keys.jwtPrivateKeyPem.trim().replaceAll('\n', '\\n'), 'Ed25519 PKCS#8 PEM (\\n escapes) signing access tokens'],
    ['API_SECRET_PEPPER', keys.apiSecretPepper, "seals stored API secrets' digests (rotate: API_SECRET_PEPPER_PREVIOUS, then admin rotate-secrets)"],
    ['WEBHOOK_SECRET_KEY', keys.webhookSecretKey, "encrypts endpoints' signing secrets and TOTP secrets at rest (rotate: WEBHOOK_SECRET_KEY_PREVIOUS, then admin rotate-secrets)"],
    ['WALLET_KEK', keys.walletKek, '32 bytes, base64: seals every Solana key the service holds, in the database (rotate: WALLET_KEK_VERSION, WALLET_KEK_PREVIOUS, then admin rotate-kek)'],
    ['ADMIN_TOKEN', token(), 'bearer token of /api/v1/admin'],
    ['METRICS_TOKEN', token(), 'bearer token of GET /metrics'],
  ];
  return [
    ...entries.flatMap(([name, value, what]) => [`# ${what}`, `${name}='${value}'`]),
    "# The treasury and sponsor keys are not here: with these set, run `npm run admin -- create-platform-keys` once (it seals them in the database and prints their addresses to fund)",
  ];
}
