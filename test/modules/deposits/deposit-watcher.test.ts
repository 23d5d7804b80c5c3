/**
 * PAYOUT deposits on the chain simulator (CHAIN_PROVIDER=solana-rpc): each order gets a fresh
 * sealed deposit address, a test wallet pays it with a real SPL transferChecked (built with
 * @solana/kit), and the deposit watcher finds it at `finalized` and hands it to the orders'
 * rules. Policies: the exact amount goes on to COMPLETED (PIX out by the sandbox PSP); less is
 * re-priced; more is credited up to the order and the excess held; a second deposit and a late one
 * are recorded, not credited; another mint sent to the owner is never credited (recorded when the
 * address stops being watched). A watcher
 * restarted (a new instance) misses none and credits none twice.
 */
import { type Address, address, generateKeyPairSigner, type KeyPairSigner } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSolanaDeposits } from '../../../src/adapters/chain/solana-deposits.ts';
import { createMetrics } from '../../../src/http/metrics.ts';
import { createWorkerJobs } from '../../../src/jobs.ts';
import { depositReferenceOfKey } from '../../../src/modules/orders/creation/payout.ts';
import { depositsRepo } from '../../../src/modules/deposits/repo.ts';
import { createDepositWatcher } from '../../../src/modules/deposits/watcher.ts';
import { ordersRepo } from '../../../src/modules/orders/repo.ts';
import type { ChainSimulator } from '../../../tools/chain-simulator/index.ts';
import { ata, buildTransfer, type Rpc, solanaRpcSettings, fundedSender, startHandClockedChain } from '../../helpers/chain-simulator.ts';
import { type Json, ordersTest } from '../orders/helpers.ts';

const FINALIZED_LAG = 3;

