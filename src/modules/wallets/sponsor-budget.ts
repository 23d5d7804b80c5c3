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
import { inTransaction } from '../../platform/commit-signals.ts';
import { AppError } from '../../errors.ts';
import { createBatchWriter } from '../../platform/batch-writer.ts';
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
  charge(trx: Trx, fees: SponsoredFee[]): Promise<unknown>;
  release(trx: Trx, fee: SponsoredFee): Promise<unknown>;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Most reservations committed together. */
const MAX_BATCH = 100;

type Reservation = SponsoredFee & { day: string };

/** A batch whose usage would pass a merchant's budget: rolled back, then retried one by one. */
class OverBudget extends Error {}

export function createSponsorBudget(deps: { db: Db; clock: Clock; dailyBudgetLamports: number; ledger: SponsoredFeeLedger }) {
  const { db, clock, dailyBudgetLamports: budget, ledger } = deps;

  /**
   * Reservations are group-committed (platform/batch-writer.ts): the usage row of a merchant's day is
   * the one every send of that merchant updates, and its lock is held until the commit, so one
   * transaction and one update per merchant serve every reservation that arrived meanwhile. The
   * charges go first and the usage rows last (in one order, so two processes never deadlock),
   * holding those locks only for the update and the commit. A batch that would pass a budget is
   * rolled back whole and retried reservation by reservation, so exactly the ones that fit pass.
   */
  const writer = createBatchWriter<Reservation>(
    (fees) =>
      inTransaction(db, async (trx) => {
        await ledger.charge(trx, fees);
        const usage = new Map<string, { merchantId: string; day: string; lamports: bigint }>();
        for (const fee of fees) {
          const key = `${fee.merchantId}|${fee.day}`;
          const total = usage.get(key) ?? { merchantId: fee.merchantId, day: fee.day, lamports: 0n };
          usage.set(key, { ...total, lamports: total.lamports + fee.lamports });
        }
        for (const key of [...usage.keys()].sort()) {
          if ((await repo.reserveSponsorFee(trx, { ...usage.get(key)!, budget })) === undefined) throw new OverBudget();
        }
      }),
    { maxBatch: MAX_BATCH },
  );

  /** Reserves and charges the fee, or 422 SPONSOR_BUDGET_EXCEEDED; answers what `release` needs. */
  async function reserve(input: Omit<SponsoredFee, 'at'>): Promise<Reservation> {
    const at = clock.now();
    const day = saoPauloDay(at);
    const fee = { ...input, at, day };
    const reserved = await writer.add(fee).then(
      () => true,
      (err: unknown) => {
        if (err instanceof OverBudget) return false;
        throw err;
      },
    );
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
  async function release(fee: Reservation): Promise<void> {
    await inTransaction(db, async (trx) => {
      await repo.releaseSponsorFee(trx, { merchantId: fee.merchantId, day: fee.day, lamports: fee.lamports });
      await ledger.release(trx, { ...fee, at: clock.now() });
    });
  }

  return { reserve, release };
}
