/**
 * Moved to wallets/helpers.ts. This re-export stays only because bench/wallet-loop.ts imports this
 * path; remove it once the bench imports test/modules/wallets/helpers.ts.
 */
export * from './wallets/helpers.ts';
