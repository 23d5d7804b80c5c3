/**
 * The external systems the configuration names: the PIX provider is the sandbox PSP, or a PSP's
 * API Pix (PIX_PROVIDER=api-pix, `apiPix` settings given); the orders' token transfers run on the
 * sandbox chain, or from the treasury through a Solana node (CHAIN_PROVIDER=solana-rpc,
 * `solanaTransfers` settings and the treasury's signer given). With a Solana node, the composition
 * (services.ts) replaces the deposit addresses by sealed keypairs of the deposits module, watched on
 * the node; here they stay the sandbox chain's. The sandbox PSP and chain always exist, for the
 * sandbox drivers.
 */
import type { Db } from '../db/database.ts';
import type { Clock } from '../lib/clock.ts';
import type { LookupTableIndex } from './chain/lookup-table-index.ts';
import type { ChainAdapter } from './chain/port.ts';
import { createSandboxChain } from './chain/sandbox.ts';
import { createSolanaTransfers, type SolanaTransferSettings, type TreasurySigner } from './chain/solana-transfers.ts';
import { createApiPixProvider } from './pix/api-pix/provider.ts';
import type { ApiPixAdapterSettings } from './pix/api-pix/settings.ts';
import type { PixProvider } from './pix/port.ts';
import { type PixSandboxSettings, createSandboxPixProvider } from './pix/sandbox.ts';
import { type HttpPriceSettings, createHttpPriceSource } from './prices/http.ts';
import { createSandboxPriceSource } from './prices/sandbox.ts';
import { withSpread } from './prices/spread.ts';

export interface AdapterSettings {
  pix: PixSandboxSettings;
  /** SUPPORTED_TOKENS: each token's decimals, for the sandbox chain's amounts. */
  tokenDecimals?: Record<string, number>;
  /** BRL per unit of each token of the sandbox price source, decimal text. */
  tokenBrlRates: Record<string, string>;
  /** Set: prices come from this HTTP price source instead of the sandbox rate. */
  httpPrices?: HttpPriceSettings | undefined;
  /** Fraction of every rate taken in the platform's favour (src/adapters/prices/spread.ts). */
  priceSpread: string;
  /** Set: PIX goes through this PSP's API Pix instead of the sandbox PSP. */
  apiPix?: ApiPixAdapterSettings | undefined;
  /** Set: PAYIN transfers go from the treasury through this Solana node (needs `treasuries`). */
  solanaTransfers?: SolanaTransferSettings | undefined;
}

/** `treasuries`: the treasury wallets' signers, wallet 1 first (decision 0057). */
export function createAdapters(deps: { db: Db; clock: Clock; settings: AdapterSettings; treasuries?: readonly TreasurySigner[] | undefined; lookupTables?: LookupTableIndex | undefined }) {
  const sandboxPix = createSandboxPixProvider({ db: deps.db, clock: deps.clock, settings: deps.settings.pix });
  const apiPix = deps.settings.apiPix ? createApiPixProvider(deps.settings.apiPix) : undefined;
  const pix: PixProvider = apiPix ?? sandboxPix;
  const sandboxChain = createSandboxChain({ db: deps.db, clock: deps.clock, ...(deps.settings.tokenDecimals ? { tokenDecimals: deps.settings.tokenDecimals } : {}) });
  const chain = deps.settings.solanaTransfers ? solanaChain(sandboxChain, deps.settings.solanaTransfers, deps.treasuries ?? [], deps.lookupTables) : sandboxChain;
  const { httpPrices, priceSpread } = deps.settings;
  const source = httpPrices ? createHttpPriceSource({ clock: deps.clock, settings: httpPrices }) : createSandboxPriceSource(deps.settings.tokenBrlRates);
  const prices = withSpread(source, priceSpread);
  return { pix, apiPix, chain, prices, sandbox: { pix: sandboxPix, chain: sandboxChain } };
}

/** Transfers on the Solana node; deposit addresses the sandbox chain's until services.ts puts the deposits module's in their place. */
function solanaChain(sandbox: ChainAdapter, settings: SolanaTransferSettings, treasuries: readonly TreasurySigner[], lookupTables: LookupTableIndex | undefined): ChainAdapter {
  if (treasuries.length === 0) throw new Error("CHAIN_PROVIDER=solana-rpc needs the treasury's signer (the platform key that pays PAYIN transfers)");
  return { chain: 'solana', createDepositAddress: (input) => sandbox.createDepositAddress(input), ...createSolanaTransfers({ settings, treasuries, ...(lookupTables ? { lookupTables } : {}) }) };
}

export type Adapters = ReturnType<typeof createAdapters>;
