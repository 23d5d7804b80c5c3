/**
 * What the wallets module needs from configuration, as plain values: the configuration's
 * WalletSettings (config/settings.ts) and the parts of it each rule reads. The composition root
 * (services.ts) hands them in, so the module can be built and tested from literals.
 */
import type { WalletSettings } from '../../config.ts';

/** The settings the refusal rules read (inspect.ts, fee.ts). */
export type InspectionSettings = Pick<WalletSettings, 'allowedPrograms' | 'maxComputeUnitPrice' | 'maxComputeUnitLimit' | 'maxFeeLamports' | 'maxInstructions'>;
