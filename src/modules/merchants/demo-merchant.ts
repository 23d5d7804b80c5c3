/**
 * On the first start of an empty embedded database, a demo merchant is created so a newcomer
 * can call the API at once. Its credentials are logged once and written to
 * $DATA_DIR/demo-credentials.json (mode 0600): this is for evaluation, never production. With
 * it, a demo OWNER (docs/architecture/people-and-sessions.md): email and a generated password,
 * saved and logged the same way; TOTP is not enrolled, so its first sign-in may only enrol it.
 * And a demo operator (ADMIN) for the back office at /app/ops (docs/architecture/back-office.md),
 * the same way.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { MerchantsService } from './service.ts';

export const DEMO_OWNER_EMAIL = 'owner@demo.example';
export const DEMO_OPERATOR_EMAIL = 'operator@demo.example';

/** Creates the demo merchant's OWNER and the demo operator with a generated password (the users and operators modules, wired by main.ts). */
export interface DemoPeople {
  createOwner(merchantId: string, email: string): Promise<{ temporaryPassword: string }>;
  createOperator(email: string): Promise<{ temporaryPassword: string }>;
}

export async function seedDemoMerchant(merchants: MerchantsService, dataDir: string, log: FastifyBaseLogger, people: DemoPeople): Promise<void> {
  if ((await merchants.countMerchants()) > 0) return;
  const { merchant, credential } = await merchants.createMerchant({ name: 'Demo Merchant' }, { actor: 'system:demo-seed' });
  const file = path.join(dataDir, 'demo-credentials.json');
  const owner = { email: DEMO_OWNER_EMAIL, password: (await people.createOwner(merchant.id, DEMO_OWNER_EMAIL)).temporaryPassword };
  const operator = { email: DEMO_OPERATOR_EMAIL, password: (await people.createOperator(DEMO_OPERATOR_EMAIL)).temporaryPassword };
  const credentials = { merchantId: merchant.id, apiKey: credential.apiKey, apiSecret: credential.apiSecret, owner, operator };
  await writeFile(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  // Deliberately in the message text (the logger redacts secret fields): shown once, dev only.
  log.warn(
    `Created a demo merchant for the embedded database (development only). merchantId=${merchant.id} apiKey=${credential.apiKey} apiSecret=${credential.apiSecret} ownerEmail=${owner.email} ownerPassword=${owner.password} operatorEmail=${operator.email} operatorPassword=${operator.password} (also saved to ${file}; the owner's and the operator's first sign-in must enrol TOTP)`,
  );
}
