/**
 * Issue 26's first must-show, the production path end to end with no sandbox code in a PAYIN:
 * PIX_PROVIDER=api-pix against the PSP simulator and CHAIN_PROVIDER=solana-rpc against the chain
 * simulator, each in its own process as the README runs them. The treasury (the TREASURY platform
 * key) is funded through the simulator's admin API and the fundings recorded through the admin
 * API; a PAYIN paid at the PSP ends COMPLETED with the receiver's tokens on chain up by exactly
 * the order's amount (read with @solana/kit), the ledger's SOL fee and rent equal to what the chain
 * charged, and the treasury reconciliation finding no drift. A PAYIN the treasury cannot cover is
 * refused before the PSP has a charge. Runs on both drivers (the service is in this process).
 */
import { address, type Address, generateKeyPairSigner, type Signature } from '@solana/kit';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/http/metrics.ts';
import { createWorkerJobs } from '../../src/jobs.ts';
import { decimal } from '../../src/lib/money.ts';
import { ADMIN_TOKEN, type TestContext, type TestMerchant, createTestContext, expectErrorBody } from '../helpers/app.ts';
import { ata, type Rpc } from '../helpers/chain-simulator.ts';
import { randomCnpj } from '../helpers/documents.ts';
import { freePort } from '../helpers/processes.ts';
import { type ProductionPath, postJson, startProductionPath } from '../helpers/production-path.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const TOKEN = 'e2e-chain-webhook-token-0123456789abcdefgh';
const HEADER = { 'x-webhook-secret': 'e2e-chain-webhook-header-secret-0123456789ab' };
const ADMIN = { authorization: `Bearer ${ADMIN_TOKEN}` };
/** The treasury's opening balances: 2 SOL and 100 USDC (base units). */
const LAMPORTS = 2_000_000_000n;
const USDC_UNITS = 100_000_000n;
/** An SPL token account's size: its rent-exempt minimum is the rent of a receiver's new ATA. */
const TOKEN_ACCOUNT_BYTES = 165n;


