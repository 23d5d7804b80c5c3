/**
 * The treasury's address lookup tables (decision 0056) against the chain simulator, the service as
 * configured for a real chain: the receivers' token accounts of a first round of batched PAYINs
 * are appended to a table the lookup-tables job creates (stored, sent, settled at finalized, its
 * fee and rent in the books to the lamport); a second round to the same receivers loads them from
 * the table, so 18 transfers fit ONE transaction where they took two without it, every order
 * exactly once at its (batch, instruction index); an extension stored and never sent (the process
 * died) is sent by the next pass and settled once; the reconciliation finds no drift, an extension
 * landed and not yet posted included; GET /admin/treasury shows the tables and the rent they hold;
 * an extension that never lands is settled EXPIRED, counted, and its addresses go into the next.
 */
import { type Address, generateKeyPairSigner, type Signature } from '@solana/kit';
import { sql } from 'kysely';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLookupTableIndex } from '../../../src/adapters/chain/lookup-table-index.ts';
import { createSolanaLookupTables } from '../../../src/adapters/chain/solana-lookup-tables.ts';
import { decimal } from '../../../src/lib/money.ts';
import { createLookupTableKeeper } from '../../../src/modules/lookup-tables/keeper.ts';
import { lookupTableMetrics } from '../../../src/modules/lookup-tables/metrics.ts';
import { ordersRepo } from '../../../src/modules/orders/repo.ts';
import { lookupTableExtensionMaxSol } from '../../../src/modules/treasury/rules.ts';
import type { ChainSimulator } from '../../../tools/chain-simulator/index.ts';
import { ADMIN_TOKEN } from '../../helpers/app.ts';
import { ata, fundTreasury, passesUntil, type Rpc, solanaRpcSettings, startHandClockedChain } from '../../helpers/chain-simulator.ts';
import { ordersTest } from '../orders/helpers.ts';

const FINALIZED_LAG = 3;
const ORDERS = 18;

