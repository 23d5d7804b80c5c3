/**
 * The treasury's hot wallets (decision 0057) through the app, with CHAIN_TREASURY_WALLETS=2 and a
 * treasury on chain the test controls: a funding names its wallet and posts to that wallet's
 * books (a wallet past the setting is 400); a withdrawal is checked against its wallet's books,
 * not the total; the worker's choice of wallet goes in turn to the next that covers the transfer;
 * the keys of the further wallets are created like the others.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, TestClock, type TestContext, createTestContext, expectErrorBody } from '../../helpers/app.ts';
import { fakeTreasury } from './helpers.ts';

const ADMIN = { authorization: `Bearer ${ADMIN_TOKEN}` };

const treasury = fakeTreasury({ SOL: '2', USDC: '100' }, { SOL: '1', USDC: '50' });
const clock = new TestClock(new Date('2026-11-23T15:00:00.000Z'));
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({ CHAIN_TREASURY_WALLETS: '2' }, { clock, treasuryReader: treasury.reader });
});
afterAll(() => ctx?.close());

const fund = (body: object) => ctx.app.inject({ method: 'POST', url: '/api/v1/admin/treasury/fundings', headers: ADMIN, payload: body });
const books = async (wallet: number) => Object.fromEntries((await ctx.app.services.ledger.treasuryWalletBalances()).get(wallet) ?? []);

describe('treasury wallets', () => {
  it("creates one key per wallet at start: TREASURY, then TREASURY_2", async () => {
    const keys = await ctx.database.db.selectFrom('platform_keys').select(['purpose', 'address']).orderBy('purpose').execute();
    expect(keys.map((k) => k.purpose)).toEqual(['SPONSOR', 'TREASURY', 'TREASURY_2']);
    expect(ctx.app.services.platformKeysAtStart.treasuryWallets.map((s) => s.address)).toEqual([keys[1]!.address, keys[2]!.address]);
  });

  it("posts a funding to its wallet's books; a wallet past CHAIN_TREASURY_WALLETS is 400, another wallet under a used reference 409", async () => {
    for (const [wallet, currency, amount] of [[1, 'USDC', '100'], [1, 'SOL', '2'], [2, 'USDC', '50'], [2, 'SOL', '1']] as const) {
      const created = await fund({ currency, amount, reference: `opening-${wallet}-${currency}`, ...(wallet === 1 ? {} : { wallet }) });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().wallet).toBe(wallet);
    }
    expect(await books(1)).toEqual({ SOL: '2', USDC: '100' });
    expect(await books(2)).toEqual({ SOL: '1', USDC: '50' });

    const past = expectErrorBody(await fund({ currency: 'USDC', amount: '1', reference: 'wallet-3', wallet: 3 }), 400, 'VALIDATION_ERROR');
    expect(JSON.stringify(past.details)).toContain('wallet');
    expectErrorBody(await fund({ currency: 'USDC', amount: '50', reference: 'opening-2-USDC' }), 409, 'CONFLICT');
    expect(await books(2)).toEqual({ SOL: '1', USDC: '50' });
  });

  it("checks a withdrawal against its wallet's books, not every wallet's together", async () => {
    await expect(ctx.app.services.treasury.checkWithdrawal({ currency: 'USDC', amount: '60', reference: 'out-1', wallet: 2 })).rejects.toMatchObject({ code: 'CONFLICT', details: { ledgerBalance: '50', wallet: 2 } });
    await expect(ctx.app.services.treasury.checkWithdrawal({ currency: 'USDC', amount: '60', reference: 'out-1' })).resolves.toMatchObject({ wallet: 1, ledgerBalance: '100' });
  });

  it('reconciles each wallet against its own books', async () => {
    treasury.set('USDC', '49', 2);
    const run = await ctx.app.services.treasury.reconcile();
    expect(run!.currencies.map((c) => [c.wallet, c.currency, c.drift, c.drifted])).toEqual([
      [1, 'SOL', '0', false],
      [1, 'USDC', '0', false],
      [2, 'SOL', '0', false],
      [2, 'USDC', '-1', true],
    ]);
    treasury.set('USDC', '50', 2);
  });

  it('picks the next wallet in turn that covers the transfer; the richest when none does', async () => {
    const { liquidity } = ctx.app.services;
    await liquidity.refresh();
    // Wallet 1 holds 100, wallet 2 50: each pick is subtracted from its wallet until the next snapshot.
    const picks = [];
    for (const amount of ['30', '30', '30', '30', '60']) picks.push(await liquidity.chooseWallet('USDC', amount));
    // 1 (70 left), 2 (20 left), 1 (40 left), 2 cannot: 1 (10 left), then neither covers 60: the richer, 2 (20).
    expect(picks).toEqual([1, 2, 1, 1, 2]);
  });
});
