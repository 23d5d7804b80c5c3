/**
 * The variables of the orders' chain (CHAIN_PROVIDER), spread into ENV_SCHEMA. With solana-rpc,
 * PAYIN transfers go from the platform's treasury through the Solana node at SOLANA_RPC_URL (the
 * one node of managed wallets too); what it requires is checked by load.ts.
 */
import { Type } from 'typebox';
import { isSolanaAddress } from '../lib/solana.ts';
import { boolean, checkedText, integer, list, oneOf, refine, text } from './env.ts';
import { isUrlWith } from './formats.ts';

export const CHAIN_PROVIDERS = ['sandbox', 'solana-rpc'] as const;
/** No 'processed': a payment is never counted on a block that may still be dropped (and getTransaction has no such level). */
export const COMMITMENTS = ['confirmed', 'finalized'] as const;

const isMintPair = (pair: string) => {
  const [symbol, mint, extra] = pair.split(':');
  return extra === undefined && /^[A-Z0-9]{2,10}$/.test(symbol ?? '') && isSolanaAddress(mint ?? '');
};

export const CHAIN_SCHEMA = {
  CHAIN_PROVIDER: oneOf(CHAIN_PROVIDERS, {
    default: 'sandbox',
    description: "where the orders' tokens move: the database-backed sandbox chain, or the Solana node at SOLANA_RPC_URL (solana-rpc: PAYIN transfers from the platform's treasury, a sealed deposit address per PAYOUT and the deposit watcher)",
  }),
  SOLANA_COMMITMENT: oneOf(COMMITMENTS, {
    default: 'finalized',
    description: 'solana-rpc: the commitment at which a PAYIN transfer counts as landed (COMPLETED) and a PAYOUT deposit as received, and at which blockhashes and balances are read',
  }),
  SOLANA_WS_URL: Type.Optional(
    checkedText((url) => url === 'none' || isUrlWith(['ws:', 'wss:'], url), {
      errorMessage: "must be a ws:// or wss:// URL, or 'none'",
      description:
        "solana-rpc: the node's RPC PubSub websocket, on which the worker subscribes to each pending PAYIN transfer's signature (signatureSubscribe at SOLANA_COMMITMENT) to check it as soon as it lands, polling meanwhile as without it; unset: derived from SOLANA_RPC_URL as Solana's clients do (http→ws, https→wss, an explicit port + 1); 'none': polling alone (a node without PubSub)",
    }),
  ),
  CHAIN_TOKEN_MINTS: list(refine(text({ description: 'SYMBOL:mintAddress' }), isMintPair, 'must be SYMBOL:mintAddress'), {
    default: [],
    dropEmptyItems: true,
    quote: 'items',
    errorMessage: 'must list SYMBOL:mintAddress pairs, e.g. USDC:EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
    description: 'solana-rpc: the mint of every token of SUPPORTED_TOKENS (SYMBOL:mintAddress, comma-separated); decimals are read from the mint on chain',
  }),
  CHAIN_COMPUTE_UNIT_LIMIT: integer({ minimum: 1000, maximum: 1_400_000, default: 60_000, description: "solana-rpc: the most a PAYIN transfer (creating the receiver's token account and transferChecked) asks in SetComputeUnitLimit: a transfer, or a batch, asks what its simulation used plus a margin, at most this per transfer, and this when the simulation fails" }),
  CHAIN_PRIORITY_FEE_MAX_MICROLAMPORTS: integer({
    minimum: 0,
    maximum: 1_000_000_000_000,
    default: 100_000,
    description: "solana-rpc: highest SetComputeUnitPrice of a PAYIN transfer, micro-lamports per compute unit; the price is the 75th percentile of the node's recent non-zero prioritization fees, capped by this",
  }),
  CHAIN_TRANSFER_MAX_ATTEMPTS: integer({
    minimum: 1,
    maximum: 100,
    default: 5,
    description:
      'solana-rpc: signed transactions a PAYIN transfer may use, each rebuilt only after the previous one provably expired unlanded (~150 blocks); after the last, the order is refunded (the tokens never left the treasury), with an error log and order_chain_transfers_abandoned_total; the same cap for a deposit sweep, which after the last is FAILED for an operator',
  }),
  CHAIN_TRANSFER_BATCH_MAX: integer({
    minimum: 1,
    maximum: 64,
    default: 20,
    description:
      'solana-rpc: PAYIN transfers of one token one treasury transaction may carry (fewer when they do not fit in its 1,232 bytes); 1 sends one transaction per order. Decision 0053',
  }),
  CHAIN_LOOKUP_TABLES: boolean({
    default: true,
    description:
      "solana-rpc: the receivers' token accounts that batches carry are appended to address lookup tables of the treasury (one extension in flight, paid by the treasury: about 0.0022 SOL of rent per 10 accounts, held in the tables, and a fee), and later batches load them from there: an index instead of 32 bytes, so more transfers fit a transaction. Decision 0056",
  }),
  CHAIN_TREASURY_WALLETS: integer({
    minimum: 1,
    maximum: 8,
    default: 1,
    description:
      "solana-rpc: the treasury's hot wallets that sign PAYIN transfers (wallet 1 is the TREASURY key, wallet n the TREASURY_n key, created like the other platform keys), each paying its own fees from its own balances, with its own books and reconciliation; a transfer goes from the next wallet in turn that covers it, so no one account's write lock carries every transfer. Each wallet needs SOL and tokens of its own (fundings name the wallet). Decision 0057",
  }),
  CHAIN_DEPOSIT_WATCH_INTERVAL_MS: integer({ minimum: 100, maximum: 600_000, default: 2000, description: "solana-rpc: pause between the deposit watcher's passes (each reads every watched address's balance, 100 per getMultipleAccounts, and lists the signatures of those whose balance moved), and between the deposit sweeps' passes" }),
  CHAIN_DEPOSIT_WATCH_BATCH: integer({ minimum: 1, maximum: 10_000, default: 100, description: 'solana-rpc: the sweeps followed, and the sweeps started, per pass; a tenth of it (at least 1) is the deposit addresses whose signatures the watcher lists at each full read whatever their balance, the least recently scanned first (a safety rotation beside the balance reads)' }),
  CHAIN_DEPOSIT_FULL_READ_INTERVAL_MS: integer({ minimum: 0, maximum: 3_600_000, default: 30_000, description: "solana-rpc with a websocket (SOLANA_WS_URL): every watched token account is subscribed (accountSubscribe at finalized) and a change scans its address at once; every balance is then read only this often (a full read, with the safety rotation), and between full reads a pass reads only the accounts no subscription covers. Without a websocket every pass is a full read" }),
  CHAIN_DEPOSIT_LATE_WATCH_HOURS: integer({ minimum: 0, maximum: 24 * 90, default: 72, description: "solana-rpc: how long after its order's expiry a deposit address is still watched, so late and second deposits are recorded for return" }),
};

/** SYMBOL:mint pairs as a map (the schema checked each pair). */
export const mintsOf = (pairs: string[]): Record<string, string> => Object.fromEntries(pairs.map((pair) => pair.split(':') as [string, string]));
