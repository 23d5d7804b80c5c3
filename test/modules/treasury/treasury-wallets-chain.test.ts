/**
 * The treasury as several hot wallets (decision 0057) against the chain simulator, the service as
 * configured for a real chain with CHAIN_TREASURY_WALLETS=2: batches of PAYINs go from both
 * wallets in turn, each signed and paid by its own wallet (its key the fee payer); each wallet's
 * books follow its own chain balances to the lamport, so the reconciliation finds no drift in
 * either; tokens no one booked, sent to wallet 2, are a drift of wallet 2 alone; GET
 * /admin/treasury shows both wallets and their sum.
 */
import { type Address, generateKeyPairSigner, type Signature } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decimal } from '../../../src/lib/money.ts';
import type { ChainSimulator } from '../../../tools/chain-simulator/index.ts';
import { ADMIN_TOKEN } from '../../helpers/app.ts';
import { fundTreasury, passesUntil, type Rpc, solanaRpcSettings, startHandClockedChain } from '../../helpers/chain-simulator.ts';
import { ordersTest } from '../orders/helpers.ts';

const ORDERS = 8;

describe('several treasury wallets on the chain simulator', () => {
  let sim: ChainSimulator;
  let rpc: Rpc;
  let usdc: Address;
  const wallets: Address[] = [];

  beforeAll(async () => {
    ({ sim, rpc, usdc } = await startHandClockedChain(3));
  });
  afterAll(() => sim?.close());

  // Batches of at most 4, so that 8 orders make two transactions; no lookup tables (their extensions are wallet 1's alone).
  const t = ordersTest(() => ({ ...solanaRpcSettings(sim.url, usdc), CHAIN_TREASURY_WALLETS: '2', CHAIN_TRANSFER_BATCH_MAX: '4', CHAIN_LOOKUP_TABLES: 'false' }));
  const db = () => t.ctx.database.db;

  beforeAll(async () => {
    for (const wallet of [1, 2]) wallets.push(await fundTreasury(sim, t.ctx.app.services, usdc, wallet));
  });

  const usdcOf = async (owner: Address) => {
    const { value } = await rpc.getTokenAccountsByOwner(owner, { mint: usdc }, { encoding: 'jsonParsed' }).send();
    return decimal((value[0]?.account.data as { parsed: { info: { tokenAmount: { uiAmountString: string } } } }).parsed.info.tokenAmount.uiAmountString);
  };

  it('sends the batches from both wallets in turn; each wallet pays its own fees and its books match its chain balances', async () => {
    const merchant = await t.merchant();
    const ids: string[] = [];
    for (let i = 0; i < ORDERS; i++) {
      const wallet = (await generateKeyPairSigner()).address;
      const receiver = await t.activeReceiver(merchant, { walletAddress: wallet });
      const order = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 20 + i });
      expect((await t.call('POST', `/sandbox/orders/${order.id}/pix-payment`, merchant, {})).statusCode).toBe(200);
      ids.push(order.id as string);
    }
    await passesUntil(t, sim, ids);

    const orders = await db().selectFrom('orders').select(['id', 'tx_hash', 'treasury_wallet', 'amount_token']).where('id', 'in', ids).execute();
    const byWallet = (wallet: number) => orders.filter((o) => o.treasury_wallet === wallet);
    expect(byWallet(1).length).toBeGreaterThan(0);
    expect(byWallet(2).length).toBeGreaterThan(0);
    expect(byWallet(1).length + byWallet(2).length).toBe(ORDERS);
    // Each transaction signed and paid by the wallet its orders name: its fee payer is that wallet.
    for (const order of orders) {
      const tx = await rpc.getTransaction(order.tx_hash as Signature, { encoding: 'json', maxSupportedTransactionVersion: 0 }).send();
      expect(tx!.transaction.message.accountKeys[0]).toBe(wallets[order.treasury_wallet! - 1]);
    }
    // The back office's order page names the wallet.
    for (const order of [byWallet(1)[0]!, byWallet(2)[0]!]) {
      const detail = await t.ctx.app.inject({ method: 'GET', url: `/api/v1/admin/orders/${order.id}`, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      expect(detail.json()).toMatchObject({ txHash: order.tx_hash, treasuryWallet: order.treasury_wallet });
    }
    // Each wallet's tokens left by exactly its orders' amounts.
    for (const wallet of [1, 2]) {
      const sent = byWallet(wallet).reduce((sum, o) => sum.plus(o.amount_token), decimal(0));
      expect((await usdcOf(wallets[wallet - 1]!)).toString()).toBe(decimal(1_000_000).minus(sent).toString());
    }

    // Each wallet against its own books, SOL (fees, rent) included: no drift in either.
    const run = await t.ctx.app.services.treasury.reconcile();
    expect(run?.driftFound).toBe(false);
    const drifts = run!.currencies.map((c) => [c.wallet, c.currency, c.drift]);
    expect(drifts).toEqual([
      [1, 'SOL', '0'],
      [1, 'USDC', '0'],
      [2, 'SOL', '0'],
      [2, 'USDC', '0'],
    ]);
    const sol = run!.currencies.filter((c) => c.currency === 'SOL');
    expect(sol.every((c) => decimal(c.onChain).lt(10))).toBe(true);
  });

  it("tokens sent to wallet 2 that nobody booked are wallet 2's drift alone; the admin view shows both wallets and their sum", async () => {
    await sim.mintTo({ mint: usdc, owner: wallets[1]!, amount: 5_000_000n });
    const run = await t.ctx.app.services.treasury.reconcile();
    expect(run?.driftFound).toBe(true);
    expect(run!.currencies.filter((c) => c.drifted).map((c) => [c.wallet, c.currency, c.drift])).toEqual([[2, 'USDC', '5']]);

    const view = await t.ctx.app.inject({ method: 'GET', url: '/api/v1/admin/treasury', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(view.statusCode, view.body).toBe(200);
    const body = view.json();
    expect(body.wallets.map((w: { wallet: number; address: string }) => [w.wallet, w.address])).toEqual([
      [1, wallets[0]],
      [2, wallets[1]],
    ]);
    const usdcIn = (w: { currencies: Array<{ currency: string; onChain: string; ledger: string; drift: string }> }) => w.currencies.find((c) => c.currency === 'USDC')!;
    const [first, second] = body.wallets;
    expect(usdcIn(second).drift).toBe('5');
    expect(usdcIn(first).drift).toBe('0');
    const total = body.currencies.find((c: { currency: string }) => c.currency === 'USDC');
    expect(total.onChain).toBe(decimal(usdcIn(first).onChain).plus(usdcIn(second).onChain).toString());
    expect(total.ledger).toBe(decimal(usdcIn(first).ledger).plus(usdcIn(second).ledger).toString());
    expect(body.lastReconciliation.currencies.filter((c: { wallet: number }) => c.wallet === 2)).toHaveLength(2);
  });
});
