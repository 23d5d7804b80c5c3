/**
 * Issue 43's must-show for item 4: a partner markup visible in the quote, the order, the ledger
 * and the settlement, on the production path with the sandbox routes off (PIX_PROVIDER=api-pix
 * against the PSP simulator, CHAIN_PROVIDER=solana-rpc against the chain simulator), for a PAYIN
 * and a PAYOUT. The PAYIN's receiver gets on chain exactly the tokens the quote promised after
 * fees and markup; the PAYOUT's receiver gets by PIX exactly the quote's net BRL, the markup
 * taken off it.
 */
import { address, type Base64EncodedWireTransaction, generateKeyPairSigner } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decimal } from '../../src/lib/money.ts';
import { ADMIN_TOKEN, type TestContext, type TestMerchant, createTestContext } from '../helpers/app.ts';
import { createMetrics } from '../../src/http/metrics.ts';
import { createWorkerJobs } from '../../src/jobs.ts';
import { ata, buildTransfer, type Rpc } from '../helpers/chain-simulator.ts';
import { randomCpf } from '../helpers/documents.ts';
import { freePort } from '../helpers/processes.ts';
import { type ProductionPath, postJson, startProductionPath } from '../helpers/production-path.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const TOKEN = 'e2e-markup-webhook-token-0123456789abcdef';
const HEADER = { 'x-webhook-secret': 'e2e-markup-header-secret-0123456789abcdef' };
const ADMIN = { authorization: `Bearer ${ADMIN_TOKEN}` };

