/**
 * Issue 24, finding 4: sponsored fees are bounded (priority-fee caps, a per-merchant daily budget
 * held in the database across processes) and charged to the merchant in the ledger.
 */
import { getSetComputeUnitLimitInstruction, getSetComputeUnitPriceInstruction } from '@solana-program/compute-budget';
import type { Instruction } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decimal } from '../../../src/lib/money.ts';
import { expectErrorBody, type TestMerchant } from '../../helpers/app.ts';
import { buildTransaction, memo, newAddress, transferSol } from './helpers.ts';
import { SOL, type WalletsFixture, createWalletsFixture } from './fixture.ts';

const price = (microLamports: bigint) => getSetComputeUnitPriceInstruction({ microLamports }) as Instruction;
const limit = (units: number) => getSetComputeUnitLimitInstruction({ units }) as Instruction;

interface LedgerEntry {
  id: string;
  kind: string;
  referenceType: string;
  referenceId: string;
  postings: Array<{ account: string; owner: string; currency: string; amount: string }>;
}

describe('managed wallets: sponsored fees are bounded and charged', () => {
  let f: WalletsFixture;

  beforeAll(async () => {
    f = await createWalletsFixture();
  });
  afterAll(() => f.ctx.close());

  const entriesOf = async (who: TestMerchant): Promise<LedgerEntry[]> => {
    const response = await f.call('GET', '/ledger/entries?pageSize=100', undefined, who);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().entries;
  };
  /** An entry's every leg, the platform's too, as [account, amount], by account. */
  const legsOf = async (entryId: string) =>
    (
      await f.ctx.database.db
        .selectFrom('ledger_postings as p')
        .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
        .select(['a.code', 'p.amount'])
        .where('p.entry_id', '=', entryId)
        .orderBy('a.code')
        .execute()
    ).map((leg) => [leg.code, decimal(leg.amount).toString()]);
  const usedToday = async (merchantId: string) => {
    const rows = await f.ctx.database.db.selectFrom('sponsor_daily_usage').select('used_lamports').where('merchant_id', '=', merchantId).execute();
    return rows.reduce((sum, row) => sum + BigInt(row.used_lamports), 0n);
  };

  it('refuses a compute-unit price or limit over the caps (10,000 micro-lamports, 200,000 units), naming the cap; accepts one at the caps', async () => {
    const wallet = f.receiver.walletAddress;
    const sponsorBefore = await f.balance(f.sponsor);

    // The drain of the security review: 400k units at 1M micro-lamports, 410,000 lamports a memo.
    const drain = expectErrorBody(await f.send(buildTransaction(wallet, [limit(400_000), price(1_000_000n), memo(wallet, 'drain')])), 422, 'TRANSACTION_REJECTED');
    expect(drain.details).toMatchObject({ reason: 'COMPUTE_UNIT_PRICE_TOO_HIGH', max: 10_000 });
    expect(drain.message).toContain('cap of 10000');
    expect(drain.message).toContain('WALLET_MAX_CU_PRICE_MICROLAMPORTS');

    const overPrice = expectErrorBody(await f.send(buildTransaction(wallet, [price(10_001n), memo(wallet, 'p')])), 422, 'TRANSACTION_REJECTED');
    expect(overPrice.details).toMatchObject({ reason: 'COMPUTE_UNIT_PRICE_TOO_HIGH', computeUnitPrice: '10001', max: 10_000 });

    const overLimit = expectErrorBody(await f.send(buildTransaction(wallet, [limit(200_001), price(1n), memo(wallet, 'l')])), 422, 'TRANSACTION_REJECTED');
    expect(overLimit.details).toMatchObject({ reason: 'COMPUTE_UNIT_LIMIT_TOO_HIGH', computeUnitLimit: 200_001, max: 200_000 });
    expect(overLimit.message).toContain('WALLET_MAX_CU_LIMIT');

    // Priced without SetComputeUnitLimit: the runtime's default (200,000 per instruction) is the limit paid on.
    const defaulted = expectErrorBody(await f.send(buildTransaction(wallet, [price(10_000n), memo(wallet, 'a'), memo(wallet, 'b')])), 422, 'TRANSACTION_REJECTED');
    expect(defaulted.details).toMatchObject({ reason: 'COMPUTE_UNIT_LIMIT_TOO_HIGH', computeUnitLimit: 400_000, max: 200_000 });
    expect(await f.balance(f.sponsor)).toBe(sponsorBefore);

    // At both caps: 2 × 5,000 + 10,000 × 200,000 / 10⁶ = 12,000 lamports, the default WALLET_MAX_FEE_LAMPORTS.
    const atCaps = await f.send(buildTransaction(wallet, [limit(200_000), price(10_000n), memo(wallet, 'caps')]));
    expect(atCaps.statusCode, atCaps.body).toBe(200);
    expect(sponsorBefore - (await f.balance(f.sponsor))).toBe(12_000n);
  });

  it('charges each sent fee to the merchant in the ledger (SOL, summing to zero) and gives back the fee of a transaction refused unsent', async () => {
    const merchant = await f.ctx.createMerchant('Charged Merchant');
    const receiver = await f.createSigningReceiver(merchant);
    await f.airdrop(receiver.walletAddress, SOL);
    const wallet = receiver.walletAddress;

    const sent = await f.send(buildTransaction(wallet, [memo(wallet, 'charged')]), receiver.id, merchant);
    expect(sent.statusCode, sent.body).toBe(200);
    const audit = await f.ctx.database.db.selectFrom('wallet_sign_requests').select(['id', 'fee_lamports']).where('signature', '=', sent.json().hash).executeTakeFirstOrThrow();
    expect(audit.fee_lamports).toBe(10_000);

    const [charge] = await entriesOf(merchant);
    expect(charge).toMatchObject({ kind: 'SPONSORED_FEE', referenceType: 'wallet_sign_request', referenceId: audit.id });
    // The merchant sees its own leg (decision 0041); with the platform's, the entry sums to zero.
    expect(charge!.postings).toEqual([{ account: 'merchant_sponsored_fees', owner: 'merchant', currency: 'SOL', amount: '0.00001' }]);
    const chargeLegs = await legsOf(charge!.id);
    expect(chargeLegs).toEqual([
      ['merchant_sponsored_fees', '0.00001'],
      ['sponsor_sol', '-0.00001'],
    ]);
    expect(chargeLegs.reduce((sum, [, amount]) => sum.plus(amount!), decimal(0)).isZero()).toBe(true);
    expect(await usedToday(merchant.merchantId)).toBe(10_000n);

    // More SOL than the wallet holds: the simulation refuses it, nothing is sent, nothing is owed.
    const refused = await f.send(buildTransaction(wallet, [transferSol(wallet, newAddress(), 5n * SOL)]), receiver.id, merchant);
    expect(expectErrorBody(refused, 422, 'TRANSACTION_REJECTED').details).toMatchObject({ reason: 'SIMULATION_FAILED' });
    const entries = await entriesOf(merchant);
    expect(entries.map((e) => e.kind).sort()).toEqual(['SPONSORED_FEE', 'SPONSORED_FEE', 'SPONSORED_FEE_RELEASED']);
    const released = entries.find((e) => e.kind === 'SPONSORED_FEE_RELEASED')!;
    expect(entries.filter((e) => e.referenceId === released.referenceId).map((e) => e.kind).sort()).toEqual(['SPONSORED_FEE', 'SPONSORED_FEE_RELEASED']);
    // The merchant sees its own leg (decision 0041); the platform's is in the ledger beside it.
    expect(released.postings).toEqual([{ account: 'merchant_sponsored_fees', owner: 'merchant', currency: 'SOL', amount: '-0.00001' }]);
    expect(await legsOf(released.id)).toEqual([
      ['merchant_sponsored_fees', '-0.00001'],
      ['sponsor_sol', '0.00001'],
    ]);
    expect(await usedToday(merchant.merchantId)).toBe(10_000n);
    // The merchant's BRL fee balance is not touched by SOL charges.
    expect((await f.call('GET', '/ledger/fees/balance', undefined, merchant)).json()).toMatchObject({ balance: '0.00', currency: 'BRL' });
  });

  it('holds the daily budget across two app instances on one database: concurrent sends spend exactly the budget, the rest are refused', async () => {
    // 50,000 lamports: five memos at 10,000 (two signatures, no priority fee).
    const env = { WALLET_SPONSOR_DAILY_BUDGET_LAMPORTS: '50000' };
    const [first, second] = [await f.ctx.buildApp(env), await f.ctx.buildApp(env)];
    const merchant = await f.ctx.createMerchant('Budget Merchant');
    const receivers = [await f.createSigningReceiver(merchant), await f.createSigningReceiver(merchant)];
    const sendOn = (app: typeof first, receiver: { id: string; walletAddress: string }, n: number) =>
      app.inject({
        method: 'POST',
        url: `/api/v1/receivers/${receiver.id}/wallet/sign-and-send-transaction`,
        headers: merchant.headers,
        payload: { transaction: buildTransaction(receiver.walletAddress, [memo(receiver.walletAddress, `budget ${n}`)]) },
      });
    // All eight at once, four on each instance: each instance group-commits its reservations, so a
    // batch that would pass the budget is rolled back and retried one by one.
    const stream = (app: typeof first, receiver: { id: string; walletAddress: string }, from: number) =>
      Promise.all([0, 1, 2, 3].map((n) => sendOn(app, receiver, from + n)));
    const answers = (await Promise.all([stream(first, receivers[0]!, 0), stream(second, receivers[1]!, 4)])).flat();

    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(5);
    const refused = answers.filter((a) => a.statusCode !== 200);
    expect(refused).toHaveLength(3);
    for (const answer of refused) {
      const body = expectErrorBody(answer, 422, 'SPONSOR_BUDGET_EXCEEDED');
      expect(body.details).toMatchObject({ budgetLamports: 50_000, feeLamports: 10_000 });
      expect(body.message).toContain('50000');
    }
    expect(await usedToday(merchant.merchantId)).toBe(50_000n);
    expect((await entriesOf(merchant)).filter((e) => e.kind === 'SPONSORED_FEE')).toHaveLength(5);
    const rejected = await f.ctx.database.db.selectFrom('wallet_sign_requests').select('reason').where('merchant_id', '=', merchant.merchantId).where('outcome', '=', 'REJECTED').execute();
    expect(rejected.map((r) => r.reason)).toEqual(['SPONSOR_BUDGET_EXCEEDED', 'SPONSOR_BUDGET_EXCEEDED', 'SPONSOR_BUDGET_EXCEEDED']);
    // Another merchant's budget is its own.
    const otherReceiver = await f.createSigningReceiver(f.other);
    const other = await first.inject({
      method: 'POST',
      url: `/api/v1/receivers/${otherReceiver.id}/wallet/sign-and-send-transaction`,
      headers: f.other.headers,
      payload: { transaction: buildTransaction(otherReceiver.walletAddress, [memo(otherReceiver.walletAddress, 'other')]) },
    });
    expect(other.statusCode, other.body).toBe(200);
  });
});
