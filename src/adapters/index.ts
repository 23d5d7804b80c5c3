/**
 * The external systems the configuration names. Today only the sandbox implementations exist
 * (PIX_PROVIDER=sandbox); a real PSP, Solana RPC or price feed plugs in here behind the same ports.
 */
import type { Db } from '../db/database.ts';
import type { Clock } from '../lib/clock.ts';
import { createSandboxChain } from './chain/sandbox.ts';
import { type PixSandboxSettings, createSandboxPixProvider } from './pix/sandbox.ts';
import { createSandboxPriceSource } from './prices/sandbox.ts';

export interface AdapterSettings {
  pix: PixSandboxSettings;
  /** BRL per USDC of the sandbox price source, decimal text. */
  usdcBrlRate: string;
}

export function createAdapters(deps: { db: Db; clock: Clock; settings: AdapterSettings }) {
  const pix = createSandboxPixProvider({ db: deps.db, clock: deps.clock, settings: deps.settings.pix });
  const chain = createSandboxChain({ db: deps.db, clock: deps.clock });
  const prices = createSandboxPriceSource({ USDC: deps.settings.usdcBrlRate });
  return { pix, chain, prices, sandbox: { pix, chain } };
}

export type Adapters = ReturnType<typeof createAdapters>;
