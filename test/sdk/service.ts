/**
 * The SDK tests' service: `src/main.ts` in its own process on a real socket, as a merchant's
 * code would meet it, on the run's driver (a new PostgreSQL database when DATABASE_URL is set,
 * else the embedded PGlite), with an admin token so each test can make its own merchant.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { emptyPostgresDatabase } from '../helpers/database.ts';
import { type RunningService, startService } from '../helpers/processes.ts';

export const ADMIN_TOKEN = 'sdk-test-admin-token-0123456789abcdef012345';

export interface SdkService {
  /** The API's base URL, `/api/v1` included. */
  baseUrl: string;
  service: RunningService;
  /** A new merchant through the admin API: its key and secret. */
  createMerchant(name?: string): Promise<{ merchantId: string; apiKey: string; apiSecret: string }>;
  /** The service's token signing key (its development secrets), for tests that forge tokens. */
  jwtPrivateKeyPem(): Promise<string>;
  stop(): Promise<void>;
}

export async function startSdkService(env: Record<string, string> = {}): Promise<SdkService> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'exchange-sdk-'));
  const postgres = await emptyPostgresDatabase();
  const service = await startService(dataDir, {
    ADMIN_TOKEN,
    LOG_LEVEL: 'warn',
    WEBHOOK_RETRY_SCHEDULE: '0,0',
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    ...env,
  });
  const baseUrl = `${service.base}/api/v1`;
  return {
    baseUrl,
    service,
    async createMerchant(name = 'SDK Merchant') {
      const response = await fetch(`${baseUrl}/admin/merchants`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      });
      if (response.status !== 201) throw new Error(`admin create-merchant: ${response.status} ${await response.text()}`);
      const body = (await response.json()) as { merchant: { id: string }; credential: { apiKey: string; apiSecret: string } };
      return { merchantId: body.merchant.id, apiKey: body.credential.apiKey, apiSecret: body.credential.apiSecret };
    },
    async jwtPrivateKeyPem() {
      return (JSON.parse(await readFile(path.join(dataDir, 'dev-secrets.json'), 'utf8')) as { jwtPrivateKeyPem: string }).jwtPrivateKeyPem;
    },
    async stop() {
      const code = await service.stop();
      await postgres?.drop();
      await rm(dataDir, { recursive: true, force: true });
      if (code !== 0) throw new Error(`service exited ${code}:\n${service.output()}`);
    },
  };
}

/** Polls until `probe` answers something, or fails after `timeoutMs`. */
export async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
