/**
 * What the wallets module needs from configuration, as plain values. config.ts reads and
 * validates them from the environment and the composition root (services.ts) hands them in; the
 * module itself never imports config.ts, so it can be built and tested from literals.
 */

export interface WalletSettings {
  /** Program ids a sponsored transaction may call. */
  allowedPrograms: string[];
  /** Highest SetComputeUnitPrice, micro-lamports per compute unit. */
  maxComputeUnitPrice: number;
  /** Highest compute-unit limit: the SetComputeUnitLimit, or the runtime's default when a price is set. */
  maxComputeUnitLimit: number;
  /** Highest total fee (signatures + priority) the sponsor pays for one transaction, lamports. */
  maxFeeLamports: number;
  /** Fees the sponsor pays per merchant per São Paulo day, lamports, enforced in the database (0: none). */
  sponsorDailyBudgetLamports: number;
  /** Most instructions in one sponsored transaction. */
  maxInstructions: number;
  /** Sign requests per minute per receiver (and per merchant wallet); 0 disables the limit. */
  signRateLimitPerMinute: number;
  /** Sandbox chain only: lamports airdropped to the sponsor when the chain starts. */
  sandboxSponsorLamports: number;
  /** How long a decrypted private key stays in memory, seconds (0: decrypt on every request). */
  keyCacheSeconds: number;
}

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
