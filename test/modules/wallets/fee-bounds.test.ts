/**
 * Issue 38 item 8: two bounds of sponsored fees that no test held. WALLET_MAX_FEE_LAMPORTS (no test
 * produced FEE_TOO_HIGH; its priority fee rounds up, so one micro-lamport over a centi-lamport
 * boundary counts a whole lamport), and the sponsor budget's usage per merchant and São Paulo day
 * when several merchants' reservations are group-committed in one batch (the usage key could
 * collapse to one merchant unnoticed).
 */
import { getSetComputeUnitLimitInstruction, getSetComputeUnitPriceInstruction } from '@solana-program/compute-budget';
import type { Instruction } from '@solana/kit';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { walletsRepo } from '../../../src/modules/wallets/repo.ts';
import { createSponsorBudget, type SponsoredFee } from '../../../src/modules/wallets/sponsor-budget.ts';
import { type TestContext, type TestMerchant, TestClock, createTestContext, expectErrorBody } from '../../helpers/app.ts';
import { randomCpf } from '../../helpers/documents.ts';
import { SOL } from './fixture.ts';
import { buildTransaction, memo } from './helpers.ts';

const price = (microLamports: bigint) => getSetComputeUnitPriceInstruction({ microLamports }) as Instruction;
const limit = (units: number) => getSetComputeUnitLimitInstruction({ units }) as Instruction;

let ctx: TestContext;
let merchant: TestMerchant;
let other: TestMerchant;

beforeAll(async () => {
  // 10,000 lamports: exactly two signatures (the sponsor's and the managed wallet's), no priority fee.
  ctx = await createTestContext({ WALLET_MAX_FEE_LAMPORTS: '10000' });
  merchant = await ctx.createMerchant('Fee Cap Merchant');
  other = await ctx.createMerchant('Second Merchant');
});
afterAll(() => ctx.close());

const usage = async (merchantId: string) =>
  (await ctx.database.db.selectFrom('sponsor_daily_usage').select([sql<string>`day::text`.as('day'), 'used_lamports']).where('merchant_id', '=', merchantId).orderBy('day').execute()).map((row) => ({
    day: row.day,
    used: BigInt(row.used_lamports),
  }));

describe('WALLET_MAX_FEE_LAMPORTS', () => {
  it('sends a transaction whose fee is the cap, refuses one a lamport over it (FEE_TOO_HIGH, the priority fee rounded up), and charges nothing for it', async () => {
    const call = (url: string, payload?: object) => ctx.app.inject({ method: payload ? 'POST' : 'GET', url: `/api/v1${url}`, headers: merchant.headers, ...(payload ? { payload } : {}) });
    const created = await call('/receivers', { type: 'PF', document: randomCpf(), name: 'Maria Silva', email: 'maria@example.com', createManagedWallet: true });
    expect(created.statusCode, created.body).toBe(201);
    const receiver = created.json();
    expect((await call(`/sandbox/receivers/${receiver.id}/kyc`, { decision: 'APPROVE' })).json().status).toBe('ACTIVE');
    expect((await call('/sandbox/wallet/airdrop', { address: receiver.walletAddress, lamports: Number(SOL) })).statusCode).toBe(200);
    const wallet = receiver.walletAddress as string;
    const send = (instructions: Instruction[]) => call(`/receivers/${receiver.id}/wallet/sign-and-send-transaction`, { transaction: buildTransaction(wallet, instructions) });

    const atCap = await send([memo(wallet, 'at the cap')]);
    expect(atCap.statusCode, atCap.body).toBe(200);
    expect(await usage(merchant.merchantId)).toEqual([expect.objectContaining({ used: 10_000n })]);

    // 1 micro-lamport per unit on 1 unit is a millionth of a lamport: charged as a whole one, 10,001 > 10,000.
    const over = expectErrorBody(await send([limit(1), price(1n), memo(wallet, 'one over')]), 422, 'TRANSACTION_REJECTED');
    expect(over.details).toMatchObject({ reason: 'FEE_TOO_HIGH', feeLamports: '10001', max: 10_000 });
    expect(over.message).toContain('WALLET_MAX_FEE_LAMPORTS');
    expect(over.message).toContain('10001');
    // Refused before the reservation: nothing used, nothing charged.
    expect(await usage(merchant.merchantId)).toEqual([expect.objectContaining({ used: 10_000n })]);
    const rejected = await ctx.database.db.selectFrom('wallet_sign_requests').select('reason').where('merchant_id', '=', merchant.merchantId).where('outcome', '=', 'REJECTED').execute();
    expect(rejected.map((row) => row.reason)).toEqual(['FEE_TOO_HIGH']);
  });
});

