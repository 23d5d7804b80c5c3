/**
 * The configuration with its key material resolved. Production passes JWT_PRIVATE_KEY,
 * API_SECRET_PEPPER, WEBHOOK_SECRET_KEY and WALLET_KEK; elsewhere, missing keys are generated once and kept in
 * $DATA_DIR/dev-secrets.json (mode 0600) so tokens and API secrets survive restarts. The
 * platform's Solana keys (treasury, sponsor) are not among them: they live sealed under WALLET_KEK
 * in the database (src/modules/platform-keys), where SPONSOR_PRIVATE_KEY, when set, is imported once.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from './config.ts';

export interface RuntimeConfig extends Config {
  jwt: Config['jwt'] & { privateKeyPem: string };
  apiSecretPepper: string;
  webhookSecretKey: string;
  walletKek: string;
}

interface DevSecrets {
  jwtPrivateKeyPem: string;
  apiSecretPepper: string;
  /** Added by the webhooks module: files written before it lack it until the next start fills it in. */
  webhookSecretKey: string;
  /** Added by the wallets module (base64, 32 bytes); likewise filled in on the next start. */
  walletKek: string;
  /**
   * Written by the wallets module before the sponsor moved into the database (platform_keys): a
   * file that has it keeps its development sponsor, imported on the next start; new files lack it.
   */
  sponsorPrivateKey?: string;
}

export function generateDevSecrets(): DevSecrets {
  const { privateKey } = generateKeyPairSync('ed25519');
  return {
    jwtPrivateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    apiSecretPepper: randomBytes(32).toString('base64url'),
    webhookSecretKey: randomBytes(32).toString('base64url'),
    walletKek: randomBytes(32).toString('base64'),
  };
}

const DEV_SECRET_NAMES = ['jwtPrivateKeyPem', 'apiSecretPepper', 'webhookSecretKey', 'walletKek'] as const;

export function withSecrets(config: Config, secrets: DevSecrets): RuntimeConfig {
  return {
    ...config,
    jwt: { ...config.jwt, privateKeyPem: config.jwt.privateKeyPem ?? secrets.jwtPrivateKeyPem },
    apiSecretPepper: config.apiSecretPepper ?? secrets.apiSecretPepper,
    webhookSecretKey: config.webhookSecretKey ?? secrets.webhookSecretKey,
    walletKek: config.walletKek ?? secrets.walletKek,
    sponsorPrivateKey: config.sponsorPrivateKey ?? secrets.sponsorPrivateKey,
  };
}

/** Fills missing keys from the development secrets file; says whether it had to. */
export async function resolveRuntimeConfig(config: Config): Promise<{ config: RuntimeConfig; usedDevSecrets: boolean }> {
  if (config.jwt.privateKeyPem && config.apiSecretPepper && config.webhookSecretKey && config.walletKek) {
    return { config: config as RuntimeConfig, usedDevSecrets: false };
  }
  const file = path.join(config.dataDir, 'dev-secrets.json');
  let secrets: DevSecrets;
  try {
    secrets = JSON.parse(await readFile(file, 'utf8')) as DevSecrets;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`cannot read ${file}: ${String(err)}`, { cause: err });
    secrets = generateDevSecrets();
    await mkdir(config.dataDir, { recursive: true });
    await writeFile(file, JSON.stringify(secrets, null, 2), { mode: 0o600, flag: 'wx' });
  }
  const missing = DEV_SECRET_NAMES.filter((name) => !secrets[name]);
  if (missing.length > 0) {
    // A data directory from before a module that added a key: add the missing ones, keep the others.
    const fresh = generateDevSecrets();
    secrets = { ...secrets, ...Object.fromEntries(missing.map((name) => [name, fresh[name]])) };
    await writeFile(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  }
  return { config: withSecrets(config, secrets), usedDevSecrets: true };
}