describe('lookup tables of the treasury on the chain simulator', () => {
  let sim: ChainSimulator;
  let rpc: Rpc;
  let usdc: Address;
  let treasury: Address;

  beforeAll(async () => {
    ({ sim, rpc, usdc } = await startHandClockedChain(FINALIZED_LAG));
  });
  afterAll(() => sim?.close());

  const t = ordersTest(() => ({ ...solanaRpcSettings(sim.url, usdc), CHAIN_TRANSFER_BATCH_MAX: '20' }));
  const db = () => t.ctx.database.db;
  const keeper = () => t.ctx.app.services.lookupTables!;

  beforeAll(async () => {
    treasury = await fundTreasury(sim, t.ctx.app.services, usdc);
  });

  const lamports = async () => BigInt((await rpc.getBalance(treasury).send()).value);
  let merchant: Awaited<ReturnType<typeof t.merchant>>;
  let receivers: Array<{ id: string; wallet: Address }>;

  async function paidPayins() {
    const ids: string[] = [];
    for (const [i, receiver] of receivers.entries()) {
      const order = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 20 + i });
      expect((await t.call('POST', `/sandbox/orders/${order.id}/pix-payment`, merchant, {})).statusCode).toBe(200);
      ids.push(order.id as string);
    }
    return ids;
  }

  /** The lookup-tables job's passes until no extension is in flight (slots moving to finalize it). */
  async function keep(run: () => Promise<unknown> = () => keeper().run()) {
    for (let i = 0; i < 20; i++) {
      await run();
      const pending = await db().selectFrom('chain_lookup_table_extensions').select('id').where('status', '=', 'PENDING').executeTakeFirst();
      if (!pending) return;
      sim.advanceSlots(1);
    }
    throw new Error('an extension still in flight');
  }

  const batchesOf = async (ids: string[]) =>
    db().selectFrom('order_transactions').select(['order_id', 'tx_hash', 'instruction_index']).where('order_id', 'in', ids).where('type', '=', 'CHAIN_TRANSFER').execute();

  /** LOOKUP_TABLE_COSTS the books took from token_treasury, lamports. */
  async function bookedTableLamports() {
    const result = await sql<{ amount: string }>`
      select coalesce(sum(p.amount), 0)::text as amount
      from ledger_entries e join ledger_postings p on p.entry_id = e.id join ledger_accounts a on a.id = p.account_id
      where e.kind = 'LOOKUP_TABLE_COSTS' and p.currency = 'SOL' and a.code = 'token_treasury'`.execute(db());
    return BigInt(decimal(result.rows[0]!.amount).negated().times(1e9).toFixed(0));
  }

  it('appends the token accounts a first round carried to a new table: stored, sent, settled at finalized, paid in the books', async () => {
    merchant = await t.merchant();
    receivers = [];
    for (let i = 0; i < ORDERS; i++) {
      const wallet = (await generateKeyPairSigner()).address;
      receivers.push({ id: (await t.activeReceiver(merchant, { walletAddress: wallet })).id as string, wallet });
    }
    await passesUntil(t, sim, await paidPayins());

    const before = await lamports();
    await keeper().run();
    const [stored] = await db().selectFrom('chain_lookup_table_extensions').selectAll().execute();
    expect(stored).toMatchObject({ status: 'PENDING', creates: true });
    const accounts = await Promise.all(receivers.map((r) => ata(r.wallet, usdc)));
    expect([...stored!.addresses].sort()).toEqual([...accounts].sort());
    // Not usable before the chain finalized it.
    expect(await db().selectFrom('chain_lookup_tables').selectAll().execute()).toEqual([]);
    // Landed, not finalized: the treasury's SOL is down, the books' not yet; the reconciliation
    // counts the extension in flight (at most its fee and the rent of its bytes) and finds no drift.
    sim.advanceSlots(1);
    const landed = await t.ctx.app.services.treasury.reconcile();
    expect(landed?.driftFound).toBe(false);
    expect(decimal(landed!.currencies.find((c) => c.currency === 'SOL')!.drift).isNegative()).toBe(true);

    await keep();
    const tables = await db().selectFrom('chain_lookup_tables').selectAll().execute();
    expect(tables).toEqual([expect.objectContaining({ address: stored!.table_address, authority: treasury, addresses: stored!.addresses })]);
    expect((await db().selectFrom('chain_lookup_table_extensions').select('status').execute()).map((r) => r.status)).toEqual(['CONFIRMED']);
    const spent = before - (await lamports());
    expect(await bookedTableLamports()).toBe(spent);
    // Exactly the bound the reconciliation allowed: one signature and the rent of the table's bytes.
    expect(decimal(lookupTableExtensionMaxSol({ creates: true, addresses: ORDERS })).times(1e9).toFixed(0)).toBe(spent.toString());
  }, 120_000);

  it('a second round to the same receivers loads their accounts from the table: 18 transfers in one transaction', async () => {
    await keeper().run(); // gives the preparer the table as finalized
    const table = (await db().selectFrom('chain_lookup_tables').select('address').executeTakeFirstOrThrow()).address;
    const ids = await paidPayins();
    const before = await lamports();
    await passesUntil(t, sim, ids);
    const rows = await batchesOf(ids);
    expect(new Set(rows.map((r) => r.tx_hash)).size).toBe(1);
    const tx = (await rpc.getTransaction(rows[0]!.tx_hash! as Signature, { commitment: 'finalized', encoding: 'json', maxSupportedTransactionVersion: 0 }).send())!;
    expect('addressTableLookups' in tx.transaction.message && tx.transaction.message.addressTableLookups?.map((l) => l.accountKey)).toEqual([table]);
    const keys = [...tx.transaction.message.accountKeys, ...tx.meta!.loadedAddresses!.writable, ...tx.meta!.loadedAddresses!.readonly];
    for (const r of rows) {
      const order = (await ordersRepo.find(db(), r.order_id))!;
      const receiver = receivers.find((x) => x.id === order.receiver_id)!;
      // The order's own TransferChecked, to its receiver's token account loaded from the table.
      expect(keys[tx.transaction.message.instructions[r.instruction_index!]!.accounts[2]!]).toBe(await ata(receiver.wallet, usdc));
    }
    const spent = before - (await lamports());
    // One signature's fee (and its priority), no rent: every account existed.
    expect(spent).toBeLessThan(10_000n);
  }, 120_000);

  it('an extension stored and never sent (the process died) is sent by the next pass and settled once', async () => {
    const signer = t.ctx.app.services.platformKeysAtStart.signers.TREASURY;
    const chain = createSolanaLookupTables({ settings: { rpcUrl: sim.url }, treasury: signer });
    const index = createLookupTableIndex();
    const fresh = await Promise.all(Array.from({ length: 3 }, async () => ata((await generateKeyPairSigner()).address, usdc)));
    index.noteCarried(fresh);
    const postCosts = t.ctx.app.services.ledger.postLookupTableCosts;
    const dying = createLookupTableKeeper({ db: db(), clock: t.clock, chain: { ...chain, sendExtension: () => Promise.reject(new Error('killed before the send')) }, index, postCosts });
    await expect(dying.run()).rejects.toThrow('killed before the send');
    const stored = await db().selectFrom('chain_lookup_table_extensions').selectAll().where('status', '=', 'PENDING').executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ creates: false, addresses: fresh });

    const before = await lamports();
    const booked = await bookedTableLamports();
    // Two passes at once, then more: the stored bytes sent, the extension settled and paid once.
    const restarted = createLookupTableKeeper({ db: db(), clock: t.clock, chain, index, postCosts });
    await keep(async () => void (await Promise.all([restarted.run(), restarted.run()])));
    expect((await db().selectFrom('chain_lookup_table_extensions').select('status').where('id', '=', stored.id).executeTakeFirstOrThrow()).status).toBe('CONFIRMED');
    const table = await db().selectFrom('chain_lookup_tables').select('addresses').where('address', '=', stored.table_address).executeTakeFirstOrThrow();
    expect(table.addresses.slice(-3)).toEqual(fresh);
    expect(table.addresses).toHaveLength(ORDERS + 3);
    expect((await bookedTableLamports()) - booked).toBe(before - (await lamports()));
  }, 60_000);

  it('after all of it, the treasury reconciliation finds no drift; the operators see the tables and the rent they hold', async () => {
    expect(await t.ctx.app.services.treasury.reconcile()).toMatchObject({ address: treasury, inFlightTransfers: 0, driftFound: false });
    const response = await t.ctx.app.inject({ method: 'GET', url: '/api/v1/admin/treasury', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(response.statusCode).toBe(200);
    // The rent of the table's 184 bytes of header and overhead, and of its 21 addresses.
    const rent = (184n + 32n * 21n) * 6_960n;
    expect(response.json().lookupTables).toEqual({ tables: 1, addresses: ORDERS + 3, rentHeld: decimal(rent.toString()).dividedBy(1e9).toFixed(9), extensionInFlight: false });
  });

  it('an extension that never lands is settled EXPIRED once and counted so; its addresses go into the next, which lands', async () => {
    const chain = createSolanaLookupTables({ settings: { rpcUrl: sim.url }, treasury: t.ctx.app.services.platformKeysAtStart.signers.TREASURY });
    const index = createLookupTableIndex();
    const fresh = await Promise.all(Array.from({ length: 2 }, async () => ata((await generateKeyPairSigner()).address, usdc)));
    index.noteCarried(fresh);
    const registry = new Registry();
    const keeper = createLookupTableKeeper({ db: db(), clock: t.clock, chain, index, postCosts: t.ctx.app.services.ledger.postLookupTableCosts, metrics: lookupTableMetrics(registry) });
    const count = async (outcome: string) => Number(new RegExp(`chain_lookup_table_extensions_total\\{outcome="${outcome}"\\} (\\d+)`).exec(await registry.metrics())?.[1] ?? 0);

    // The node drops its one send; past its blockhash's last valid height it can never land.
    await sim.setFaults({ dropNext: 1 });
    await keeper.run();
    const dropped = await db().selectFrom('chain_lookup_table_extensions').select(['id', 'status']).where('status', '=', 'PENDING').executeTakeFirstOrThrow();
    sim.advanceSlots(160);
    await keeper.run();
    await keeper.run();
    expect((await db().selectFrom('chain_lookup_table_extensions').select('status').where('id', '=', dropped.id).executeTakeFirstOrThrow()).status).toBe('EXPIRED');
    expect(await count('EXPIRED')).toBe(1);

    await keep(() => keeper.run());
    expect(await count('CONFIRMED')).toBe(1);
    const tables = await db().selectFrom('chain_lookup_tables').select('addresses').execute();
    expect(tables.flatMap((table) => table.addresses)).toEqual(expect.arrayContaining(fresh));
  });
});
