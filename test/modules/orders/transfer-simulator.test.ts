/**
 * Exactly one PAYIN transfer through crashes, against the chain simulator (a Solana JSON-RPC node
 * on LiteSVM): the service as configured for production's chain (CHAIN_PROVIDER=solana-rpc,
 * SOLANA_RPC_URL the simulator, the TREASURY key sealed in platform_keys, funded there with SOL and
 * USDC), its worker's steps, and the simulator's fault switches. Each case ends
 * with the receiver's token balance up by exactly the order's amount (one transfer landed), the
 * order COMPLETED, and the SOL postings equal to what the chain charged (getTransaction); at the
 * end the treasury's reconciliation finds the books and the chain in agreement, to the lamport.
 */
import { type Address, generateKeyPairSigner, type Signature } from '@solana/kit';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decimal } from '../../../src/lib/money.ts';
import { ordersRepo } from '../../../src/modules/orders/repo.ts';
import type { ChainSimulator } from '../../../tools/chain-simulator/index.ts';
import { ata, type Rpc, solanaRpcSettings, startHandClockedChain, fundTreasury } from '../../helpers/chain-simulator.ts';
import { ordersTest } from './helpers.ts';

const FINALIZED_LAG = 3;

describe('a PAYIN transfers exactly once on the chain simulator', () => {
  let sim: ChainSimulator;
  let rpc: Rpc;
  let usdc: Address;
  let treasury: Address;
  /** The simulator's fault clock: real time, except while the outage test moves it by hand. */
  let faultClock: number | undefined;

  // Before the app is built (ordersTest reads its settings then): the node and the mint.
  beforeAll(async () => {
    // Slots move by hand, a few per worker pass: a fast clock that never races the assertions.
    ({ sim, rpc, usdc } = await startHandClockedChain(FINALIZED_LAG, { now: () => faultClock ?? Date.now() }));
  });
  afterAll(() => sim?.close());

  // One transaction per order (CHAIN_TRANSFER_BATCH_MAX=1): the single path's cases; batches are transfer-batch.test.ts's.
  const t = ordersTest(() => ({ ...solanaRpcSettings(sim.url, usdc), CHAIN_TRANSFER_BATCH_MAX: '1' }));

  beforeAll(async () => {
    treasury = await fundTreasury(sim, t.ctx.app.services, usdc);
  });

  /** A paid PAYIN to a fresh wallet, and the worker's steps over the simulator. */
  async function paidPayin() {
    const merchant = await t.merchant();
    const wallet = (await generateKeyPairSigner()).address;
    const receiver = await t.activeReceiver(merchant, { walletAddress: wallet });
    const order = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 20 });
    expect((await t.call('POST', `/sandbox/orders/${order.id}/pix-payment`, merchant, {})).statusCode).toBe(200);
    const steps = t.ctx.app.services.orderSteps;
    const row = async () => (await ordersRepo.find(t.ctx.database.db, order.id as string))!;
    /** Worker passes, slots and the worker's clock moving between them, until COMPLETED. */
    const work = async (passes = 40, tickMs = 1000) => {
      for (let i = 0; i < passes; i++) {
        await steps.runDuePass();
        if ((await row()).status === 'COMPLETED') return;
        sim.advanceSlots(1);
        t.clock.advance(tickMs);
      }
      throw new Error(`order still ${(await row()).status} after ${passes} passes`);
    };
    return { order, wallet, steps, row, work };
  }

  const tokenBalance = async (owner: Address) => {
    const account = await ata(owner, usdc);
    return (await rpc.getTokenAccountBalance(account).send().catch(() => ({ value: { amount: '0' } }))).value.amount;
  };

  async function expectExactlyOnce(orderId: string, wallet: Address) {
    const row = (await ordersRepo.find(t.ctx.database.db, orderId))!;
    expect(row.status).toBe('COMPLETED');
    expect(await tokenBalance(wallet)).toBe(decimal(row.amount_token).times(1e6).toFixed(0));
    // What the chain charged the treasury for the order's transaction, and what the ledger says.
    const tx = await rpc.getTransaction(row.tx_hash! as Signature, { commitment: 'finalized', encoding: 'json', maxSupportedTransactionVersion: 0 }).send();
    // The treasury paid: the fee payer, and the only signer.
    expect(tx!.transaction.message.accountKeys[0]).toBe(treasury);
    expect(tx!.transaction.signatures).toHaveLength(1);
    const fee = BigInt(tx!.meta!.fee);
    const rent = BigInt(tx!.meta!.preBalances[0]!) - BigInt(tx!.meta!.postBalances[0]!) - fee;
    expect(rent).toBe(await rpc.getMinimumBalanceForRentExemption(165n).send());
    const postings = await sql<{ code: string; amount: string }>`
      select a.code, p.amount::text as amount
      from ledger_entries e join ledger_postings p on p.entry_id = e.id join ledger_accounts a on a.id = p.account_id
      where e.reference_id = ${orderId} and e.kind = 'CHAIN_COSTS' and p.currency = 'SOL' order by a.code`.execute(t.ctx.database.db);
    const sol = (lamports: bigint) => decimal(lamports.toString()).dividedBy(1e9);
    expect(postings.rows.map((p) => [p.code, decimal(p.amount).toFixed(9)])).toEqual([
      ['account_rent', sol(rent).toFixed(9)],
      ['network_fees', sol(fee).toFixed(9)],
      ['token_treasury', sol(-(fee + rent)).toFixed(9)],
    ]);
  }

  it('killed between signing and sending: the next worker sends the stored bytes', async () => {
    const { order, wallet, steps, row, work } = await paidPayin();
    const sentBefore = sim.state().transactions.sent;
    const swapping = await steps.runStep(await row());
    const transferring = await steps.runStep(swapping!);
    expect(transferring?.status).toBe('TRANSFERRING');
    expect(sim.state().transactions.sent).toBe(sentBefore);
    const stored = await ordersRepo.chainTransferOf(t.ctx.database.db, order.id as string);
    expect(stored?.txHash).toBe(transferring!.tx_hash);
    t.clock.advance(31_000);
    await work();
    expect((await row()).tx_hash).toBe(stored!.txHash);
    // Sent once: once the chain has it, the passes until finality only ask for its status.
    expect(sim.state().transactions.sent - sentBefore).toBe(1);
    await expectExactlyOnce(order.id as string, wallet);
  });

  it('killed between sending and confirming: the next worker finds it landed (or sends the same bytes again)', async () => {
    const { order, wallet, steps, row, work } = await paidPayin();
    const transferring = await steps.runStep((await steps.runStep(await row()))!);
    // The TRANSFERRING step sends, finds it not yet final and would wait: the worker dies there.
    await expect(steps.runStep(transferring!)).rejects.toThrow('not confirmed');
    const stored = await ordersRepo.chainTransferOf(t.ctx.database.db, order.id as string);
    sim.advanceSlots(2);
    t.clock.advance(31_000);
    await work();
    expect((await row()).tx_hash).toBe(stored!.txHash);
    await expectExactlyOnce(order.id as string, wallet);
  });

  it('a dropped transaction is sent again, the same bytes', async () => {
    const { order, wallet, work, row } = await paidPayin();
    await sim.setFaults({ dropNext: 2 });
    await work();
    const transfer = await t.ctx.database.db.selectFrom('order_transactions').select(['tx_hash', 'previous_tx_hashes']).where('order_id', '=', order.id as string).where('type', '=', 'CHAIN_TRANSFER').executeTakeFirstOrThrow();
    expect(transfer).toEqual({ tx_hash: (await row()).tx_hash, previous_tx_hashes: [] });
    await expectExactlyOnce(order.id as string, wallet);
  });

  it('an expired blockhash is rebuilt only once the chain provably never took it, the old signature kept', async () => {
    const { order, wallet, row, work } = await paidPayin();
    await sim.setFaults({ dropNext: 1_000_000 });
    await expect(work(4)).rejects.toThrow('still TRANSFERRING');
    const old = await ordersRepo.chainTransferOf(t.ctx.database.db, order.id as string);
    // Within its window, however long the wait, the same transaction stays the order's.
    sim.advanceSlots(Number(BigInt(old!.lastValidBlockHeight) - BigInt(sim.state().slot)));
    await expect(work(2)).rejects.toThrow('still TRANSFERRING');
    expect((await ordersRepo.chainTransferOf(t.ctx.database.db, order.id as string))?.txHash).toBe(old!.txHash);
    await sim.reset();
    sim.advanceSlots(FINALIZED_LAG + 2);
    await work();
    const transfer = await t.ctx.database.db.selectFrom('order_transactions').select(['tx_hash', 'previous_tx_hashes']).where('order_id', '=', order.id as string).where('type', '=', 'CHAIN_TRANSFER').executeTakeFirstOrThrow();
    expect(transfer.previous_tx_hashes).toEqual([old!.txHash]);
    expect(transfer.tx_hash).toBe((await row()).tx_hash);
    expect(transfer.tx_hash).not.toBe(old!.txHash);
    await expectExactlyOnce(order.id as string, wallet);
  });

  it('RPC 503 for a while, then recovery', async () => {
    const { order, wallet, work } = await paidPayin();
    await sim.setFaults({ http: { status: 503, count: 12 } });
    // The backoff doubles per failed attempt: passes a minute apart reach each retry.
    await work(40, 60_000);
    // Every 503 was answered to the order's steps before it completed.
    expect(sim.state().faults.http).toBeNull();
    await expectExactlyOnce(order.id as string, wallet);
  });

  it('RPC 503 for 30 s (the issue\'s outage, on the simulator\'s clock), passes 2 s apart, then recovery: one transfer', async () => {
    const { order, wallet, steps, row } = await paidPayin();
    const started = Date.now();
    faultClock = started;
    try {
      await sim.setFaults({ http: { status: 503, durationMs: 30_000 } });
      let failedPasses = 0;
      for (let pass = 0; (await row()).status !== 'COMPLETED'; pass++) {
        if (pass > 30) throw new Error(`order still ${(await row()).status} 60 s after the outage began`);
        if (faultClock - started < 30_000) failedPasses++;
        await steps.runDuePass();
        sim.advanceSlots(1);
        // Past the longest backoff (5 minutes): every pass retries.
        t.clock.advance(301_000);
        faultClock += 2_000;
      }
      // It completed only once the node answered again, after retrying through the outage.
      expect(faultClock - started).toBeGreaterThan(30_000);
      expect(failedPasses).toBeGreaterThan(10);
      await expectExactlyOnce(order.id as string, wallet);
    } finally {
      faultClock = undefined;
    }
  });

  it('two PAYINs of one receiver for the same amount, prepared on the same blockhash: two transactions, two transfers (the memo tells them apart)', async () => {
    const merchant = await t.merchant();
    const wallet = (await generateKeyPairSigner()).address;
    const receiver = await t.activeReceiver(merchant, { walletAddress: wallet });
    const orders = [await t.payin(merchant, { receiverId: receiver.id, amountBrl: 20 }), await t.payin(merchant, { receiverId: receiver.id, amountBrl: 20 })];
    for (const order of orders) expect((await t.call('POST', `/sandbox/orders/${order.id}/pix-payment`, merchant, {})).statusCode).toBe(200);
    const steps = t.ctx.app.services.orderSteps;
    const row = async (id: string) => (await ordersRepo.find(t.ctx.database.db, id))!;
    // Both prepared before any slot passes: the same blockhash, the same instructions but the memo.
    for (const order of orders) await steps.runStep((await steps.runStep(await row(order.id as string)))!);
    const [first, second] = await Promise.all(orders.map(async (order) => (await row(order.id as string)).tx_hash));
    expect(first).not.toBe(second);
    for (let i = 0; i < 40 && (await Promise.all(orders.map(async (o) => (await row(o.id as string)).status))).some((s) => s !== 'COMPLETED'); i++) {
      await steps.runDuePass();
      sim.advanceSlots(1);
      t.clock.advance(1000);
    }
    const amounts = await Promise.all(orders.map(async (order) => decimal((await row(order.id as string)).amount_token)));
    expect(await tokenBalance(wallet)).toBe(amounts[0]!.plus(amounts[1]!).times(1e6).toFixed(0));
    const tx = await rpc.getTransaction(first! as Signature, { commitment: 'finalized', encoding: 'jsonParsed', maxSupportedTransactionVersion: 0 }).send();
    expect(tx!.meta!.logMessages!.join('\n')).toContain(orders[0]!.id as string);
  });

  it('after every case above, the treasury reconciliation finds no drift: every fee and rent the chain charged is in the books', async () => {
    const result = await t.ctx.app.services.treasury.reconcile();
    expect(result).toMatchObject({ address: treasury, inFlightTransfers: 0, driftFound: false });
    const byCurrency = Object.fromEntries(result!.currencies.map((c) => [c.currency, c]));
    expect(Object.keys(byCurrency).sort()).toEqual(['SOL', 'USDC']);
    for (const currency of ['SOL', 'USDC']) expect(decimal(byCurrency[currency]!.drift).isZero(), currency).toBe(true);
    // Fees and rent were really paid: the SOL is below what was funded, in the books as on chain.
    expect(decimal(byCurrency.SOL!.onChain).lt(10)).toBe(true);
  });
});
