import { type PriceSource, PriceUnavailableError } from './port.ts';

/** A fixed, configurable rate per token (SANDBOX_TOKEN_BRL_RATES, SANDBOX_USDC_BRL_RATE), for the embedded default and tests; both sides alike. */
export function createSandboxPriceSource(rates: Record<string, string>): PriceSource {
  return {
    async getRate(token) {
      const rate = rates[token];
      if (!rate) throw new PriceUnavailableError(token, 'no sandbox rate for this token');
      return rate;
    },
  };
}