describe('PAYOUT deposits on the chain simulator', () => {
  let sim: ChainSimulator;
  let rpc: Rpc;
  let usdc: Address;
  let other: Address;
  let sender: KeyPairSigner;

  beforeAll(async () => {
    // Slots move by hand: a fast clock that never races the assertions.
    ({ sim, rpc, usdc } = await startHandClockedChain(FINALIZED_LAG));
    other = address((await sim.createMint({ decimals: 6 })).mint);
    sender = await fundedSender(sim, usdc);
    await sim.mintTo({ mint: other, owner: sender.address, amount: 1_000_000_000_000n });
  });
  afterAll(() => sim?.close());

  const t = ordersTest(() => solanaRpcSettings(sim.url, usdc));
  const services = () => t.ctx.app.services;
  const watcher = () => services().depositWatcher!;
  const db = () => t.ctx.database.db;

  /** A real transfer of `units` (6 decimals) from the test wallet to the owner's associated token account, then finalized. */
  async function send(owner: string, units: bigint, mint: Address = usdc) {
    const { wire, signature } = await buildTransfer(rpc, { payer: sender, mint, to: address(owner), amount: units });
    await rpc.sendTransaction(wire as never, { encoding: 'base64', skipPreflight: true }).send();
    sim.advanceSlots(FINALIZED_LAG + 1);
    return signature as string;
  }

  async function payout(amountCrypto: number) {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const order = await t.payout(merchant, { receiverId: receiver.id, amountCrypto, sourceToken: 'USDC' });
    return { merchant, order };
  }
  const orderOf = async (order: Json) => (await ordersRepo.find(db(), order.id as string))!;
  const recorded = (order: Json) => depositsRepo.listOf(db(), order.depositAddress as string);

  it('gives each PAYOUT a fresh address, sealed, with the mint and its associated token account; the same reference answers the same address', async () => {
    const a = await payout(10);
    const b = await payout(10);
    expect(a.order.depositAddress).not.toBe(b.order.depositAddress);
    const row = await db().selectFrom('deposit_addresses').selectAll().where('owner_address', '=', a.order.depositAddress).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ reference: a.order.id, token: 'USDC', mint: usdc, token_account: await ata(address(a.order.depositAddress), usdc), key_version: 1 });
    expect(row.encrypted_private_key).not.toContain(a.order.depositAddress);
    // The sealed key opens to the address (kind deposit-address, bound to the reference).
    const { depositVault } = await import('../../../src/key-custody.ts').then((m) => m.createKeyCustody({ config: t.ctx.config, db: db(), clock: t.clock }));
    expect(depositVault.open(row.reference, { encryptedPrivateKey: row.encrypted_private_key, keyVersion: row.key_version }).address).toBe(a.order.depositAddress);
    expect(await services().depositAddresses!.create({ orderId: a.order.id, token: 'USDC' })).toEqual({ address: a.order.depositAddress });
  });

  it('an order created with an Idempotency-Key: its retry answers the same order and address, one key stored', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const body = { receiverId: receiver.id, amountCrypto: 10, sourceToken: 'USDC' };
    const first = await t.call('POST', '/payout', merchant, body, { 'Idempotency-Key': 'deposit-key-1' });
    const again = await t.call('POST', '/payout', merchant, body, { 'Idempotency-Key': 'deposit-key-1' });
    expect(first.statusCode, first.body).toBe(201);
    expect(again.json()).toMatchObject({ id: first.json().id, depositAddress: first.json().depositAddress });
    const reference = depositReferenceOfKey({ merchantId: merchant.merchantId, key: 'deposit-key-1' });
    const rows = await db().selectFrom('deposit_addresses').select(['reference', 'owner_address']).where('owner_address', '=', first.json().depositAddress).execute();
    expect(rows).toEqual([{ reference, owner_address: first.json().depositAddress }]);
  });

  it('the watcher is a worker job with CHAIN_PROVIDER=solana-rpc', () => {
    const names = createWorkerJobs(services(), t.ctx.config, createMetrics()).map((job) => job.name);
    expect(names).toContain('deposit-watcher');
  });

  it('the exact amount, a real SPL transfer: detected once final, DEPOSIT_RECEIVED, then COMPLETED by the sandbox PSP', async () => {
    const { order } = await payout(20);
    const signature = await send(order.depositAddress, 20_000_000n);
    await watcher().runPass();
    expect(await orderOf(order)).toMatchObject({ status: 'DEPOSIT_RECEIVED', tx_hash: signature });
    await t.drive();
    expect((await orderOf(order)).status).toBe('COMPLETED');
    expect((await recorded(order)).map((d) => [d.signature, d.outcome, Number(d.amount)])).toEqual([[signature, 'CREDITED', 20]]);
  });

  it('waits for finality: a deposit only confirmed is not read yet', async () => {
    const { order } = await payout(10);
    const { wire } = await buildTransfer(rpc, { payer: sender, mint: usdc, to: address(order.depositAddress), amount: 10_000_000n });
    await rpc.sendTransaction(wire as never, { encoding: 'base64', skipPreflight: true }).send();
    sim.advanceSlots(1);
    await watcher().runPass();
    expect((await orderOf(order)).status).toBe('AWAITING_DEPOSIT');
    sim.advanceSlots(FINALIZED_LAG);
    await watcher().runPass();
    expect((await orderOf(order)).status).toBe('DEPOSIT_RECEIVED');
  });

  it('under-payment is re-priced at the locked rate; over-payment credits the order and holds the excess', async () => {
    const under = await payout(100);
    const over = await payout(10);
    await send(under.order.depositAddress, 50_000_000n);
    await send(over.order.depositAddress, 12_500_000n);
    await watcher().runPass();
    expect(await orderOf(under.order)).toMatchObject({ status: 'DEPOSIT_RECEIVED', amount_token: '50.000000000', amount_brl: '270.00' });
    expect(await orderOf(over.order)).toMatchObject({ status: 'DEPOSIT_RECEIVED', amount_token: '10.000000000', excess_amount_token: '2.500000000' });
  });

  it('a second deposit is recorded as REPEATED, not credited; a late one (order expired) as LATE', async () => {
    const first = await payout(10);
    const late = await payout(10);
    await send(first.order.depositAddress, 10_000_000n);
    await watcher().runPass();
    const credited = await orderOf(first.order);
    const second = await send(first.order.depositAddress, 4_000_000n);
    t.clock.advance(3_700_000);
    await t.drive(1);
    expect((await orderOf(late.order)).status).toBe('EXPIRED');
    const lateSignature = await send(late.order.depositAddress, 10_000_000n);
    await watcher().runPass();
    expect((await orderOf(first.order)).tx_hash).toBe(credited.tx_hash);
    expect((await orderOf(first.order)).amount_token).toBe(credited.amount_token);
    expect((await recorded(first.order)).map((d) => [d.outcome, Number(d.amount)])).toEqual([
      ['CREDITED', 10],
      ['REPEATED', 4],
    ]);
    expect((await recorded(first.order))[1]!.signature).toBe(second);
    expect(await orderOf(late.order)).toMatchObject({ status: 'EXPIRED', tx_hash: null });
    expect((await recorded(late.order)).map((d) => [d.signature, d.outcome, Number(d.amount)])).toEqual([[lateSignature, 'LATE', 10]]);
  });

  it('a deposit is judged by its block time: landing at expiresAt it is LATE before the expiry pass runs; landing before, detected after, it is credited', async () => {
    const late = await payout(10);
    const onTime = await payout(10);
    const expiresAt = async (order: Json) => (await orderOf(order)).expires_at;
    const lateSignature = await send(late.order.depositAddress, 10_000_000n);
    const onTimeSignature = await send(onTime.order.depositAddress, 10_000_000n);
    // The simulator stamps blocks with the wall clock: the node here reports the times under test.
    const blockTimes = new Map([
      [lateSignature, await expiresAt(late.order)],
      [onTimeSignature, new Date((await expiresAt(onTime.order)).getTime() - 1000)],
    ]);
    const real = createSolanaDeposits({ rpcUrl: sim.url, commitment: 'finalized', tokenMints: { USDC: usdc } });
    const chain = { ...real, signaturesAfter: async (account: string, after: string | null) => (await real.signaturesAfter(account, after)).map((s) => ({ ...s, blockTime: blockTimes.get(s.signature) ?? s.blockTime })) };
    // Both detected after both expiries, the expiry pass not run (no t.drive).
    t.clock.set(new Date(Math.max((await expiresAt(late.order)).getTime(), (await expiresAt(onTime.order)).getTime()) + 60_000));
    await createDepositWatcher({
      db: db(),
      clock: t.clock,
      chain,
      handleChainDeposit: (deposit, trx) => services().orderNotifications.handleChainDeposit(deposit, trx),
      settings: { batchSize: 1000, lateWatchMs: 3_600_000 },
    }).runPass();
    expect(await orderOf(late.order)).toMatchObject({ status: 'EXPIRED', tx_hash: null });
    expect((await recorded(late.order)).map((d) => [d.signature, d.outcome])).toEqual([[lateSignature, 'LATE']]);
    expect(await orderOf(onTime.order)).toMatchObject({ status: 'DEPOSIT_RECEIVED', tx_hash: onTimeSignature });
    expect((await recorded(onTime.order)).map((d) => d.outcome)).toEqual(['CREDITED']);
  });

  it('another mint sent to the owner lands in another token account: never credited, recorded once the address is no longer watched', async () => {
    const { order } = await payout(10);
    const signature = await send(order.depositAddress, 7_000_000n, other);
    await watcher().runPass();
    expect((await orderOf(order)).status).toBe('AWAITING_DEPOSIT');
    expect(await recorded(order)).toEqual([]);
    // Expired, then past CHAIN_DEPOSIT_LATE_WATCH_HOURS (72): the owner's other token accounts are read, once.
    t.clock.advance(3_600_000 + 72 * 3_600_000 + 1000);
    await t.drive(1);
    expect((await orderOf(order)).status).toBe('EXPIRED');
    await watcher().runPass();
    await watcher().runPass();
    expect((await recorded(order)).map((d) => [d.signature, d.outcome, d.token, Number(d.amount), d.order_id])).toEqual([[signature, 'WRONG_MINT', other, 7, order.id]]);
  });

  it('a watcher restarted (a new instance) misses no deposit and credits none twice', async () => {
    const a = await payout(10);
    const b = await payout(10);
    await send(a.order.depositAddress, 10_000_000n);
    await watcher().runPass();
    // Deposits made while no watcher runs; then a new watcher, as after a restart, runs twice.
    await send(b.order.depositAddress, 10_000_000n);
    await send(a.order.depositAddress, 1_000_000n);
    const restarted = () =>
      createDepositWatcher({
        db: db(),
        clock: t.clock,
        chain: createSolanaDeposits({ rpcUrl: sim.url, commitment: 'finalized', tokenMints: { USDC: usdc } }),
        handleChainDeposit: (deposit, trx) => services().orderNotifications.handleChainDeposit(deposit, trx),
        settings: { batchSize: 1000, lateWatchMs: 3_600_000 },
      });
    await restarted().runPass();
    // A cursor lost (a crash between the node's answer and the commit is the same): the records hold.
    await db().updateTable('deposit_addresses').set({ last_signature: null }).where('owner_address', 'in', [a.order.depositAddress, b.order.depositAddress]).execute();
    await restarted().runPass();
    expect((await orderOf(b.order)).status).toBe('DEPOSIT_RECEIVED');
    expect((await recorded(a.order)).map((d) => d.outcome)).toEqual(['CREDITED', 'REPEATED']);
    expect((await recorded(b.order)).map((d) => d.outcome)).toEqual(['CREDITED']);
    const ledger = await db().selectFrom('ledger_entries').select('kind').where('reference_id', 'in', [a.order.id, b.order.id]).execute();
    expect(ledger.filter((e) => e.kind === 'PAYOUT_DEPOSIT_RECEIVED')).toHaveLength(2);
  });

  it('a watcher killed inside its transaction (after the order took the deposit, before the commit): nothing stays, the next one credits it once', async () => {
    const { order } = await payout(10);
    const signature = await send(order.depositAddress, 10_000_000n);
    const chain = createSolanaDeposits({ rpcUrl: sim.url, commitment: 'finalized', tokenMints: { USDC: usdc } });
    const dying = createDepositWatcher({
      db: db(),
      clock: t.clock,
      chain,
      handleChainDeposit: async (deposit, trx) => {
        await services().orderNotifications.handleChainDeposit(deposit, trx);
        throw new Error('killed');
      },
      settings: { batchSize: 1000, lateWatchMs: 3_600_000 },
    });
    await dying.runPass();
    expect(await orderOf(order)).toMatchObject({ status: 'AWAITING_DEPOSIT', tx_hash: null });
    expect(await recorded(order)).toEqual([]);
    await watcher().runPass();
    expect(await orderOf(order)).toMatchObject({ status: 'DEPOSIT_RECEIVED', tx_hash: signature });
    expect((await recorded(order)).map((d) => d.outcome)).toEqual(['CREDITED']);
  });

  it('at scale: balances are read 100 accounts a call, and signatures listed only where a balance moved (plus the safety rotation)', async () => {
    const chain = createSolanaDeposits({ rpcUrl: sim.url, commitment: 'finalized', tokenMints: { USDC: usdc } });
    const { order } = await payout(10);
    const account = (await depositsRepo.addressOf(db(), order.id as string))!.token_account;
    const strangers = await Promise.all(Array.from({ length: 249 }, async () => (await generateKeyPairSigner()).address as string));
    const balanceReads = () => sim.state().calls.getMultipleAccounts ?? 0;
    const readsBefore = balanceReads();
    expect(await chain.balancesOf([...strangers, account])).toEqual([...strangers.map(() => null), null]);
    expect(balanceReads() - readsBefore).toBe(3);
    // Every other address settled first (their balances stored), then a rotation of 1 per pass.
    for (let i = 0; i < 3; i++) await watcher().runPass();
    const listed: string[] = [];
    const counting = { ...chain, signaturesAfter: (a: string, after: string | null) => (listed.push(a), chain.signaturesAfter(a, after)) };
    const lean = createDepositWatcher({ db: db(), clock: t.clock, chain: counting, handleChainDeposit: (deposit, trx) => services().orderNotifications.handleChainDeposit(deposit, trx), settings: { batchSize: 1, lateWatchMs: 3_600_000 } });
    const quiet = await lean.runPass();
    expect(quiet.balancesRead).toBeGreaterThanOrEqual(1);
    expect(listed).toHaveLength(1);
    listed.length = 0;
    const observed = async () => Number((await db().selectFrom('deposit_addresses').select('observed_amount').where('token_account', '=', account).executeTakeFirstOrThrow()).observed_amount);
    // Landed, not final: the simulator's account reads run ahead of the commitment, so the balance
    // moved but no final signature explains it; it is not stored, and the address is listed again.
    const { wire } = await buildTransfer(rpc, { payer: sender, mint: usdc, to: address(order.depositAddress as string), amount: 10_000_000n });
    await rpc.sendTransaction(wire as never, { encoding: 'base64', skipPreflight: true }).send();
    sim.advanceSlots(1);
    await lean.runPass();
    expect(listed).toContain(account);
    expect(await observed()).toBe(0);
    expect(await orderOf(order)).toMatchObject({ status: 'AWAITING_DEPOSIT' });
    listed.length = 0;
    sim.advanceSlots(FINALIZED_LAG + 1);
    await lean.runPass();
    expect(listed).toContain(account);
    expect(listed.length).toBeLessThanOrEqual(2);
    expect(await orderOf(order)).toMatchObject({ status: 'DEPOSIT_RECEIVED' });
    expect(await observed()).toBe(10_000_000);
    // A sweep forgets the balance: the next pass lists the signatures again, whatever the balance.
    await depositsRepo.forgetBalance(db(), order.depositAddress as string, t.clock.now());
    listed.length = 0;
    await lean.runPass();
    expect(listed).toContain(account);
    expect((await recorded(order)).map((d) => d.outcome)).toEqual(['CREDITED']);
  });

  it('backs off when the node fails, and resumes where it stopped', async () => {
    const { order } = await payout(10);
    await send(order.depositAddress, 10_000_000n);
    await sim.setFaults({ http: { status: 503, count: 2 } });
    const failed = await watcher().runPass();
    expect(failed.backedOff).toBe(true);
    expect(await watcher().runPass()).toMatchObject({ backedOff: true, scanned: 0 });
    t.clock.advance(60_000);
    for (let i = 0; i < 5 && (await orderOf(order)).status === 'AWAITING_DEPOSIT'; i++) {
      await watcher().runPass();
      t.clock.advance(60_000);
    }
    expect((await orderOf(order)).status).toBe('DEPOSIT_RECEIVED');
  });
});
