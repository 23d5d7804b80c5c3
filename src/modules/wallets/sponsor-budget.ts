/**
 * The sponsor's daily budget per merchant, and the charge of every sponsored fee (issue 24,
 * finding 4). Before a sign-and-send transaction is sent, its fee is reserved against the
 * merchant's São Paulo day (WALLET_SPONSOR_DAILY_BUDGET_LAMPORTS) and charged to the merchant in
 * the ledger, in one database transaction: the budget holds across every process, and the
 * sponsor never pays a fee that is not charged. A transaction the chain refused unsent (a failed
 * simulation: nothing landed, nothing paid) gives both back; one whose fate is unknown (the node
 * unreachable mid-send) keeps them, since it may have landed.
 */
import type { Db, Trx } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { latestSaoPauloTimeOfDay, saoPauloDay } from '../../lib/sao-paulo-time.ts';
import { walletsRepo as repo } from './repo.ts';

/** One sponsored fee: the merchant it is charged to, the sign request it pays for. */
export interface SponsoredFee {
  merchantId: string;
  /** The id of the request's wallet_sign_requests row, which the ledger entry references. */
  signRequestId: string;
  lamports: bigint;
  at: Date;
}

/** The ledger's side, passed in by the composition root (wallets imports no other module). */
export interface SponsoredFeeLedger {
  charge(trx: Trx, fee: SponsoredFee): Promise<unknown>;
  release(trx: Trx, fee: SponsoredFee): Promise<unknown>;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export function createSponsorBudget(deps: { db: Db; clock: Clock; dailyBudgetLamports: number; ledger: SponsoredFeeLedger }) {
  const { db, clock, dailyBudgetLamports: budget, ledger } = deps;

  /** Reserves and charges the fee, or 422 SPONSOR_BUDGET_EXCEEDED; answers what `release` needs. */
  async function reserve(input: Omit<SponsoredFee, 'at'>): Promise<SponsoredFee & { day: string }> {
    const at = clock.now();
    const day = saoPauloDay(at);
    const fee = { ...input, at, day };
    const reserved = await db.transaction().execute(async (trx) => {
      const used = await repo.reserveSponsorFee(trx, { merchantId: fee.merchantId, day, lamports: fee.lamports, budget });
      if (used === undefined) return false;
      await ledger.charge(trx, fee);
      return true;
    });
    if (reserved) return fee;
    const used = await repo.sponsorFeesUsed(db, fee.merchantId, day);
    const resetsAt = new Date(latestSaoPauloTimeOfDay(at, 0).getTime() + DAY_MS);
    throw new AppError(
      'SPONSOR_BUDGET_EXCEEDED',
      `The platform sponsors at most ${budget} lamports of fees per merchant per day (São Paulo time); ${used} are used today and this transaction's fee is ${fee.lamports}. The budget resets at ${resetsAt.toISOString()}`,
      { budgetLamports: budget, usedLamports: Number(used), feeLamports: Number(fee.lamports), day, resetsAt: resetsAt.toISOString() },
    );
  }

  /** Gives a reservation back (the transaction was refused unsent): usage and charge, together. */
  async function release(fee: SponsoredFee & { day: string }): Promise<void> {
    await db.transaction().execute(async (trx) => {
      await repo.releaseSponsorFee(trx, { merchantId: fee.merchantId, day: fee.day, lamports: fee.lamports });
      await ledger.release(trx, { ...fee, at: clock.now() });
    });
  }

  return { reserve, release };
}
