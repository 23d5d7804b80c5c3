/**
 * The configuration with its key material resolved. Production passes JWT_PRIVATE_KEY,
 * API_SECRET_PEPPER and WEBHOOK_SECRET_KEY; elsewhere, missing keys are generated once and kept in
 * $DATA_DIR/dev-secrets.json (mode 0600) so tokens and API secrets survive restarts.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from './config.ts';

export interface RuntimeConfig extends Config {
  jwt: Config['jwt'] & { privateKeyPem: string };
  apiSecretPepper: string;
  webhookSecretKey: string;
}

interface DevSecrets {
  jwtPrivateKeyPem: string;
  apiSecretPepper: string;
  /** Added by the webhooks module: files written before it lack it until the next start fills it in. */
  webhookSecretKey: string;
}

export function generateDevSecrets(): DevSecrets {
  const { privateKey } = generateKeyPairSync('ed25519');
  return {
    jwtPrivateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    apiSecretPepper: randomBytes(32).toString('base64url'),
    webhookSecretKey: randomBytes(32).toString('base64url'),
  };
}

export function withSecrets(config: Config, secrets: DevSecrets): RuntimeConfig {
  return {
    ...config,
    jwt: { ...config.jwt, privateKeyPem: config.jwt.privateKeyPem ?? secrets.jwtPrivateKeyPem },
    apiSecretPepper: config.apiSecretPepper ?? secrets.apiSecretPepper,
    webhookSecretKey: config.webhookSecretKey ?? secrets.webhookSecretKey,
  };
}

/** Fills missing keys from the development secrets file; says whether it had to. */
export async function resolveRuntimeConfig(config: Config): Promise<{ config: RuntimeConfig; usedDevSecrets: boolean }> {
  if (config.jwt.privateKeyPem && config.apiSecretPepper && config.webhookSecretKey) {
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
  if (!secrets.webhookSecretKey) {
    // A data directory from before webhooks: add the missing key, keep the others.
    secrets = { ...secrets, webhookSecretKey: generateDevSecrets().webhookSecretKey };
    await writeFile(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  }
  return { config: withSecrets(config, secrets), usedDevSecrets: true };
}
