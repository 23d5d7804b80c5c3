import type { PriceSource } from './port.ts';

/** A fixed, configurable rate per token (SANDBOX_USDC_BRL_RATE), for the embedded default and tests. */
export function createSandboxPriceSource(rates: Record<string, string>): PriceSource {
  return {
    async getRate(token) {
      const rate = rates[token];
      if (!rate) throw new Error(`no sandbox rate for ${token}`);
      return rate;
    },
  };
}