describe('partner markup on the production path: quote, order, ledger and settlement', () => {
  let world: ProductionPath;
  let rpc: Rpc;
  let ctx: TestContext;
  let merchant: TestMerchant;
  let receiver: Json;

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, headers = merchant.headers) =>
    ctx.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    world = await startProductionPath({ token: TOKEN, headerSecret: HEADER['x-webhook-secret'] });
    rpc = world.rpc;
    const port = await freePort();
    ctx = await createTestContext({ ...world.env(port), SANDBOX_ENABLED: 'false' });
    await ctx.app.listen({ port, host: '127.0.0.1' });
    merchant = await ctx.createMerchant('Loja Markup Produção');
    await ctx.app.services.reconciliation.runPass();
    const { TREASURY } = ctx.app.services.platformKeysAtStart.signers;
    const airdrop = await postJson(`${world.chain.ready.adminUrl}/airdrop`, { address: TREASURY.address, lamports: 2_000_000_000 });
    await postJson(`${world.chain.ready.adminUrl}/mint-to`, { mint: world.usdc, owner: TREASURY.address, amount: '100000000' });
    for (const funding of [
      { currency: 'SOL', amount: '2', reference: airdrop.signature },
      { currency: 'USDC', amount: '100', reference: `mint-to-${world.usdc}` },
    ]) {
      expect((await call('POST', '/admin/treasury/fundings', funding, ADMIN)).statusCode).toBe(201);
    }
    const wallet = (await generateKeyPairSigner()).address;
    receiver = (await call('POST', '/receivers', { type: 'PF', document: randomCpf(), name: 'Marta Lima', email: 'marta@example.com', walletAddress: wallet, limits: { nightTransactionsEnabled: true } })).json() as Json;
    const submitted = await call('POST', `/receivers/${receiver.id}/kyc`, { birthDate: '1991-02-03', documents: [{ type: 'ID_FRONT', reference: 's3://kyc/marta/id.jpg' }, { type: 'SELFIE', reference: 's3://kyc/marta/selfie.jpg' }] });
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect((await call('POST', `/admin/receivers/${receiver.id}/kyc/start-review`, undefined, ADMIN)).statusCode).toBe(200);
    expect((await call('POST', `/admin/receivers/${receiver.id}/kyc/approve`, undefined, ADMIN)).statusCode).toBe(200);
  }, 60_000);

  afterAll(async () => {
    await ctx?.close();
    world?.stop();
  });

  it('has no sandbox route', async () => {
    expect((await call('POST', '/sandbox/settlements/run', {})).statusCode).toBe(404);
  });

  it('a PAYIN with a markup: in the quote, the order, the tokens on chain, the ledger and the settlement', async () => {
    expect((await call('PUT', '/markups/PAYIN', { bps: 150, flatBrl: '0.40', capBrl: '5.00' })).statusCode).toBe(200);
    const quote = (await call('POST', '/quotes', { type: 'PAYIN', amountBrl: 20, receiverId: receiver.id })).json() as Json;
    // 1.5 % of 20.00 is 0.30, plus 0.40: 0.70, under the cap; the platform's own fee is apart.
    expect(quote.markup).toEqual({ bps: 150, flatBrl: 0.4, capBrl: 5, amountBrl: 0.7 });
    expect(decimal(String(quote.platformFeeAmountBrl)).plus(String(quote.merchantFeeAmountBrl)).plus('0.70').plus(String(quote.netAmountBrl)).eq(20)).toBe(true);

    const created = await call('POST', '/payin', { receiverId: receiver.id, amountBrl: 20, quoteId: quote.id });
    expect(created.statusCode, created.body).toBe(201);
    const order = created.json() as Json;
    expect(order).toMatchObject({ markup: quote.markup, netAmountBrl: quote.netAmountBrl, amountCrypto: quote.amountCrypto, feePercentage: quote.feePercentage });

    await postJson(`${world.psp.ready.controlUrl}/control/pay`, { pixCopiaECola: order.pixPaymentCode });
    const completed = await driveUntil(order.id, 'COMPLETED');
    expect(completed.markup).toEqual(quote.markup);
    const balance = (await rpc.getTokenAccountBalance(await ata(address(receiver.walletAddress), world.usdc)).send()).value;
    expect(decimal(balance.amount).eq(decimal(String(quote.amountCrypto)).times(1e6))).toBe(true);

    const entries = (await call('GET', '/ledger/entries')).json().entries as Json[];
    const completion = entries.find((entry) => entry.kind === 'PAYIN_COMPLETED' && entry.referenceId === order.id)!;
    expect(completion.postings).toContainEqual({ account: 'merchant_markup_payable', owner: 'merchant', currency: 'BRL', amount: '-0.7' });
    expect((await call('GET', '/ledger/fees/balance')).json()).toMatchObject({ markupBalance: '0.70' });

    const run = await call('POST', '/admin/settlements/run', { merchantId: merchant.merchantId }, ADMIN);
    expect(run.statusCode, run.body).toBe(200);
    const [settlement] = run.json().settlements as Json[];
    expect(settlement).toMatchObject({ markupBrl: 0.7, entriesCount: 1 });
    expect(decimal(String(settlement!.amountBrl)).eq(decimal('0.70').plus(String(quote.merchantFeeAmountBrl)))).toBe(true);
    const settled = (await call('GET', '/ledger/entries')).json().entries.find((entry: Json) => entry.kind === 'SETTLEMENT');
    expect(settled.postings).toContainEqual({ account: 'merchant_markup_payable', owner: 'merchant', currency: 'BRL', amount: '0.7' });
    expect((await call('GET', '/ledger/fees/balance')).json()).toMatchObject({ markupBalance: '0.00' });
  });

  // The PSP simulator pays PIX of up to R$ 10.00 (Efí's sandbox rules): 1.5 USDC is about R$ 8.
  it('a PAYOUT with a markup: in the quote, the order, the PIX sent, the ledger and the settlement', async () => {
    expect((await call('PUT', '/markups/PAYOUT', { bps: 200, flatBrl: '0.05', capBrl: '1.00' })).statusCode).toBe(200);
    const quote = (await call('POST', '/quotes', { type: 'PAYOUT', amountCrypto: '1.5', token: 'USDC', receiverId: receiver.id })).json() as Json;
    expect(quote.markup, JSON.stringify(quote)).toMatchObject({ bps: 200, flatBrl: 0.05, capBrl: 1 });
    // 2 % of the gross rounded down to the centavo, plus 0.05, under the cap.
    const gross = decimal(String(quote.amountBrl));
    const expectedMarkup = gross.times(200).div(10_000).toDecimalPlaces(2, 1).plus('0.05');
    expect(decimal(String(quote.markup.amountBrl)).eq(expectedMarkup)).toBe(true);
    // amountBrl = platform fee + merchant fee + markup + net: the markup comes off the PIX.
    expect(decimal(String(quote.platformFeeAmountBrl)).plus(String(quote.merchantFeeAmountBrl)).plus(expectedMarkup).plus(String(quote.netAmountBrl)).eq(gross)).toBe(true);

    const created = await call('POST', '/payout', { receiverId: receiver.id, amountCrypto: '1.5', sourceToken: 'USDC', quoteId: quote.id });
    expect(created.statusCode, created.body).toBe(201);
    const order = created.json() as Json;
    expect(order).toMatchObject({ markup: quote.markup, netAmountBrl: quote.netAmountBrl, amountBrl: quote.amountBrl, feePercentage: quote.feePercentage });

    const depositor = await generateKeyPairSigner();
    await postJson(`${world.chain.ready.adminUrl}/airdrop`, { address: depositor.address, lamports: 100_000_000 });
    await postJson(`${world.chain.ready.adminUrl}/mint-to`, { mint: world.usdc, owner: depositor.address, amount: '1500000' });
    const { wire } = await buildTransfer(rpc, { payer: depositor, mint: address(world.usdc), to: address(order.depositAddress), amount: 1_500_000n });
    await rpc.sendTransaction(wire as Base64EncodedWireTransaction, { encoding: 'base64' }).send();

    const completed = await driveUntil(order.id, 'COMPLETED', ['deposit-watcher']);
    expect(completed.markup).toEqual(quote.markup);
    // The PIX sent is the net, the markup not in it.
    const pixOut = (completed.transactions as Json[]).find((t) => t.type === 'PIX_OUT')!;
    expect(pixOut).toMatchObject({ currency: 'BRL', status: 'CONFIRMED' });
    expect(decimal(String(pixOut.amount)).eq(String(quote.netAmountBrl))).toBe(true);

    const entries = (await call('GET', '/ledger/entries')).json().entries as Json[];
    const completion = entries.find((entry) => entry.kind === 'PAYOUT_COMPLETED' && entry.referenceId === order.id)!;
    expect(completion.postings).toContainEqual({ account: 'merchant_markup_payable', owner: 'merchant', currency: 'BRL', amount: `-${expectedMarkup.toFixed()}` });
    expect(decimal((await call('GET', '/ledger/fees/balance')).json().markupBalance).eq(expectedMarkup)).toBe(true);

    const run = await call('POST', '/admin/settlements/run', { merchantId: merchant.merchantId }, ADMIN);
    expect(run.statusCode, run.body).toBe(200);
    const [settlement] = run.json().settlements as Json[];
    expect(settlement).toMatchObject({ markupBrl: expectedMarkup.toNumber(), entriesCount: 1 });
    expect(decimal(String(settlement!.amountBrl)).eq(expectedMarkup.plus(String(quote.merchantFeeAmountBrl)))).toBe(true);
    const stored = await ctx.database.db.selectFrom('settlements').select(['markup_brl']).where('id', '=', settlement!.id).executeTakeFirstOrThrow();
    expect(decimal(String(stored.markup_brl)).eq(expectedMarkup)).toBe(true);
    const settled = (await call('GET', '/ledger/entries')).json().entries.find((entry: Json) => entry.kind === 'SETTLEMENT' && entry.referenceId === settlement!.id);
    expect(settled.postings).toContainEqual({ account: 'merchant_markup_payable', owner: 'merchant', currency: 'BRL', amount: expectedMarkup.toFixed() });
    expect((await call('GET', '/ledger/fees/balance')).json()).toMatchObject({ markupBalance: '0.00' });
  });

  const runJob = async (name: string) => {
    const job = createWorkerJobs(ctx.app.services, ctx.config, createMetrics()).find((candidate) => candidate.name === name);
    expect(job, `worker job ${name}`).toBeDefined();
    await job!.run(new AbortController().signal);
  };

  /** The worker's order steps (and `alsoRun`'s jobs) on the real clock, until `status`. */
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
