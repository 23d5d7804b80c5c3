/**
 * The variables of the treasury (docs/architecture/treasury.md), spread into ENV_SCHEMA: the
 * low-balance thresholds (the treasury's, the sponsor's), the reconciliation job's interval and
 * how old a balance the PAYIN liquidity check may use.
 */
import { Type } from 'typebox';
import { decimalText, integer, list, text } from './env.ts';

export const TREASURY_SCHEMA = {
  TREASURY_LOW_BALANCE: Type.Decode(
    list(text({ pattern: '^[A-Z0-9]{2,10}:\\d{1,15}(\\.\\d{1,9})?$', description: 'SYMBOL:amount' }), {
      default: [],
      dropEmptyItems: true,
      quote: 'items',
      errorMessage: 'must list SYMBOL:amount pairs, e.g. USDC:1000,SOL:0.5',
      description: "low-balance thresholds of the on-chain treasury (SYMBOL:amount in whole units, comma-separated; SOL included): below one, a warning is logged and treasury_low_balance{currency} is 1",
    }),
    (pairs) => Object.fromEntries(pairs.map((pair) => pair.split(':') as [string, string])) as Record<string, string>,
  ),
  SPONSOR_LOW_BALANCE: decimalText(9, {
    default: '0.05',
    description:
      "the sponsor's low-balance threshold in SOL (it pays the deposit sweeps' fees and managed wallets' sponsored fees): below it, checked every TREASURY_RECONCILIATION_INTERVAL_MS, a warning naming the sponsor's address is logged and sponsor_low_balance is 1",
  }),
  TREASURY_RECONCILIATION_INTERVAL_MS: integer({
    minimum: 1000,
    maximum: 86_400_000,
    default: 60_000,
    description: "pause between the worker's treasury reconciliations (on-chain balances against the ledger's token_treasury); each also refreshes the balance PAYINs are checked against",
  }),
  TREASURY_BALANCE_MAX_AGE_MS: integer({
    minimum: 1000,
    maximum: 3_600_000,
    default: 120_000,
    description: 'the oldest on-chain treasury balance a PAYIN is checked against; an older one is read again from the node (once, in the background)',
  }),
  TREASURY_LIQUIDITY_REFRESH_MS: integer({
    minimum: 100,
    maximum: 600_000,
    default: 2000,
    description: 'how often a process recomputes what the treasury can still cover (its balance less the tokens open PAYINs owe); in between it subtracts the PAYINs it admitted itself',
  }),
};
