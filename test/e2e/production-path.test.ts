/**
 * Issue 27's must-show: the whole production path with the sandbox routes off. PIX_PROVIDER=api-pix
 * against the PSP simulator and CHAIN_PROVIDER=solana-rpc against the chain simulator, each in its
 * own process. The receiver's KYC is an operator's decision; a PAYIN is paid at the PSP; a PAYOUT is
 * funded by a real SPL transfer from a test wallet, built and sent with @solana/kit, found by the
 * deposit watcher, paid out by PIX at the PSP simulator, and swept into the treasury. At the end
 * the books' treasury equals the treasury on chain, in SOL and in USDC.
 */
import { address, type Address, type Base64EncodedWireTransaction, generateKeyPairSigner } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/http/metrics.ts';
import { createWorkerJobs } from '../../src/jobs.ts';
import { decimal } from '../../src/lib/money.ts';
import { ADMIN_TOKEN, type TestContext, type TestMerchant, createTestContext } from '../helpers/app.ts';
import { ata, buildTransfer, type Rpc } from '../helpers/chain-simulator.ts';
import { randomCpf } from '../helpers/documents.ts';
import { freePort } from '../helpers/processes.ts';
import { type ProductionPath, postJson, startProductionPath } from '../helpers/production-path.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const TOKEN = 'e2e-production-webhook-token-0123456789abc';
const HEADER = { 'x-webhook-secret': 'e2e-production-header-secret-0123456789abcd' };
const ADMIN = { authorization: `Bearer ${ADMIN_TOKEN}` };


