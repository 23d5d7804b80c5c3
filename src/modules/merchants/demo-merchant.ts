/**
 * On the first start of an empty embedded database, a demo merchant is created so a newcomer
 * can call the API at once. Its credentials are logged once and written to
 * $DATA_DIR/demo-credentials.json (mode 0600): this is for evaluation, never production.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { MerchantsService } from './service.ts';

export async function seedDemoMerchant(merchants: MerchantsService, dataDir: string, log: FastifyBaseLogger): Promise<void> {
  if ((await merchants.countMerchants()) > 0) return;
  const { merchant, credential } = await merchants.createMerchant({ name: 'Demo Merchant' }, { actor: 'system:demo-seed' });
  const file = path.join(dataDir, 'demo-credentials.json');
  const credentials = { merchantId: merchant.id, apiKey: credential.apiKey, apiSecret: credential.apiSecret };
  await writeFile(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  // Deliberately in the message text (the logger redacts secret fields): shown once, dev only.
  log.warn(
    `Created a demo merchant for the embedded database (development only). merchantId=${merchant.id} apiKey=${credential.apiKey} apiSecret=${credential.apiSecret} (also saved to ${file})`,
  );
}