describe('production path: api-pix (PSP simulator) and solana-rpc (chain simulator), a PAYIN end to end', () => {
  let world: ProductionPath;
  let psp: ProductionPath['psp'];
  let chain: ProductionPath['chain'];
  let rpc: Rpc;
  let usdc: Address;
  let treasury: Address;
  let ctx: TestContext;
  let merchant: TestMerchant;

  const pspState = () => world.pspState();
  const call = (method: 'GET' | 'POST', url: string, payload?: object, headers = merchant.headers) =>
    ctx.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    world = await startProductionPath({ token: TOKEN, headerSecret: HEADER['x-webhook-secret'] });
    ({ psp, chain, rpc, usdc } = world);
    const port = await freePort();
    ctx = await createTestContext({ ...world.env(port) });
    await ctx.app.listen({ port, host: '127.0.0.1' });
    merchant = await ctx.createMerchant('Loja Produção');
    // The worker's first PIX reconciliation pass registers our callback at the PSP.
    await ctx.app.services.reconciliation.runPass();
  }, 60_000);

  afterAll(async () => {
    await ctx?.close();
    world?.stop();
  });

  it("the treasury's address is the sealed TREASURY key's; funded on chain and in the books", async () => {
    const overview = await call('GET', '/admin/treasury', undefined, ADMIN);
    expect(overview.statusCode, overview.body).toBe(200);
    treasury = address(overview.json().address);
    expect(treasury).toBe(ctx.app.services.platformKeysAtStart.signers.TREASURY.address);
    expect(overview.json()).toMatchObject({ chain: 'solana-rpc', onChain: true });

    const { signature } = await postJson(`${chain.ready.adminUrl}/airdrop`, { address: treasury, lamports: Number(LAMPORTS) });
    await postJson(`${chain.ready.adminUrl}/mint-to`, { mint: usdc, owner: treasury, amount: USDC_UNITS.toString() });
    for (const funding of [
      { currency: 'SOL', amount: '2', reference: signature },
      { currency: 'USDC', amount: '100', reference: `mint-to-${usdc}`, note: 'opening balance' },
    ]) {
      const recorded = await call('POST', '/admin/treasury/fundings', funding, ADMIN);
      expect(recorded.statusCode, recorded.body).toBe(201);
    }
    const { currencies } = (await call('GET', '/admin/treasury', undefined, ADMIN)).json() as Json;
    const byCurrency = Object.fromEntries((currencies as Json[]).map((c) => [c.currency, c]));
    for (const currency of ['SOL', 'USDC']) expect(decimal(byCurrency[currency].drift).isZero(), currency).toBe(true);
    expect(decimal(byCurrency.USDC.onChain).eq(100)).toBe(true);
  });

  it('a PAYIN paid at the PSP ends COMPLETED: exactly its tokens on chain, its fee and rent in the books, no drift', async () => {
    const wallet = (await generateKeyPairSigner()).address;
    const receiver = (await call('POST', '/receivers', { type: 'PJ', document: randomCnpj(), name: 'Padaria Souza Ltda', email: 'joana@example.com', walletAddress: wallet })).json() as Json;
    await call('POST', `/sandbox/receivers/${receiver.id}/kyc`, { decision: 'APPROVE' });
    const created = await call('POST', '/payin', { receiverId: receiver.id, amountBrl: 20 });
    expect(created.statusCode, created.body).toBe(201);
    const order = created.json() as Json;

    await postJson(`${psp.ready.controlUrl}/control/pay`, { pixCopiaECola: order.pixPaymentCode });
    const completed = await driveUntil(order.id, 'COMPLETED');
    const transfer = (completed.transactions as Json[]).find((t) => t.type === 'CHAIN_TRANSFER')!;
    expect(transfer).toMatchObject({ status: 'CONFIRMED', currency: 'USDC' });
    const amount = decimal(String(completed.amountCrypto));

    // The receiver's tokens, read from the node as anyone would: up by exactly amountCrypto.
    const balance = (await rpc.getTokenAccountBalance(await ata(wallet, usdc)).send()).value;
    expect(balance.decimals).toBe(6);
    expect(decimal(balance.amount).eq(amount.times(1e6))).toBe(true);

    // What the chain charged the treasury, and what the ledger posted.
    const tx = await rpc.getTransaction(transfer.txHash as Signature, { commitment: 'finalized', encoding: 'json', maxSupportedTransactionVersion: 0 }).send();
    expect(tx!.transaction.message.accountKeys[0]).toBe(treasury);
    const fee = BigInt(tx!.meta!.fee);
    const rent = BigInt(tx!.meta!.preBalances[0]!) - BigInt(tx!.meta!.postBalances[0]!) - fee;
    expect(rent).toBe(await rpc.getMinimumBalanceForRentExemption(TOKEN_ACCOUNT_BYTES).send());
    const postings = await sql<{ code: string; amount: string }>`
      select a.code, p.amount::text as amount
      from ledger_entries e join ledger_postings p on p.entry_id = e.id join ledger_accounts a on a.id = p.account_id
      where e.reference_id = ${order.id} and e.kind = 'CHAIN_COSTS' and p.currency = 'SOL' order by a.code`.execute(ctx.database.db);
    const sol = (lamports: bigint) => decimal(lamports.toString()).dividedBy(1e9).toFixed(9);
    expect(postings.rows.map((p) => [p.code, decimal(p.amount).toFixed(9)])).toEqual([
      ['account_rent', sol(rent)],
      ['network_fees', sol(fee)],
      ['token_treasury', sol(-(fee + rent))],
    ]);

    // The worker's treasury-reconciliation job, one pass: no drift in SOL or USDC.
    const job = createWorkerJobs(ctx.app.services, ctx.config, createMetrics()).find((j) => j.name === 'treasury-reconciliation');
    await job!.run(new AbortController().signal);
    const overview = (await call('GET', '/admin/treasury', undefined, ADMIN)).json() as Json;
    expect(overview.lastReconciliation).toMatchObject({ inFlightTransfers: 0, driftFound: false });
    const run = Object.fromEntries((overview.lastReconciliation.currencies as Json[]).map((c) => [c.currency, c]));
    expect(Object.keys(run).sort()).toEqual(['SOL', 'USDC']);
    for (const currency of ['SOL', 'USDC']) expect(decimal(run[currency].drift).isZero(), currency).toBe(true);
    // GET /admin/treasury agrees, read from the node for its answer: the chain and the books.
    const now = Object.fromEntries((overview.currencies as Json[]).map((c) => [c.currency, c]));
    expect(overview.onChainSource).toBe('node');
    const paidLamports = LAMPORTS - fee - rent;
    expect(now.SOL.inFlightTransfers).toBe(0);
    expect([decimal(now.SOL.onChain).toFixed(9), decimal(now.SOL.ledger).toFixed(9)]).toEqual([sol(paidLamports), sol(paidLamports)]);
    expect(decimal(now.USDC.onChain).eq(decimal(100).minus(amount))).toBe(true);
    for (const currency of ['SOL', 'USDC']) expect(decimal(now[currency].drift).isZero(), currency).toBe(true);
  });

  it('a PAYIN the treasury cannot cover is refused 503 TREASURY_INSUFFICIENT_LIQUIDITY, and the PSP has no charge for it', async () => {
    const receiver = (await call('POST', '/receivers', { type: 'PJ', document: randomCnpj(), name: 'Mercado Grande Ltda', email: 'caixa@example.com', walletAddress: (await generateKeyPairSigner()).address })).json() as Json;
    await call('POST', `/sandbox/receivers/${receiver.id}/kyc`, { decision: 'APPROVE' });
    const charges = Object.keys((await pspState()).charges).length;
    expect(charges).toBeGreaterThan(0); // the first PAYIN's
    const orders = await ctx.database.db.selectFrom('orders').select(sql<string>`count(*)::text`.as('n')).executeTakeFirstOrThrow();
    // 1,000 BRL is about 185 USDC at 5.40: more than the treasury's 100.
    const refused = await call('POST', '/payin', { receiverId: receiver.id, amountBrl: 1000 });
    expect(expectErrorBody(refused, 503, 'TREASURY_INSUFFICIENT_LIQUIDITY').details).toEqual({ token: 'USDC' });
    expect(refused.body).not.toContain('onChain');
    expect(Object.keys((await pspState()).charges).length).toBe(charges);
    expect(await ctx.database.db.selectFrom('orders').select(sql<string>`count(*)::text`.as('n')).executeTakeFirstOrThrow()).toEqual(orders);
  });

  /** The worker's order steps on the real clock (the slots pass on the simulator's), until `status`. */
  async function driveUntil(id: string, status: string): Promise<Json> {
    const deadline = Date.now() + 20_000;
    let current: Json = {};
    while (Date.now() < deadline) {
      await ctx.app.services.orderSteps.runDuePass();
      current = (await call('GET', `/orders/${id}`)).json() as Json;
      if (current.status === status) return current;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`order ${id} is ${current.status}, not ${status}`);
  }
});
