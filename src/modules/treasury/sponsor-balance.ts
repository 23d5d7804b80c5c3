/**
 * The sponsor's SOL (docs/architecture/treasury.md, "The sponsor's balance"). The sponsor is the
 * fee payer of every PAYOUT deposit sweep and of managed wallets' sponsored transactions: with no
 * SOL those stall, and nothing else said so (issue 40). Read from the node with a balance reader
 * on the sponsor's address (the treasury's reader, asked for SOL only), compared with
 * SPONSOR_LOW_BALANCE: the reading feeds the gauges (metrics.ts) and the sweeps' decision to wait.
 *
 * A crossing is logged once, not every reading: a warning naming the sponsor's address (public;
 * its key is never anywhere near) when it goes below, an info line when it is funded again.
 */
import type { TreasuryBalanceReader } from '../../adapters/chain/treasury-port.ts';
import type { Clock } from '../../lib/clock.ts';
import { decimal } from '../../lib/money.ts';
import { SOL, isLowBalance } from './rules.ts';

/**
 * The least SOL the sponsor must hold to pay one deposit sweep (solana-sweeps.ts): its fee (two
 * signatures, 5,000 lamports each), the rent of the treasury's token account when the sweep
 * creates it (165 bytes: 2,039,280 lamports), and the rent-exempt minimum of the sponsor's own
 * account, below which the runtime refuses to debit it (890,880 lamports).
 */
export const SWEEP_SPONSOR_MINIMUM_LAMPORTS = 2n * 5_000n + 2_039_280n + 890_880n;
export const SWEEP_SPONSOR_MINIMUM_SOL = decimal(SWEEP_SPONSOR_MINIMUM_LAMPORTS.toString()).dividedBy(1e9).toString();

export interface SponsorReading {
  address: string;
  /** Whole SOL, decimal text. */
  balance: string;
  threshold: string;
  /** Below SPONSOR_LOW_BALANCE, or empty. */
  low: boolean;
  /** Holds at least SWEEP_SPONSOR_MINIMUM_SOL. */
  canPaySweep: boolean;
  at: Date;
}

export interface SponsorLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/** Pure: what a balance means for the sponsor. Empty is low even under a threshold of 0: it pays nothing. */
export function sponsorStanding(balance: string, threshold: string): Pick<SponsorReading, 'low' | 'canPaySweep'> {
  const sol = decimal(balance);
  return { low: sol.isZero() || isLowBalance(balance, threshold), canPaySweep: sol.gte(SWEEP_SPONSOR_MINIMUM_SOL) };
}

export function createSponsorBalance(deps: { address: string; reader: Pick<TreasuryBalanceReader, 'readBalances'>; threshold: string; clock: Clock; log?: SponsorLog | undefined }) {
  const { address, threshold, clock, log } = deps;
  let last: SponsorReading | undefined;

  /** Reads the node now (ChainUnavailableError when it cannot answer: the last reading stays). */
  async function check(): Promise<SponsorReading> {
    const balance = decimal((await deps.reader.readBalances()).get(1)?.get(SOL) ?? '0').toString();
    const reading: SponsorReading = { address, balance, threshold, ...sponsorStanding(balance, threshold), at: clock.now() };
    const fields = { sponsor: address, balance, threshold, sweepMinimum: SWEEP_SPONSOR_MINIMUM_SOL };
    if (reading.low && !last?.low) {
      const effect = reading.canPaySweep ? 'fund it before deposit sweeps and sponsored transactions stall' : 'deposit sweeps wait and sponsored transactions fail until it is funded';
      log?.warn(fields, `sponsor SOL balance below SPONSOR_LOW_BALANCE: ${effect}`);
    } else if (!reading.low && last?.low) {
      log?.info(fields, 'sponsor SOL balance back above SPONSOR_LOW_BALANCE');
    }
    last = reading;
    return reading;
  }

  return {
    address,
    threshold,
    check,
    /** The last reading, if any (the gauges show it). */
    last: () => last,
    /**
     * A reading no older than `maxAgeMs`; one that could not pay a sweep is always read again, so
     * a funding is seen on the next pass.
     */
    async current(maxAgeMs: number): Promise<SponsorReading> {
      if (last?.canPaySweep && clock.now().getTime() - last.at.getTime() < maxAgeMs) return last;
      return check();
    },
  };
}

export type SponsorBalance = ReturnType<typeof createSponsorBalance>;
