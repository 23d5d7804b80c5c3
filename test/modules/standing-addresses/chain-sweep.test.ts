/**
 * A standing address on the chain simulator (CHAIN_PROVIDER=solana-rpc; decision 0049, migration
 * 0071): its deposits are found in the watcher's balance batches (its signatures listed only when
 * its balance moved), each credited deposit makes its PAYOUT, and each is swept to the treasury
 * once, one sweep at a time per address, the sponsor paying and its costs posted against the
 * PAYOUT, the token account left open for the next deposits; a held deposit is never swept.
 */
import { type Address, address, type KeyPairSigner, type Signature } from '@solana/kit';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSolanaDeposits } from '../../../src/adapters/chain/solana-deposits.ts';
import { decimal } from '../../../src/lib/money.ts';
import { createDepositWatcher } from '../../../src/modules/deposits/watcher.ts';
import type { ChainSimulator } from '../../../tools/chain-simulator/index.ts';
import { ata, buildTransfer, type Rpc, solanaRpcSettings, fundedSender, startHandClockedChain } from '../../helpers/chain-simulator.ts';
import { type Json, ordersTest } from '../orders/helpers.ts';

const FINALIZED_LAG = 3;

describe("a standing address's deposits found by balance and swept on chain", () => {
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
  const sweepsAt = (depositAddress: string) => db().selectFrom('deposit_sweeps').selectAll().where('deposit_address', '=', depositAddress).orderBy('created_at').execute();

  /** A watcher over the standing addresses alone, counting the addresses it lists signatures of; no safety rotation (batchSize 0). */
  function countingWatcher() {
    const chain = createSolanaDeposits({ rpcUrl: sim.url, commitment: 'finalized', tokenMints: { USDC: usdc } });
    const listed: string[] = [];
    const counting = { ...chain, signaturesAfter: (a: string, after: string | null) => (listed.push(a), chain.signaturesAfter(a, after)) };
    const standing = services().standingDeposits;
    const watcher = createDepositWatcher({
      db: db(),
      clock: t.clock,
      chain: counting,
      handleChainDeposit: (deposit, trx) => services().orderNotifications.handleChainDeposit(deposit, trx),
      instruments: [{ allWatched: standing.allWatched, watched: standing.watched, handle: (deposit, trx) => standing.handleDeposit(deposit, trx) }],
      settings: { batchSize: 0, lateWatchMs: 3_600_000 },
    });
    return { watcher, listed };
  }

  async function send(owner: string, units: bigint) {
    const { wire, signature } = await buildTransfer(rpc, { payer: sender, mint: usdc, to: address(owner), amount: units });
    await rpc.sendTransaction(wire as never, { encoding: 'base64', skipPreflight: true }).send();
    sim.advanceSlots(FINALIZED_LAG + 1);
    return signature as string;
  }

  async function sweepAll(depositAddress: string, count: number) {
    for (let i = 0; i < 40; i++) {
      await services().sweeper!.runPass();
      const rows = await sweepsAt(depositAddress);
      // One transaction at a time moves tokens out of the account.
      expect(rows.filter((r) => r.status === 'PENDING').length).toBeLessThanOrEqual(1);
      if (rows.length === count && rows.every((r) => r.status !== 'PENDING')) return rows;
      sim.advanceSlots(1);
    }
    throw new Error('sweeps still PENDING');
  }

  it('three deposits: found by balance, three PAYOUTs, three sweeps (costs against each PAYOUT, account kept open); a held one stays; a fourth after is swept too', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const made = (await t.call('POST', `/receivers/${receiver.id}/standing-addresses`, merchant, {})).json() as Json;
    const depositAddress = made.depositAddress as string;
    const account = await ata(address(depositAddress), usdc);
    const { watcher, listed } = countingWatcher();

    // Nothing moved: its balance read, no signature listed.
    const quiet = await watcher.runPass();
    expect(quiet.balancesRead).toBeGreaterThanOrEqual(1);
    expect(listed).not.toContain(account);

    const signatures: string[] = [];
    for (const units of [10_000_000n, 20_000_000n, 30_000_000n]) {
      signatures.push(await send(depositAddress, units));
      listed.length = 0;
      expect((await watcher.runPass()).deposits).toBe(1);
      expect(listed.filter((a) => a === account)).toHaveLength(1);
    }
    listed.length = 0;
    await watcher.runPass();
    expect(listed).not.toContain(account);
    expect(await services().standingDeposits.runPass()).toBe(3);
    const orders = await db().selectFrom('orders').select(['id', 'status', 'tx_hash', 'amount_token', 'source_kind', 'source_id']).where('source_id', '=', made.id as string).orderBy('amount_token').execute();
    expect(orders.map((o) => [o.status, o.tx_hash, decimal(o.amount_token).toFixed(), o.source_kind])).toEqual([
      ['DEPOSIT_RECEIVED', signatures[0], '10', 'STANDING_DEPOSIT_ADDRESS'],
      ['DEPOSIT_RECEIVED', signatures[1], '20', 'STANDING_DEPOSIT_ADDRESS'],
      ['DEPOSIT_RECEIVED', signatures[2], '30', 'STANDING_DEPOSIT_ADDRESS'],
    ]);
    // Below the minimum order: held for review, never in the books, never swept.
    const heldSignature = await send(depositAddress, 10_000n);
    await watcher.runPass();
    await services().standingDeposits.runPass();
    expect(await db().selectFrom('standing_address_deposits').select('status').where('signature', '=', heldSignature).executeTakeFirstOrThrow()).toEqual({ status: 'HELD_BELOW_MINIMUM' });

    const inFlight = await services().treasury.reconcile();
    expect(inFlight!.driftFound).toBe(false);
    expect(inFlight!.currencies.find((c) => c.currency === 'USDC')).toMatchObject({ drift: '-60', inFlightAmount: '60' });
    const before = BigInt(await tokenBalance(treasury));
    const sent = sim.state().transactions.sent;
    const sweeps = await sweepAll(depositAddress, 3);
    expect(sim.state().transactions.sent - sent).toBe(3);
    // Each deposit its own sweep, against its own PAYOUT (the deposits were seen at one test-clock instant: any order).
    const byDeposit = (rows: unknown[][]) => rows.map((r) => JSON.stringify(r)).sort();
    expect(byDeposit(sweeps.map((s) => [s.status, s.standing_deposit_signature, s.order_id, s.closes, s.rent_lamports]))).toEqual(
      byDeposit(orders.map((o) => ['DONE', o.tx_hash, o.id, false, '0'])),
    );
    expect(BigInt(await tokenBalance(treasury)) - before).toBe(60_000_000n);
    expect(await tokenBalance(address(depositAddress))).toBe('10000');

    for (const sweep of sweeps) {
      const tx = await rpc.getTransaction(sweep.tx_hash as Signature, { commitment: 'finalized', encoding: 'json', maxSupportedTransactionVersion: 0 }).send();
      expect(tx!.transaction.message.accountKeys[0]).toBe(sponsor);
      const postings = await sql<{ code: string; reference_type: string }>`
        select a.code, e.reference_type from ledger_entries e join ledger_postings p on p.entry_id = e.id join ledger_accounts a on a.id = p.account_id
        where e.reference_id = ${sweep.order_id} and e.kind = 'SWEEP_COSTS' order by a.code`.execute(db());
      expect(postings.rows).toEqual([{ code: 'network_fees', reference_type: 'order' }, { code: 'sponsor_sol', reference_type: 'order' }]);
    }
    await services().sweeper!.runPass();
    expect(sim.state().transactions.sent - sent).toBe(3);
    const swept = await services().treasury.reconcile();
    expect(swept!.driftFound).toBe(false);
    expect(swept!.currencies.find((c) => c.currency === 'USDC')).toMatchObject({ drift: '0', inFlightAmount: '0' });

    // The sweeps forgot the balance: read once by signatures, then quiet again.
    listed.length = 0;
    await watcher.runPass();
    expect(listed).toContain(account);
    listed.length = 0;
    await watcher.runPass();
    expect(listed).not.toContain(account);

    // The account stayed open: a fourth deposit is credited and swept the same way.
    const fourth = await send(depositAddress, 5_000_000n);
    expect((await watcher.runPass()).deposits).toBe(1);
    expect(await services().standingDeposits.runPass()).toBe(1);
    const all = await sweepAll(depositAddress, 4);
    expect(all.find((s) => s.standing_deposit_signature === fourth)).toMatchObject({ status: 'DONE', closes: false });
    expect(await tokenBalance(address(depositAddress))).toBe('10000');
  });
});
