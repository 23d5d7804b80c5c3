/**
 * Batched PAYIN transfers (decision 0053) against the chain simulator, the service as configured
 * for a real chain: 18 paid PAYINs ready at once go out in a few treasury transactions, each order
 * COMPLETED exactly once pointing at its (batch, instruction index), the books charged to the
 * lamport what the chain charged; one destination the chain refuses (a frozen token account)
 * inside a batch of 18 splits it until that order is alone, and the other 17 complete.
 */
import { type Address, generateKeyPairSigner, type Signature } from '@solana/kit';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decimal } from '../../../src/lib/money.ts';
import { ordersRepo } from '../../../src/modules/orders/repo.ts';
import type { ChainSimulator } from '../../../tools/chain-simulator/index.ts';
import { ata, fundTreasury, passesUntil, type Rpc, solanaRpcSettings, startHandClockedChain } from '../../helpers/chain-simulator.ts';
import { ordersTest } from './helpers.ts';

const FINALIZED_LAG = 3;
const ORDERS = 18;

describe('batched PAYIN transfers on the chain simulator', () => {
  let sim: ChainSimulator;
  let rpc: Rpc;
  let usdc: Address;
  let treasury: Address;

  beforeAll(async () => {
    ({ sim, rpc, usdc } = await startHandClockedChain(FINALIZED_LAG));
  });
  afterAll(() => sim?.close());

  const t = ordersTest(() => ({ ...solanaRpcSettings(sim.url, usdc), CHAIN_TRANSFER_BATCH_MAX: '20' }));

  beforeAll(async () => {
    treasury = await fundTreasury(sim, t.ctx.app.services, usdc);
  });

  const row = async (id: string) => (await ordersRepo.find(t.ctx.database.db, id))!;
  const lamports = async (owner: Address) => BigInt((await rpc.getBalance(owner).send()).value);
  const tokenBalance = async (owner: Address) => {
    const account = await ata(owner, usdc);
    return (await rpc.getTokenAccountBalance(account).send().catch(() => ({ value: { amount: '0' } }))).value.amount;
  };

  /** `count` paid PAYINs to fresh wallets, all PAYMENT_RECEIVED and due at once. */
  async function paidPayins(count: number) {
    const merchant = await t.merchant();
    const orders: Array<{ id: string; wallet: Address }> = [];
    for (let i = 0; i < count; i++) {
      const wallet = (await generateKeyPairSigner()).address;
      const receiver = await t.activeReceiver(merchant, { walletAddress: wallet });
      const order = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 20 + i });
      expect((await t.call('POST', `/sandbox/orders/${order.id}/pix-payment`, merchant, {})).statusCode).toBe(200);
      orders.push({ id: order.id as string, wallet });
    }
    return orders;
  }

  /** Worker passes until every order has left TRANSFERRING. */
  const work = (ids: string[], passes = 60) => passesUntil(t, sim, ids, { ends: ['COMPLETED', 'REFUNDING', 'REFUNDED', 'FAILED'], passes });

  /** SOL the books say the chain charged the treasury for these orders (CHAIN_COSTS), lamports. */
  async function bookedLamports(ids: string[]) {
    const result = await sql<{ amount: string }>`
      select coalesce(sum(p.amount), 0)::text as amount
      from ledger_entries e join ledger_postings p on p.entry_id = e.id join ledger_accounts a on a.id = p.account_id
      where e.reference_id = any(${ids}::uuid[]) and e.kind = 'CHAIN_COSTS' and p.currency = 'SOL' and a.code = 'token_treasury'`.execute(t.ctx.database.db);
    return BigInt(decimal(result.rows[0]!.amount).negated().times(1e9).toFixed(0));
  }

  async function transferRows(ids: string[]) {
    return t.ctx.database.db
      .selectFrom('order_transactions')
      .select(['order_id', 'tx_hash', 'transfer_batch_id', 'instruction_index', 'status'])
      .where('order_id', 'in', ids)
      .where('type', '=', 'CHAIN_TRANSFER')
      .execute();
  }

  it('18 ready PAYINs: a few transactions, every order once at its (batch, instruction index), fee and rent shared to the lamport', async () => {
    const orders = await paidPayins(ORDERS);
    const ids = orders.map((o) => o.id);
    const before = await lamports(treasury);
    const sentBefore = sim.state().transactions.sent;
    await work(ids);
    for (const order of orders) {
      const done = await row(order.id);
      expect(done.status).toBe('COMPLETED');
      expect(await tokenBalance(order.wallet)).toBe(decimal(done.amount_token).times(1e6).toFixed(0));
    }
    const rows = await transferRows(ids);
    const signatures = new Set(rows.map((r) => r.tx_hash));
    // Fresh receivers each need their token account created: about 8 fit in 1,232 bytes.
    expect(signatures.size).toBeLessThanOrEqual(3);
    expect(sim.state().transactions.sent - sentBefore).toBe(signatures.size);
    for (const r of rows) {
      expect(r.transfer_batch_id).toEqual(expect.any(String));
      const tx = await rpc.getTransaction(r.tx_hash! as Signature, { commitment: 'finalized', encoding: 'json', maxSupportedTransactionVersion: 0 }).send();
      const instruction = tx!.transaction.message.instructions[r.instruction_index!]!;
      // The order's own transfer: TransferChecked (12) to its receiver's token account.
      const destination = tx!.transaction.message.accountKeys[instruction.accounts[2]!];
      expect(destination).toBe(await ata(orders.find((o) => o.id === r.order_id)!.wallet, usdc));
    }
    // Every lamport the treasury spent is on exactly one order's CHAIN_COSTS.
    expect(await bookedLamports(ids)).toBe(before - (await lamports(treasury)));
  }, 120_000);

  it.each([3, 1])('%i PAYIN(s): stored and sent without asking the node; once it landed, one status check and no block height', async (count) => {
    const orders = await paidPayins(count);
    const ids = orders.map((o) => o.id);
    const callsOf = async (pass: () => Promise<unknown>) => {
      const before = sim.state().calls;
      await pass();
      const after = sim.state().calls;
      return (method: string) => (after[method] ?? 0) - (before[method] ?? 0);
    };
    const first = await callsOf(() => t.ctx.app.services.orderSteps.runDuePass({ parallel: 1 }));
    const stored = await Promise.all(ids.map(row));
    expect(stored.map((o) => o.status)).toEqual(ids.map(() => 'TRANSFERRING'));
    expect(new Set(stored.map((o) => o.tx_hash))).toHaveLength(1);
    expect(first('sendTransaction')).toBe(1);
    // A real node lands it in a later slot: asked at once, it could only say pending.
    expect(first('getSignatureStatuses')).toBe(0);
    expect(first('getBlockHeight')).toBe(0);
    sim.advanceSlots(FINALIZED_LAG + 1);
    t.clock.advance(1000);
    const second = await callsOf(() => t.ctx.app.services.orderSteps.runDuePass({ parallel: 1 }));
    expect((await Promise.all(ids.map(row))).map((o) => o.status)).toEqual(ids.map(() => 'COMPLETED'));
    // The node knows the signature: no height is needed to rule out its expiry.
    expect(second('getSignatureStatuses')).toBe(1);
    expect(second('getBlockHeight')).toBe(0);
    expect(second('getTransaction')).toBe(1);
  });

  it('one refused destination in a batch of 18: split until it is alone, the other 17 complete', async () => {
    const orders = await paidPayins(ORDERS);
    const ids = orders.map((o) => o.id);
    // A receiver's token account frozen: TransferChecked to it fails on chain.
    const bad = orders[4]!;
    await sim.freezeTokenAccount({ mint: usdc, owner: bad.wallet });
    const before = await lamports(treasury);
    await work(ids, 120);
    for (const order of orders) {
      const done = await row(order.id);
      if (order === bad) {
        expect(done.status).toBe('REFUNDING');
        expect(done.failure_reason).toMatch(/On-chain transfer failed/);
        expect(await tokenBalance(order.wallet)).toBe('0');
      } else {
        expect(done.status).toBe('COMPLETED');
        expect(await tokenBalance(order.wallet)).toBe(decimal(done.amount_token).times(1e6).toFixed(0));
      }
    }
    const batches = await t.ctx.database.db.selectFrom('chain_transfer_batches').select(['status', 'order_ids']).where(sql<boolean>`order_ids && ${ids}::uuid[]`).execute();
    expect(batches.filter((b) => b.status === 'FAILED').length).toBeGreaterThanOrEqual(2);
    expect(batches.every((b) => b.status === 'CONFIRMED' || b.status === 'FAILED')).toBe(true);
    // The failed batches' fees too: carried to the halves, on the orders' CHAIN_COSTS.
    expect(await bookedLamports(ids)).toBe(before - (await lamports(treasury)));
  }, 180_000);

  it('after both, the treasury reconciliation finds no drift', async () => {
    const result = await t.ctx.app.services.treasury.reconcile();
    expect(result).toMatchObject({ address: treasury, inFlightTransfers: 0, driftFound: false });
  });
});
