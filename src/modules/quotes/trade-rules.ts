/**
 * What can be quoted, and so what can be ordered: the supported chains, the supported tokens
 * with their decimals, and the BRL bounds of one order. One set of rules for both, so a quote
 * never promises an order that would then be refused for its chain, token or amount.
 */
import type { OrderSettings } from '../../config.ts';
import { invalidField } from '../../errors.ts';
import { decimal, hasAtMostDecimals } from '../../lib/money.ts';

/** The orders' settings the rules read (the composition root hands them in). */
export type TradeSettings = Pick<OrderSettings, 'chains' | 'tokens' | 'minAmountBrl' | 'maxAmountBrl'>;

export function createTradeRules(settings: TradeSettings) {
  return {
    checkChain(chain: string): void {
      if (!settings.chains.includes(chain)) throw invalidField('body.chain', `must be one of ${settings.chains.join(', ')}`);
    },

    /** The token's decimals; `field` is the body field that named it (token, targetToken, sourceToken). */
    tokenDecimals(token: string, field: string): number {
      const decimals = settings.tokens[token];
      if (decimals === undefined) throw invalidField(field, `must be one of ${Object.keys(settings.tokens).join(', ')}`);
      return decimals;
    },

    /** Amounts come in centavos (2 places) or the token's smallest unit: never finer (decimal text read exactly from the body). */
    checkDecimals(amount: number | string, places: number, field: string): void {
      if (!hasAtMostDecimals(amount, places)) throw invalidField(field, `must have at most ${places} decimals`);
    },

    /** One order's BRL value stays within ORDER_MIN_AMOUNT_BRL and ORDER_MAX_AMOUNT_BRL. */
    checkBrlRange(amountBrl: string, field: string): void {
      if (decimal(amountBrl).lt(settings.minAmountBrl) || decimal(amountBrl).gt(settings.maxAmountBrl)) {
        throw invalidField(field, `must be between ${settings.minAmountBrl} and ${settings.maxAmountBrl} BRL`);
      }
    },
  };
}

export type TradeRules = ReturnType<typeof createTradeRules>;
