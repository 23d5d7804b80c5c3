/**
 * The variables of the price source, spread into ENV_SCHEMA. PRICE_URL is required with
 * PRICE_SOURCE=http (checked by load.ts, with https in production).
 */
import { Type } from 'typebox';
import { decimal } from '../lib/money.ts';
import { checkedText, decimalText, integer, oneOf, refine } from './env.ts';
import { isUrlWith } from './formats.ts';

export const PRICE_SOURCES = ['sandbox', 'http'] as const;

export const PRICE_SOURCE_SCHEMA = {
  PRICE_SOURCE: oneOf(PRICE_SOURCES, {
    default: 'sandbox',
    description: 'where token prices come from: the fixed SANDBOX_USDC_BRL_RATE, or an HTTP price source at PRICE_URL',
  }),
  PRICE_URL: Type.Optional(
    checkedText((url) => isUrlWith(['https:', 'http:'], url), {
      errorMessage: 'must be an https:// URL (http:// outside production)',
      description: 'http: the price document, GET → {"rates": {"USDC": "5.40"}, "timestamp": "<ISO 8601, optional>"} with decimal strings',
    }),
  ),
  PRICE_MAX_AGE_MS: integer({ minimum: 1000, maximum: 3_600_000, default: 60_000, description: 'http: a price older than this is never used; quotes and orders answer 503 PRICE_UNAVAILABLE' }),
  PRICE_TIMEOUT_MS: integer({ minimum: 100, maximum: 60_000, default: 5000, description: 'http: deadline of one fetch of the price document' }),
  PRICE_SPREAD: refine(
    decimalText(6, { default: '0', description: "fraction of the rate taken in the platform's favour: PAYIN rate × (1 + spread), PAYOUT rate × (1 − spread); any source" }),
    (spread) => decimal(spread).lt('0.5'),
    'must be a fraction below 0.5 (0.01 = 1 %)',
  ),
};
