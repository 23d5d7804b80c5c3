/**
 * Deposit sweeps on the chain simulator (CHAIN_PROVIDER=solana-rpc): a PAYOUT's deposit, credited
 * by the watcher, is moved to the treasury by one transaction the sponsor pays and the deposit
 * address's sealed key signs; the emptied token account is closed, its rent to the sponsor. Exactly
 * once through a crash between storing and sending, a dropped send and an expired blockhash; the
 * SOL postings equal what the chain charged, and the treasury reconciliation sees the unswept
 * deposit as in flight, then the books and the chain equal. Only the credited amount moves (a
 * second deposit stays, the account open); a sweep whose close fails lands FAILED for an operator.
 */
import { type Address, address, type KeyPairSigner, type Signature } from '@solana/kit';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSolanaSweeps } from '../../../src/adapters/chain/solana-sweeps.ts';
import { createMetrics } from '../../../src/http/metrics.ts';
import { createWorkerJobs } from '../../../src/jobs.ts';
import { createKeyCustody } from '../../../src/key-custody.ts';
import { decimal } from '../../../src/lib/money.ts';
import { createSweeper } from '../../../src/modules/deposits/sweeps.ts';
import type { ChainSimulator } from '../../../tools/chain-simulator/index.ts';
import { ata, buildTransfer, type Rpc, solanaRpcSettings, fundedSender, startHandClockedChain } from '../../helpers/chain-simulator.ts';
import { type Json, ordersTest } from '../orders/helpers.ts';

const FINALIZED_LAG = 3;