describe('the sponsor budget in a group-committed batch', () => {
  it("keeps each merchant's usage, and each São Paulo day's, apart when their reservations commit together", async () => {
    const charged: SponsoredFee[][] = [];
    // 23:59:59.999 in São Paulo on 2027-03-10, then the next millisecond, the next day there.
    const clock = new TestClock(new Date('2027-03-11T02:59:59.999Z'));
    const budget = createSponsorBudget({
      db: ctx.database.db,
      clock,
      dailyBudgetLamports: 1_000_000,
      ledger: { charge: async (_trx, fees) => charged.push(fees), release: async () => undefined },
    });
    const reserve = (who: TestMerchant, lamports: bigint) => budget.reserve({ merchantId: who.merchantId, signRequestId: `r-${charged.length}-${lamports}`, lamports });

    // The first reservation is written at once; the four arriving meanwhile form one batch.
    const first = reserve(other, 1000n);
    const batch = [reserve(other, 2000n), reserve(merchant, 30_000n)];
    clock.advance(1);
    batch.push(reserve(other, 400n), reserve(merchant, 5n));
    await Promise.all([first, ...batch]);
    expect(charged.map((fees) => fees.length)).toEqual([1, 4]);

    expect(await usage(other.merchantId)).toEqual([
      { day: '2027-03-10', used: 3000n },
      { day: '2027-03-11', used: 400n },
    ]);
    const mine = await usage(merchant.merchantId);
    expect(mine.filter((row) => row.day >= '2027-03-10')).toEqual([
      { day: '2027-03-10', used: 30_000n },
      { day: '2027-03-11', used: 5n },
    ]);
  });

  it("refuses only the reservation that passes its own merchant's budget in a batch; the other merchant's fit", async () => {
    const clock = new TestClock(new Date('2027-04-01T15:00:00.000Z'));
    const budget = createSponsorBudget({ db: ctx.database.db, clock, dailyBudgetLamports: 10_000, ledger: { charge: async () => undefined, release: async () => undefined } });
    const reserve = (who: TestMerchant, lamports: bigint) =>
      budget.reserve({ merchantId: who.merchantId, signRequestId: `b-${lamports}`, lamports }).then(
        () => 'reserved',
        (err: { code?: string }) => err.code,
      );
    const answers = await Promise.all([reserve(merchant, 1n), reserve(merchant, 6000n), reserve(other, 6000n), reserve(merchant, 4000n), reserve(other, 4000n)]);
    // merchant: 1 + 6,000 fit, 4,000 more would be 10,001; other: 6,000 + 4,000 is exactly its budget.
    expect(answers).toEqual(['reserved', 'reserved', 'reserved', 'SPONSOR_BUDGET_EXCEEDED', 'reserved']);
    const dayOf = async (who: TestMerchant) => (await usage(who.merchantId)).find((row) => row.day === '2027-04-01')?.used;
    expect(await dayOf(merchant)).toBe(6001n);
    expect(await dayOf(other)).toBe(10_000n);
  });

  it("answers a refusal with today's usage, the São Paulo day and the next São Paulo midnight, when the budget resets", async () => {
    // 20:30 in São Paulo on 2027-05-02 (UTC-3): the budget resets at 03:00 UTC on 2027-05-03.
    const clock = new TestClock(new Date('2027-05-02T23:30:00.000Z'));
    const budget = createSponsorBudget({ db: ctx.database.db, clock, dailyBudgetLamports: 10_000, ledger: { charge: async () => undefined, release: async () => undefined } });
    await budget.reserve({ merchantId: merchant.merchantId, signRequestId: 'reset-1', lamports: 7000n });
    const refusal = await budget.reserve({ merchantId: merchant.merchantId, signRequestId: 'reset-2', lamports: 3001n }).then(
      () => undefined,
      (err: { code?: string; message: string; details?: unknown }) => err,
    );
    expect(refusal?.code).toBe('SPONSOR_BUDGET_EXCEEDED');
    expect(refusal?.details).toEqual({ budgetLamports: 10_000, usedLamports: 7000, feeLamports: 3001, day: '2027-05-02', resetsAt: '2027-05-03T03:00:00.000Z' });
    expect(refusal?.message).toContain('7000 are used today');
    expect(refusal?.message).toContain('2027-05-03T03:00:00.000Z');
  });

  it('updates the usage rows of a batch in one order, whatever order the reservations arrived in, so two processes never deadlock', async () => {
    const clock = new TestClock(new Date('2027-06-01T15:00:00.000Z'));
    const budget = createSponsorBudget({ db: ctx.database.db, clock, dailyBudgetLamports: 1_000_000, ledger: { charge: async () => undefined, release: async () => undefined } });
    const [low, high] = [merchant, other].sort((a, b) => (a.merchantId < b.merchantId ? -1 : 1)) as [TestMerchant, TestMerchant];
    const updated: string[] = [];
    const reserveRow = walletsRepo.reserveSponsorFee.bind(walletsRepo);
    const spy = vi.spyOn(walletsRepo, 'reserveSponsorFee').mockImplementation((trx, input) => {
      updated.push(input.merchantId);
      return reserveRow(trx, input);
    });
    try {
      // The first is written alone; the next two, arriving meanwhile in descending order, form one batch.
      const first = budget.reserve({ merchantId: low.merchantId, signRequestId: 'order-0', lamports: 1n });
      await Promise.all([first, budget.reserve({ merchantId: high.merchantId, signRequestId: 'order-1', lamports: 1n }), budget.reserve({ merchantId: low.merchantId, signRequestId: 'order-2', lamports: 1n })]);
    } finally {
      spy.mockRestore();
    }
    expect(updated).toEqual([low.merchantId, low.merchantId, high.merchantId]);
  });

  it('passes on a failure of the write itself (the ledger, the database) as that error, never as a budget refusal', async () => {
    const clock = new TestClock(new Date('2027-06-02T15:00:00.000Z'));
    const down = new Error('ledger unavailable');
    const budget = createSponsorBudget({ db: ctx.database.db, clock, dailyBudgetLamports: 1_000_000, ledger: { charge: async () => Promise.reject(down), release: async () => undefined } });
    await expect(budget.reserve({ merchantId: merchant.merchantId, signRequestId: 'down-1', lamports: 1n })).rejects.toBe(down);
    expect((await usage(merchant.merchantId)).find((row) => row.day === '2027-06-02')).toBeUndefined();
  });
});