describe('the production path with no sandbox route: a PAYIN and a PAYOUT on the PSP and chain simulators', () => {
  let world: ProductionPath;
  let psp: ProductionPath['psp'];
  let chain: ProductionPath['chain'];
  let rpc: Rpc;
  let usdc: Address;
  let ctx: TestContext;
  let merchant: TestMerchant;
  let receiver: Json;

  const pspState = () => world.pspState();
  const call = (method: 'GET' | 'POST', url: string, payload?: object, headers = merchant.headers) =>
    ctx.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  const jobs = () => Object.fromEntries(createWorkerJobs(ctx.app.services, ctx.config, createMetrics()).map((job) => [job.name, job]));
  const runJob = async (name: string) => {
    const job = jobs()[name];
    expect(job, `worker job ${name}`).toBeDefined();
    await job!.run(new AbortController().signal);
  };

  beforeAll(async () => {
    world = await startProductionPath({ token: TOKEN, headerSecret: HEADER['x-webhook-secret'] });
    ({ psp, chain, rpc, usdc } = world);
    const port = await freePort();
    ctx = await createTestContext({ ...world.env(port), SANDBOX_ENABLED: 'false' });
    await ctx.app.listen({ port, host: '127.0.0.1' });
    merchant = await ctx.createMerchant('Loja Produção');
    await ctx.app.services.reconciliation.runPass();

    // The platform's keys funded on chain (the sponsor pays the sweeps' fees), the treasury's in the books too.
    const { TREASURY, SPONSOR } = ctx.app.services.platformKeysAtStart.signers;
    const airdrop = await postJson(`${chain.ready.adminUrl}/airdrop`, { address: TREASURY.address, lamports: 2_000_000_000 });
    await postJson(`${chain.ready.adminUrl}/airdrop`, { address: SPONSOR.address, lamports: 1_000_000_000 });
    await postJson(`${chain.ready.adminUrl}/mint-to`, { mint: usdc, owner: TREASURY.address, amount: '100000000' });
    for (const funding of [
      { currency: 'SOL', amount: '2', reference: airdrop.signature },
      { currency: 'USDC', amount: '100', reference: `mint-to-${usdc}` },
    ]) {
      expect((await call('POST', '/admin/treasury/fundings', funding, ADMIN)).statusCode).toBe(201);
    }

    // KYC decided by an operator: the sandbox's shortcut is off.
    const wallet = (await generateKeyPairSigner()).address;
    receiver = (await call('POST', '/receivers', { type: 'PF', document: randomCpf(), name: 'Joana Souza', email: 'joana@example.com', walletAddress: wallet, limits: { nightTransactionsEnabled: true } })).json() as Json;
    const submitted = await call('POST', `/receivers/${receiver.id}/kyc`, { birthDate: '1990-04-12', documents: [{ type: 'ID_FRONT', reference: 's3://kyc/joana/id.jpg' }, { type: 'SELFIE', reference: 's3://kyc/joana/selfie.jpg' }] });
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect((await call('POST', `/admin/receivers/${receiver.id}/kyc/start-review`, undefined, ADMIN)).statusCode).toBe(200);
    expect((await call('POST', `/admin/receivers/${receiver.id}/kyc/approve`, undefined, ADMIN)).json()).toMatchObject({ status: 'ACTIVE', kycStatus: 'APPROVED' });
  }, 60_000);

  afterAll(async () => {
    await ctx?.close();
    world?.stop();
  });

  it('has no sandbox route', async () => {
    expect((await call('POST', `/sandbox/receivers/${receiver.id}/kyc`, { decision: 'APPROVE' })).statusCode).toBe(404);
  });

  it('a PAYIN paid at the PSP ends COMPLETED with its tokens on chain', async () => {
    const order = (await call('POST', '/payin', { receiverId: receiver.id, amountBrl: 20 })).json() as Json;
    await postJson(`${psp.ready.controlUrl}/control/pay`, { pixCopiaECola: order.pixPaymentCode });
    const completed = await driveUntil(order.id, 'COMPLETED');
    const balance = (await rpc.getTokenAccountBalance(await ata(address(receiver.walletAddress), usdc)).send()).value;
    expect(decimal(balance.amount).eq(decimal(String(completed.amountCrypto)).times(1e6))).toBe(true);
  });

  it('two PIX paid to one standing charge make two PAYINs, each COMPLETED with its transfer (issue 43)', async () => {
    const created = await call('POST', `/receivers/${receiver.id}/standing-charges`, {});
    expect(created.statusCode, created.body).toBe(201);
    const charge = created.json() as Json;
    const paid: Json[] = [];
    for (const valor of ['12.00', '7.50']) paid.push(await postJson(`${psp.ready.controlUrl}/control/pay-static`, { pixCopiaECola: charge.pixCopiaECola, valor }));
    await postJson(`${psp.ready.controlUrl}/control/idle`, {});
    const made = await ctx.database.db.selectFrom('orders').select(['id', 'pix_end_to_end_id']).where('source_id', '=', charge.id).execute();
    expect(made.map((o) => o.pix_end_to_end_id).sort()).toEqual(paid.map((p) => p.endToEndId).sort());
    for (const order of made) {
      expect(await driveUntil(order.id, 'COMPLETED')).toMatchObject({ type: 'PAYIN', destinationWallet: receiver.walletAddress });
      const transfers = await ctx.database.db.selectFrom('order_transactions').select('status').where('order_id', '=', order.id).where('type', '=', 'CHAIN_TRANSFER').execute();
      expect(transfers.map((t) => t.status)).toContain('CONFIRMED');
    }
  });

  it('a PAYOUT funded by a real SPL transfer ends COMPLETED: the PIX made at the PSP, the deposit swept into the treasury', async () => {
    const created = await call('POST', '/payout', { receiverId: receiver.id, amountCrypto: '1.5', sourceToken: 'USDC' });
    expect(created.statusCode, created.body).toBe(201);
    const order = created.json() as Json;
    const depositor = await generateKeyPairSigner();
    await postJson(`${chain.ready.adminUrl}/airdrop`, { address: depositor.address, lamports: 100_000_000 });
    await postJson(`${chain.ready.adminUrl}/mint-to`, { mint: usdc, owner: depositor.address, amount: '1500000' });
    const { wire } = await buildTransfer(rpc, { payer: depositor, mint: usdc, to: address(order.depositAddress), amount: 1_500_000n });
    await rpc.sendTransaction(wire as Base64EncodedWireTransaction, { encoding: 'base64' }).send();

    const sentBefore = Object.keys((await pspState()).sent).length;
    const completed = await driveUntil(order.id, 'COMPLETED', ['deposit-watcher']);
    expect((completed.transactions as Json[]).map((t) => [t.type, t.status])).toEqual(expect.arrayContaining([['PIX_OUT', 'CONFIRMED']]));
    expect(Object.keys((await pspState()).sent).length).toBe(sentBefore + 1);

    // The deposit swept into the treasury, once: the deposit's token account emptied and closed.
    const deadline = Date.now() + 20_000;
    let sweep;
    do {
      await runJob('deposit-sweeps');
      sweep = await ctx.database.db.selectFrom('deposit_sweeps').select(['status', 'tx_hash', 'amount']).where('order_id', '=', order.id).executeTakeFirst();
      if (sweep?.status !== 'DONE') await new Promise((resolve) => setTimeout(resolve, 50));
    } while (sweep?.status !== 'DONE' && Date.now() < deadline);
    expect(sweep).toMatchObject({ status: 'DONE' });
    expect(decimal(sweep!.amount).eq('1.5')).toBe(true);
    const depositAccount = await ata(address(order.depositAddress), usdc);
    expect((await rpc.getAccountInfo(depositAccount, { encoding: 'base64', commitment: 'finalized' }).send()).value).toBeNull();

    // The books' treasury is the chain's, in SOL and USDC, and the reconciliation finds no drift.
    await runJob('treasury-reconciliation');
    const overview = (await call('GET', '/admin/treasury', undefined, ADMIN)).json() as Json;
    const now = Object.fromEntries((overview.currencies as Json[]).map((c) => [c.currency, c]));
    for (const currency of ['SOL', 'USDC']) expect(decimal(now[currency].onChain).eq(decimal(now[currency].ledger)), `${currency}: ${JSON.stringify(now[currency])}`).toBe(true);
    expect(overview.lastReconciliation).toMatchObject({ driftFound: false });
  });

  /** The worker's jobs on the real clock (the slots pass on the simulator's), until `status`. */
  async function driveUntil(id: string, status: string, alsoRun: string[] = []): Promise<Json> {
    const deadline = Date.now() + 20_000;
    let current: Json = {};
    while (Date.now() < deadline) {
      for (const name of alsoRun) await runJob(name);
      await ctx.app.services.orderSteps.runDuePass();
      current = (await call('GET', `/orders/${id}`)).json() as Json;
      if (current.status === status) return current;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`order ${id} is ${current.status}, not ${status}`);
  }
});