describe('deposit sweeps on the chain simulator', () => {
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
  const sweepOf = (order: Json) => db().selectFrom('deposit_sweeps').selectAll().where('deposit_address', '=', order.depositAddress as string).executeTakeFirstOrThrow();

  /** A PAYOUT of `amount` USDC, paid on chain and credited by the watcher. */
  async function credited(amount: number) {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const order = await t.payout(merchant, { receiverId: receiver.id, amountCrypto: amount, sourceToken: 'USDC' });
    const { wire } = await buildTransfer(rpc, { payer: sender, mint: usdc, to: address(order.depositAddress as string), amount: BigInt(amount * 1e6) });
    await rpc.sendTransaction(wire as never, { encoding: 'base64', skipPreflight: true }).send();
    sim.advanceSlots(FINALIZED_LAG + 1);
    await services().depositWatcher!.runPass();
    const outcome = await db().selectFrom('chain_deposits').select('outcome').where('deposit_address', '=', order.depositAddress as string).executeTakeFirstOrThrow();
    expect(outcome.outcome).toBe('CREDITED');
    return order;
  }

  /** Sweep passes, slots moving between them, until the order's sweep is no longer PENDING. */
  async function sweepUntilSettled(order: Json, passes = 20) {
    for (let i = 0; i < passes; i++) {
      await services().sweeper!.runPass();
      const row = await db().selectFrom('deposit_sweeps').select('status').where('deposit_address', '=', order.depositAddress as string).executeTakeFirst();
      if (row && row.status !== 'PENDING') return row.status;
      sim.advanceSlots(1);
    }
    throw new Error('sweep still PENDING');
  }

  /** Swept once: the deposit account closed, the sponsor paid and signed with the owner, the postings the chain's numbers. */
  async function expectSwept(order: Json) {
    const sweep = await sweepOf(order);
    expect(sweep).toMatchObject({ status: 'DONE', closes: true });
    const owner = address(order.depositAddress as string);
    expect((await rpc.getAccountInfo(await ata(owner, usdc)).send()).value).toBeNull();
    const tx = await rpc.getTransaction(sweep.tx_hash as Signature, { commitment: 'finalized', encoding: 'json', maxSupportedTransactionVersion: 0 }).send();
    expect(tx!.transaction.message.accountKeys[0]).toBe(sponsor);
    expect(tx!.transaction.signatures).toHaveLength(2);
    expect(tx!.transaction.message.accountKeys).toContain(owner);
    const fee = BigInt(tx!.meta!.fee);
    const rent = BigInt(tx!.meta!.preBalances[0]!) - BigInt(tx!.meta!.postBalances[0]!) - fee;
    // The closed account's rent came back to the sponsor (the treasury's token account existed).
    expect(-rent).toBe(await rpc.getMinimumBalanceForRentExemption(165n).send());
    const postings = await sql<{ code: string; amount: string }>`
      select a.code, p.amount::text as amount
      from ledger_entries e join ledger_postings p on p.entry_id = e.id join ledger_accounts a on a.id = p.account_id
      where e.reference_id = ${order.id as string} and e.kind = 'SWEEP_COSTS' order by a.code`.execute(db());
    const sol = (lamports: bigint) => decimal(lamports.toString()).dividedBy(1e9).toFixed(9);
    expect(postings.rows.map((p) => [p.code, decimal(p.amount).toFixed(9)])).toEqual([
      ['account_rent', sol(rent)],
      ['network_fees', sol(fee)],
      ['sponsor_sol', sol(-(fee + rent))],
    ]);
    expect(sweep.fee_lamports).toBe(fee.toString());
    expect(sweep.rent_lamports).toBe(rent.toString());
  }

  /** A sweeper killed once it stored a sweep, before the first send. */
  function dyingSweeper() {
    const { depositVault } = createKeyCustody({ config: t.ctx.config, db: db(), clock: t.clock });
    const dying = createSweeper({
      db: db(),
      clock: t.clock,
      chain: createSolanaSweeps({ settings: { rpcUrl: sim.url, commitment: 'finalized', tokenMints: { USDC: usdc } }, sponsor: services().platformKeysAtStart.signers.SPONSOR, treasuryAddress: treasury }),
      vault: depositVault,
      postSweepCosts: (trx, o, costs, at) => services().ledger.postSweepCosts(trx, o, costs, at),
      settings: { batchSize: 100, maxAttempts: 3 },
      afterSweepStored: () => {
        throw new Error('killed');
      },
    });
    return dying;
  }

  it('the sweeps are a worker job with CHAIN_PROVIDER=solana-rpc', () => {
    expect(createWorkerJobs(services(), t.ctx.config, createMetrics()).map((job) => job.name)).toContain('deposit-sweeps');
  });

  it('a credited deposit is swept exactly once: the treasury up by D, the account closed, the reconciliation without drift before and after', async () => {
    const order = await credited(20);
    const before = BigInt(await tokenBalance(treasury));
    // Credited, not yet swept: the books hold 20 more than the chain's treasury, in flight.
    const unswept = await services().treasury.reconcile();
    const usdcBefore = unswept!.currencies.find((c) => c.currency === 'USDC')!;
    expect(usdcBefore).toMatchObject({ drift: '-20', inFlightAmount: '20', drifted: false });
    expect(unswept!.driftFound).toBe(false);
    const sent = sim.state().transactions.sent;
    expect(await sweepUntilSettled(order)).toBe('DONE');
    expect(sim.state().transactions.sent - sent).toBe(1);
    expect(BigInt(await tokenBalance(treasury)) - before).toBe(20_000_000n);
    await expectSwept(order);
    // Nothing more to do for it: no second sweep.
    await services().sweeper!.runPass();
    expect(sim.state().transactions.sent - sent).toBe(1);
    const after = await services().treasury.reconcile();
    expect(after!.driftFound).toBe(false);
    expect(after!.currencies.find((c) => c.currency === 'USDC')).toMatchObject({ drift: '0', inFlightAmount: '0' });
  });

  it('killed between storing and sending: the next sweeper sends the stored bytes', async () => {
    const order = await credited(5);
    const sent = sim.state().transactions.sent;
    const dying = dyingSweeper();
    await dying.runPass();
    expect(sim.state().transactions.sent).toBe(sent);
    const stored = await sweepOf(order);
    expect(stored.status).toBe('PENDING');
    expect(await sweepUntilSettled(order)).toBe('DONE');
    expect((await sweepOf(order)).tx_hash).toBe(stored.tx_hash);
    await expectSwept(order);
  });

  it('a dropped sweep is sent again, the same bytes', async () => {
    const order = await credited(3);
    await sim.setFaults({ dropNext: 1 });
    expect(await sweepUntilSettled(order)).toBe('DONE');
    expect(await sweepOf(order)).toMatchObject({ previous_tx_hashes: [], attempt: 1 });
    await expectSwept(order);
  });

  it('an expired sweep is rebuilt once the chain provably never took it, the old signature kept', async () => {
    const order = await credited(4);
    await sim.setFaults({ dropNext: 1_000_000 });
    await services().sweeper!.runPass();
    const old = await sweepOf(order);
    sim.advanceSlots(Number(BigInt(old.last_valid_block_height) - BigInt(sim.state().slot)));
    await services().sweeper!.runPass();
    expect((await sweepOf(order)).tx_hash).toBe(old.tx_hash);
    await sim.reset();
    sim.advanceSlots(FINALIZED_LAG + 2);
    expect(await sweepUntilSettled(order)).toBe('DONE');
    const sweep = await sweepOf(order);
    expect(sweep.previous_tx_hashes).toEqual([old.tx_hash]);
    expect(sweep.attempt).toBe(2);
    expect(sweep.tx_hash).not.toBe(old.tx_hash);
    await expectSwept(order);
  });

  it('a second deposit before the sweep: only the credited amount moves, the account stays open with the rest for an operator', async () => {
    const order = await credited(6);
    const { wire } = await buildTransfer(rpc, { payer: sender, mint: usdc, to: address(order.depositAddress as string), amount: 2_000_000n });
    await rpc.sendTransaction(wire as never, { encoding: 'base64', skipPreflight: true }).send();
    sim.advanceSlots(FINALIZED_LAG + 1);
    await services().depositWatcher!.runPass();
    const outcomes = await db().selectFrom('chain_deposits').select('outcome').where('deposit_address', '=', order.depositAddress as string).orderBy('detected_at').execute();
    expect(outcomes.map((d) => d.outcome)).toEqual(['CREDITED', 'REPEATED']);
    const before = BigInt(await tokenBalance(treasury));
    expect(await sweepUntilSettled(order)).toBe('DONE');
    expect(await sweepOf(order)).toMatchObject({ closes: false, rent_lamports: '0' });
    expect(BigInt(await tokenBalance(treasury)) - before).toBe(6_000_000n);
    expect(await tokenBalance(address(order.depositAddress as string))).toBe('2000000');
    const kinds = await sql<{ code: string }>`
      select a.code from ledger_entries e join ledger_postings p on p.entry_id = e.id join ledger_accounts a on a.id = p.account_id
      where e.reference_id = ${order.id as string} and e.kind = 'SWEEP_COSTS' order by a.code`.execute(db());
    expect(kinds.rows.map((r) => r.code)).toEqual(['network_fees', 'sponsor_sol']);
  });

  it('a deposit below the minimum order (ORDER_FAILED) stays at its address, unswept, and posts nothing: the books never say the treasury holds it', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const order = await t.payout(merchant, { receiverId: receiver.id, amountCrypto: 10, sourceToken: 'USDC' });
    const { wire } = await buildTransfer(rpc, { payer: sender, mint: usdc, to: address(order.depositAddress as string), amount: 10_000n });
    await rpc.sendTransaction(wire as never, { encoding: 'base64', skipPreflight: true }).send();
    sim.advanceSlots(FINALIZED_LAG + 1);
    await services().depositWatcher!.runPass();
    const deposit = await db().selectFrom('chain_deposits').select('outcome').where('deposit_address', '=', order.depositAddress as string).executeTakeFirstOrThrow();
    expect(deposit.outcome).toBe('ORDER_FAILED');
    await services().sweeper!.runPass();
    expect(await db().selectFrom('deposit_sweeps').select('status').where('deposit_address', '=', order.depositAddress as string).executeTakeFirst()).toBeUndefined();
    expect(await tokenBalance(address(order.depositAddress as string))).toBe('10000');
    const entries = await db().selectFrom('ledger_entries').select('kind').where('reference_id', '=', order.id as string).execute();
    expect(entries).toEqual([]);
    const result = await services().treasury.reconcile();
    expect(result!.currencies.find((c) => c.currency === 'USDC')).toMatchObject({ drift: '0', drifted: false });
  });

  it('after every case above, the reconciliation finds the books and the chain equal', async () => {
    const result = await services().treasury.reconcile();
    expect(result!.driftFound).toBe(false);
    for (const currency of result!.currencies) expect(decimal(currency.drift).isZero(), currency.currency).toBe(true);
  });

  it('a deposit landing between a sweep prepared to close the account and its landing: the close fails, the sweep is FAILED with its fee posted, the deposit left as drift for an operator', async () => {
    const order = await credited(7);
    await dyingSweeper().runPass();
    expect((await sweepOf(order)).closes).toBe(true);
    const { wire } = await buildTransfer(rpc, { payer: sender, mint: usdc, to: address(order.depositAddress as string), amount: 1_000_000n });
    await rpc.sendTransaction(wire as never, { encoding: 'base64', skipPreflight: true }).send();
    sim.advanceSlots(FINALIZED_LAG + 1);
    const before = BigInt(await tokenBalance(treasury));
    expect(await sweepUntilSettled(order)).toBe('FAILED');
    const sweep = await sweepOf(order);
    expect(sweep.failure_reason).toMatch(/landed with an error/);
    expect(BigInt(await tokenBalance(treasury))).toBe(before);
    const tx = await rpc.getTransaction(sweep.tx_hash as Signature, { commitment: 'finalized', encoding: 'json', maxSupportedTransactionVersion: 0 }).send();
    expect(sweep.fee_lamports).toBe(BigInt(tx!.meta!.fee).toString());
    const entries = await db().selectFrom('ledger_entries').select('kind').where('reference_id', '=', order.id as string).where('kind', '=', 'SWEEP_COSTS').execute();
    expect(entries).toHaveLength(1);
    // Not in flight any more: the 7 credited are a drift until an operator moves them.
    const result = await services().treasury.reconcile();
    expect(result!.currencies.find((c) => c.currency === 'USDC')).toMatchObject({ drift: '-7', inFlightAmount: '0', drifted: true });
  });
});
