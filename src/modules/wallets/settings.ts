/**
 * What the wallets module needs from configuration, as plain values: the configuration's
 * WalletSettings (config/settings.ts) and the parts of it each rule reads. The composition root
 * (services.ts) hands them in, so the module can be built and tested from literals.
 */
import type { WalletSettings } from '../../config.ts';

/** The settings the refusal rules read (inspect.ts, fee.ts). */
export type InspectionSettings = Pick<WalletSettings, 'allowedPrograms' | 'maxComputeUnitPrice' | 'maxComputeUnitLimit' | 'maxFeeLamports' | 'maxInstructions'>;

/** The key-encryption keys of managed wallets' private keys (WALLET_KEK, WALLET_KEK_VERSION, WALLET_KEK_PREVIOUS). */
export interface KeyVaultSettings {
  /** The current KEK, 32 bytes base64: every new key is sealed under it. */
  kek: string;
  /** Stored with every key sealed under `kek`. */
  version: number;
  /** Retired KEKs by version, kept so keys sealed under them still open. */
  previous?: Record<number, string>;
}
