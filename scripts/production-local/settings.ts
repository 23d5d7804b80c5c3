/**
 * The service's environment for this machine: every setting NODE_ENV=production demands
 * (src/config/load.ts, simulation.ts), each pointing at a real part that runs locally:
 * - the keys `npm run admin -- generate-keys` printed (JWT, pepper, webhook key, KEK, admin and
 *   metrics tokens), never generated development keys;
 * - PostgreSQL (DATABASE_URL), the PSP through API Pix over mTLS with an https callback through the
 *   TLS front and a header secret, an https price source, the chain's JSON-RPC with the mint, and
 *   SMTP to the mail sink; the local CA trusted through NODE_EXTRA_CA_CERTS.
 * Written to <state>/service.env as NAME='value' lines, so `set -a; . <state>/service.env; set +a`
 * lets `npm run admin -- ...` reach the same deployment. PORT and ROLES are per process.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { LocalTls } from './certificates.ts';
import type { ChainSimulator, PspSimulator } from './simulators.ts';

export type Env = Record<string, string>;

/** The header the PSP simulator adds to every callback (PSP_SIM_WEBHOOK_HEADERS) and the service requires. */
export const WEBHOOK_HEADER = 'x-webhook-secret';

/** `NAME='value'` lines of `admin generate-keys` (comments skipped) as an object. */
export function keysFrom(lines: string): Env {
  const keys: Env = {};
  for (const line of lines.split('\n')) {
    const match = /^([A-Z_0-9]+)='(.*)'$/.exec(line.trim());
    if (match) keys[match[1]!] = match[2]!;
  }
  for (const name of ['JWT_PRIVATE_KEY', 'API_SECRET_PEPPER', 'WEBHOOK_SECRET_KEY', 'WALLET_KEK', 'ADMIN_TOKEN', 'METRICS_TOKEN']) {
    if (!keys[name]) throw new Error(`admin generate-keys printed no ${name}`);
  }
  return keys;
}

/** Fresh secrets of the PSP's callback: the URL's path token and the header. */
export function callbackSecrets() {
  return { token: randomBytes(32).toString('base64url'), headerSecret: randomBytes(32).toString('base64url') };
}

export interface Parts {
  stateDir: string;
  databaseUrl: string;
  keys: Env;
  tls: LocalTls;
  psp: PspSimulator;
  callback: { token: string; headerSecret: string };
  chain: ChainSimulator;
  priceUrl: string;
  smtpUrl: string;
  frontUrl: string;
  /** The smoke run: the deposit watcher and sweeps every 200 ms instead of 2 s. */
  smoke: boolean;
}

export function serviceEnv(parts: Parts): Env {
  const certificates = parts.psp.ready.certificates as Record<string, string>;
  return {
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    DATA_DIR: path.join(parts.stateDir, 'data'),
    DATABASE_URL: parts.databaseUrl,
    ...parts.keys,
    // The TLS front is the one proxy; it sets X-Forwarded-For and -Proto.
    TRUST_PROXY: '127.0.0.1',
    PUBLIC_APP_URL: parts.frontUrl,
    PIX_PROVIDER: 'api-pix',
    PIX_API_BASE_URL: parts.psp.ready.pixApiBaseUrl as string,
    PIX_OAUTH_TOKEN_URL: parts.psp.ready.tokenUrl as string,
    PIX_OUT_BASE_URL: parts.psp.ready.apiUrl as string,
    PIX_CLIENT_ID: parts.psp.ready.clientId as string,
    PIX_CLIENT_SECRET: parts.psp.ready.clientSecret as string,
    PIX_CLIENT_CERT: certificates.clientCertPem!,
    PIX_CLIENT_KEY: certificates.clientKeyPem!,
    PIX_CA_CERT: certificates.caPem!,
    PIX_WEBHOOK_PUBLIC_URL: parts.frontUrl,
    PIX_WEBHOOK_TOKEN: parts.callback.token,
    PIX_WEBHOOK_HEADER_NAME: WEBHOOK_HEADER,
    PIX_WEBHOOK_HEADER_SECRET: parts.callback.headerSecret,
    PRICE_SOURCE: 'http',
    PRICE_URL: parts.priceUrl,
    CHAIN_PROVIDER: 'solana-rpc',
    SOLANA_RPC_URL: parts.chain.rpcUrl,
    CHAIN_TOKEN_MINTS: `USDC:${parts.chain.usdcMint}`,
    TREASURY_LOW_BALANCE: 'USDC:100,SOL:0.5',
    EMAIL_PROVIDER: 'smtp',
    SMTP_URL: parts.smtpUrl,
    EMAIL_FROM: 'no-reply@production-local.test',
    NODE_EXTRA_CA_CERTS: parts.tls.caCertFile,
    ...(parts.smoke ? { CHAIN_DEPOSIT_WATCH_INTERVAL_MS: '200' } : {}),
  };
}

const quoted = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

/** <state>/service.env, readable by its owner only (it holds every key). */
export function writeEnvFile(file: string, env: Env): void {
  const lines = ['# npm run production-local: the service settings of this run (secrets: keep this file private).', '# set -a; . ./this-file; set +a  then npm run admin -- ... reaches the same deployment.'];
  writeFileSync(file, `${[...lines, ...Object.entries(env).map(([name, value]) => `${name}=${quoted(value)}`)].join('\n')}\n`, { mode: 0o600 });
}
