/**
 * The composition of every kind of sealed key (docs/architecture/keys.md), shared by the services
 * (services.ts) and the operator's commands (cli/admin.ts), which must reach the keys without
 * starting the service (creating them is what lets production start). One vault per kind, all
 * under WALLET_KEK; `sealedKeyStores` is the list `admin rotate-kek` re-seals, where every kind
 * (managed wallets, platform keys, PAYOUT deposit addresses) adds its store, and where the
 * personal data sealed under the same KEK lives (`personalDataTables`), which it re-seals too.
 */
import type { Db } from './db/database.ts';
import type { Clock } from './lib/clock.ts';
import { createKeyVault, type KeyVaultSettings } from './lib/key-vault.ts';
import { createPersonalData } from './lib/personal-data.ts';
import { REGISTER_SEALED } from './modules/operations-register/sealed-columns.ts';
import { ORDERS_SEALED } from './modules/orders/sealed-columns.ts';
import { PAYOUT_BATCH_ITEMS_SEALED } from './modules/payout-batches/sealed-columns.ts';
import { KYC_SUBMISSIONS_SEALED, RECEIVERS_SEALED } from './modules/receivers/sealed-columns.ts';
import { SETTLEMENT_PIX_KEYS_SEALED } from './modules/settlement-payouts/sealed-columns.ts';
import { STANDING_ADDRESSES_SEALED } from './modules/standing-addresses/sealed-columns.ts';
import { AUDIT_LOG_SEALED } from './platform/audit/sealed-details.ts';
import { EVENTS_SEALED } from './platform/event-payload-sealing.ts';
import type { SealedTable } from './platform/personal-data-rotation.ts';
import { depositKeyStore } from './modules/deposits/key-store.ts';
import { createPlatformKeys } from './modules/platform-keys/service.ts';
import { walletKeyStore } from './modules/wallets/key-store.ts';
import type { SealedKeyStore } from './platform/key-rotation.ts';
import type { RuntimeConfig } from './runtime-config.ts';

export function keyVaultSettings(config: Pick<RuntimeConfig, 'walletKek' | 'walletKekVersion' | 'walletKekPrevious'>): KeyVaultSettings {
  return { kek: config.walletKek, version: config.walletKekVersion, previous: config.walletKekPrevious };
}

/** Every table holding sealed personal data, for the sealing pass (src/platform/personal-data-rotation.ts). */
export const PERSONAL_DATA_TABLES: readonly SealedTable[] = [RECEIVERS_SEALED, KYC_SUBMISSIONS_SEALED, REGISTER_SEALED, ORDERS_SEALED, EVENTS_SEALED, AUDIT_LOG_SEALED, SETTLEMENT_PIX_KEYS_SEALED, PAYOUT_BATCH_ITEMS_SEALED, STANDING_ADDRESSES_SEALED];

export function createKeyCustody({ config, db, clock }: { config: RuntimeConfig; db: Db; clock: Clock }) {
  const settings = keyVaultSettings(config);
  const walletVault = createKeyVault(settings, 'managed-wallet');
  const platformKeys = createPlatformKeys({ db, clock, vault: createKeyVault(settings, 'platform-key') });
  const depositVault = createKeyVault(settings, 'deposit-address');
  const sealedKeyStores: SealedKeyStore[] = [walletKeyStore(db, walletVault), platformKeys.keyStore, depositKeyStore(db, depositVault, clock)];
  // Personal data at rest (src/lib/personal-data.ts): under the same KEK, so `rotate-kek` re-seals it too.
  const personalData = createPersonalData(settings);
  return { walletVault, platformKeys, depositVault, sealedKeyStores, personalData, personalDataTables: PERSONAL_DATA_TABLES };
}
