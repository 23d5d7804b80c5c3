/**
 * The variables of the price source, spread into ENV_SCHEMA. PRICE_URL is required with
 * PRICE_SOURCE=http (checked by load.ts, with https in production). PRICE_SOURCE=sandbox has a
 * fixed rate per token: SANDBOX_TOKEN_BRL_RATES, with SANDBOX_USDC_BRL_RATE still USDC's when the
 * list does not name it; a supported token without one stops the start (load.ts).
 */
import { Type } from 'typebox';
import { decimal } from '../lib/money.ts';
import { checkedText, decimalText, integer, list, oneOf, refine, text } from './env.ts';
import { isUrlWith } from './formats.ts';

export const PRICE_SOURCES = ['sandbox', 'http'] as const;

const isRatePair = (pair: string) => {
  const [symbol, rate, extra] = pair.split(':');
  return extra === undefined && /^[A-Z0-9]{2,10}$/.test(symbol ?? '') && /^\d{1,9}(\.\d{1,8})?$/.test(rate ?? '') && decimal(rate!).gt(0);
};

export const PRICE_SOURCE_SCHEMA = {
  PRICE_SOURCE: oneOf(PRICE_SOURCES, {
    default: 'sandbox',
    description: 'where token prices come from: the fixed SANDBOX_TOKEN_BRL_RATES (and SANDBOX_USDC_BRL_RATE), or an HTTP price source at PRICE_URL',
  }),
  PRICE_URL: Type.Optional(
    checkedText((url) => isUrlWith(['https:', 'http:'], url), {
      errorMessage: 'must be an https:// URL (http:// outside production)',
      description: 'http: the price document, GET → {"rates": {"USDC": "5.40", "USDT": "5.41"}, "timestamp": "<ISO 8601, optional>"} with decimal strings; a supported token missing from it is answered 503 PRICE_UNAVAILABLE',
    }),
  ),
  SANDBOX_TOKEN_BRL_RATES: Type.Decode(
    list(refine(text({ description: 'SYMBOL:rate' }), isRatePair, 'must be SYMBOL:rate with a positive rate'), {
      default: [],
      dropEmptyItems: true,
      quote: 'items',
      errorMessage: 'must list SYMBOL:rate pairs with positive rates, e.g. USDC:5.40,USDT:5.41,PYUSD:5.39',
      description: 'sandbox: BRL per unit of each token (SYMBOL:rate, comma-separated, up to 8 decimals); every token of SUPPORTED_TOKENS needs one, USDC defaulting to SANDBOX_USDC_BRL_RATE',
    }),
    (pairs) => Object.fromEntries(pairs.map((pair) => pair.split(':') as [string, string])) as Record<string, string>,
  ),
  PRICE_MAX_AGE_MS: integer({ minimum: 1000, maximum: 3_600_000, default: 60_000, description: 'http: a price older than this is never used; quotes and orders answer 503 PRICE_UNAVAILABLE' }),
  PRICE_TIMEOUT_MS: integer({ minimum: 100, maximum: 60_000, default: 5000, description: 'http: deadline of one fetch of the price document' }),
  PRICE_SPREAD: refine(
    decimalText(6, { default: '0', description: "fraction of the rate taken in the platform's favour: PAYIN rate × (1 + spread), PAYOUT rate × (1 − spread); any source" }),
    (spread) => decimal(spread).lt('0.5'),
    'must be a fraction below 0.5 (0.01 = 1 %)',
  ),
};
