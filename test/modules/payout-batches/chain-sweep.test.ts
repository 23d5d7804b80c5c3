/**
 * A payout batch's deposit swept to the treasury on the chain simulator (CHAIN_PROVIDER=solana-rpc;
 * migration 0069): once its deposits funded it, the batch's address is swept as a PAYOUT's (one
 * transaction the sponsor pays and the address's sealed key signs), exactly once, only what funded
 * it (a deposit after funding stays for an operator), the sponsor's costs posted against the batch,
 * and the treasury reconciliation sees it in flight, then the books and the chain equal. A batch
 * not funded is never swept.
 */
import { type Address, address, type KeyPairSigner, type Signature } from '@solana/kit';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decimal } from '../../../src/lib/money.ts';
import type { ChainSimulator } from '../../../tools/chain-simulator/index.ts';
import { ata, buildTransfer, type Rpc, solanaRpcSettings, fundedSender, startHandClockedChain } from '../../helpers/chain-simulator.ts';
import { type Json, ordersTest } from '../orders/helpers.ts';

const FINALIZED_LAG = 3;

describe("a payout batch's deposit swept on chain", () => {
  let sim: ChainSimulator;
  let rpc: Rpc;
  let usdc: Address;
  let sender: KeyPairSigner;
  let treasury: Address;
  let sponsor: Address;

  beforeAll(async () => {
    ({ sim, rpc, usdc } = await startHandClockedChain(FINALIZED_LAG));
    sender = await fundedSender(sim, usdc);
  });
  afterAll(() => sim?.close());

  const t = ordersTest(() => solanaRpcSettings(sim.url, usdc));
  const services = () => t.ctx.app.services;
  const db = () => t.ctx.database.db;

  beforeAll(async () => {
    const { signers } = services().platformKeysAtStart;
    treasury = address(signers.TREASURY.address);
    sponsor = address(signers.SPONSOR.address);
    await sim.airdrop(sponsor, 10_000_000_000n);
    const airdrop = await sim.airdrop(treasury, 10_000_000_000n);
    await sim.mintTo({ mint: usdc, owner: treasury, amount: 1_000_000_000n });
    await services().treasury.fund({ currency: 'SOL', amount: '10', reference: airdrop }, { actor: 'test' });
    await services().treasury.fund({ currency: 'USDC', amount: '1000', reference: `mint-${usdc}` }, { actor: 'test' });
  });

  const tokenBalance = async (owner: Address) => (await rpc.getTokenAccountBalance(await ata(owner, usdc)).send().catch(() => ({ value: { amount: '0' } }))).value.amount;
  const sweepAt = (depositAddress: string) => db().selectFrom('deposit_sweeps').selectAll().where('deposit_address', '=', depositAddress).executeTakeFirst();

  async function send(owner: string, units: bigint) {
    const { wire } = await buildTransfer(rpc, { payer: sender, mint: usdc, to: address(owner), amount: units });
    await rpc.sendTransaction(wire as never, { encoding: 'base64', skipPreflight: true }).send();
    sim.advanceSlots(FINALIZED_LAG + 1);
    await services().depositWatcher!.runPass();
  }

  /** A batch of 3 + 2 USDC, submitted: its deposit address. */
  async function waitingBatch(): Promise<Json> {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const batch = (await t.call('POST', '/payout-batches', merchant, { token: 'USDC', items: [{ receiverId: receiver.id, amountCrypto: 3 }, { receiverId: receiver.id, amountCrypto: 2 }] })).json();
    return (await t.call('POST', `/payout-batches/${batch.id}/submit`, merchant)).json();
  }

  async function sweepUntilSettled(depositAddress: string, passes = 20) {
    for (let i = 0; i < passes; i++) {
      await services().sweeper!.runPass();
      const row = await sweepAt(depositAddress);
      if (row && row.status !== 'PENDING') return row.status;
      sim.advanceSlots(1);
    }
    throw new Error('sweep still PENDING');
  }

  it('funded by two deposits and paid a third: swept once, the funded amount only, the costs posted against the batch', async () => {
    const batch = await waitingBatch();
    const depositAddress = batch.depositAddress as string;
    await send(depositAddress, 3_000_000n);
    // Not funded yet: nothing in the books, nothing to sweep.
    await services().sweeper!.runPass();
    expect(await sweepAt(depositAddress)).toBeUndefined();
    await send(depositAddress, 2_000_000n);
    await send(depositAddress, 1_000_000n);
    const outcomes = await db().selectFrom('chain_deposits').select('outcome').where('deposit_address', '=', depositAddress).orderBy('detected_at').execute();
    expect(outcomes.map((d) => d.outcome)).toEqual(['CREDITED', 'CREDITED', 'REPEATED']);

    const unswept = await services().treasury.reconcile();
    expect(unswept!.driftFound).toBe(false);
    expect(unswept!.currencies.find((c) => c.currency === 'USDC')).toMatchObject({ drift: '-5', inFlightAmount: '5' });
    const before = BigInt(await tokenBalance(treasury));
    const sent = sim.state().transactions.sent;
    expect(await sweepUntilSettled(depositAddress)).toBe('DONE');
    expect(sim.state().transactions.sent - sent).toBe(1);
    const sweep = (await sweepAt(depositAddress))!;
    expect(sweep).toMatchObject({ payout_batch_id: batch.id, order_id: null, amount: decimal('5').toFixed(9), closes: false, rent_lamports: '0' });
    expect(BigInt(await tokenBalance(treasury)) - before).toBe(5_000_000n);
    expect(await tokenBalance(address(depositAddress))).toBe('1000000');

    const tx = await rpc.getTransaction(sweep.tx_hash as Signature, { commitment: 'finalized', encoding: 'json', maxSupportedTransactionVersion: 0 }).send();
    expect(tx!.transaction.message.accountKeys[0]).toBe(sponsor);
    expect(tx!.transaction.signatures).toHaveLength(2);
    const postings = await sql<{ code: string; amount: string; reference_type: string }>`
      select a.code, p.amount::text as amount, e.reference_type
      from ledger_entries e join ledger_postings p on p.entry_id = e.id join ledger_accounts a on a.id = p.account_id
      where e.reference_id = ${batch.id as string} and e.kind = 'SWEEP_COSTS' order by a.code`.execute(db());
    const fee = decimal(tx!.meta!.fee.toString()).dividedBy(1e9).toFixed(9);
    expect(postings.rows.map((p) => [p.code, p.reference_type, decimal(p.amount).toFixed(9)])).toEqual([
      ['network_fees', 'payout_batch', fee],
      ['sponsor_sol', 'payout_batch', decimal(fee).negated().toFixed(9)],
    ]);

    await services().sweeper!.runPass();
    expect(sim.state().transactions.sent - sent).toBe(1);
    const after = await services().treasury.reconcile();
    expect(after!.driftFound).toBe(false);
    expect(after!.currencies.find((c) => c.currency === 'USDC')).toMatchObject({ drift: '0', inFlightAmount: '0' });
  });

  it('a batch never funded is not swept: its deposit stays at its address', async () => {
    const batch = await waitingBatch();
    const depositAddress = batch.depositAddress as string;
    await send(depositAddress, 1_000_000n);
    await services().sweeper!.runPass();
    expect(await sweepAt(depositAddress)).toBeUndefined();
    expect(await tokenBalance(address(depositAddress))).toBe('1000000');
  });
});
