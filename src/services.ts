/**
 * The composition root: every module's service, wired by hand, one line each. Modules reach
 * each other only through what is passed here.
 */
import type { Db } from './db/database.ts';
import type { Clock } from './lib/clock.ts';
import { createAuthService } from './modules/auth/service.ts';
import { createTokenIssuer } from './modules/auth/tokens.ts';
import { createFeeTiersService } from './modules/fee-tiers/service.ts';
import { createMerchantsService } from './modules/merchants/service.ts';
import { createReceiversService } from './modules/receivers/service.ts';
import type { RuntimeConfig } from './runtime-config.ts';

export interface ServiceDeps {
  config: RuntimeConfig;
  db: Db;
  clock: Clock;
}

export async function createServices({ config, db, clock }: ServiceDeps) {
  const feeTiers = createFeeTiersService({ db, settings: config.feeTiers });
  const merchants = createMerchantsService({
    db,
    apiSecretPepper: config.apiSecretPepper,
    onMerchantCreated: [feeTiers.initializeForMerchant],
  });
  const tokens = await createTokenIssuer({ ...config.jwt, privateKeyPem: config.jwt.privateKeyPem });
  const auth = createAuthService({ merchants, tokens, adminToken: config.adminToken });
  const receivers = createReceiversService({ db, clock, defaults: config.receivers });
  return { merchants, auth, feeTiers, receivers };
}

export type Services = Awaited<ReturnType<typeof createServices>>;
