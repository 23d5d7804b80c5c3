/**
 * Issue 43's must-show for tokens as configuration: on the production path (the PSP and chain
 * simulators in their own processes, sandbox routes off, prices from an HTTP source per symbol),
 * a PYUSD PAYIN (a Token-2022 mint with PYUSD's TransferFeeConfig and TransferHook, zero fee, no
 * hook program) and a USDT PAYOUT (an SPL mint beside USDC) complete; the treasury's liquidity,
 * the books and the reconciliation are per token, and a token the price source leaves out is 503.
 */
import { address, type Address, type Base64EncodedWireTransaction, generateKeyPairSigner } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_2022_PROGRAM_ADDRESS } from '../../src/adapters/chain/solana-mints.ts';
import { createMetrics } from '../../src/http/metrics.ts';
import { createWorkerJobs } from '../../src/jobs.ts';
import { decimal } from '../../src/lib/money.ts';
import { ADMIN_TOKEN, type TestContext, type TestMerchant, createTestContext } from '../helpers/app.ts';
import { ata, buildTransfer } from '../helpers/chain-simulator.ts';
import { randomCpf } from '../helpers/documents.ts';
import { type PriceServer, startPriceServer } from '../helpers/price-server.ts';
import { freePort } from '../helpers/processes.ts';
import { type ProductionPath, postJson, startProductionPath } from '../helpers/production-path.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const TOKEN = 'e2e-tokens-webhook-token-0123456789abcdef';
const HEADER_SECRET = 'e2e-tokens-header-secret-0123456789abcdef';
const ADMIN = { authorization: `Bearer ${ADMIN_TOKEN}` };
const RATES = { USDC: '5.40', USDT: '5.41', PYUSD: '5.39' };

describe('tokens as configuration on the production path: a PYUSD (Token-2022) PAYIN and a USDT PAYOUT', () => {
  let world: ProductionPath;
  let prices: PriceServer;
  let ctx: TestContext;
  let merchant: TestMerchant;
  let receiver: Json;
  let usdt: Address;
  let pyusd: Address;

  const call = (method: 'GET' | 'POST', url: string, payload?: object, headers = merchant.headers) =>
    ctx.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  const runJob = async (name: string) => {
    const job = createWorkerJobs(ctx.app.services, ctx.config, createMetrics()).find((candidate) => candidate.name === name);
    expect(job, `worker job ${name}`).toBeDefined();
    await job!.run(new AbortController().signal);
  };
  const admin = (route: string, body: object) => postJson(`${world.chain.ready.adminUrl}${route}`, body);

  beforeAll(async () => {
    world = await startProductionPath({ token: TOKEN, headerSecret: HEADER_SECRET });
    prices = await startPriceServer();
    prices.answer({ rates: RATES });
    usdt = address((await admin('/mints', { decimals: 6 })).mint);
    pyusd = address((await admin('/mints', { decimals: 6, program: 'token-2022', extensions: { transferFee: { basisPoints: 0, maximumFee: '0' }, transferHook: {} } })).mint);
    const port = await freePort();
    const env = world.env(port);
    ctx = await createTestContext({
      ...env,
      SANDBOX_ENABLED: 'false',
      SUPPORTED_TOKENS: 'USDC:6,USDT:6,PYUSD:6',
      CHAIN_TOKEN_MINTS: `${env.CHAIN_TOKEN_MINTS},USDT:${usdt},PYUSD:${pyusd}`,
      PRICE_SOURCE: 'http',
      PRICE_URL: prices.url,
      // Refreshed after a second: the last test sees a new document soon.
      PRICE_MAX_AGE_MS: '2000',
    });
    await ctx.app.listen({ port, host: '127.0.0.1' });
    merchant = await ctx.createMerchant('Loja Tokens');
    // Its first pass registers the callback at the PSP.
    await ctx.app.services.reconciliation.runPass();

    // The treasury funded on chain and in the books, in SOL and every token.
    const { TREASURY, SPONSOR } = ctx.app.services.platformKeysAtStart.signers;
    const airdrop = await admin('/airdrop', { address: TREASURY.address, lamports: 2_000_000_000 });
    await admin('/airdrop', { address: SPONSOR.address, lamports: 1_000_000_000 });
    const fundings: object[] = [{ currency: 'SOL', amount: '2', reference: airdrop.signature }];
    for (const [currency, mint] of [['USDC', world.usdc], ['USDT', usdt], ['PYUSD', pyusd]] as const) {
      await admin('/mint-to', { mint, owner: TREASURY.address, amount: '100000000' });
      fundings.push({ currency, amount: '100', reference: `mint-to-${mint}` });
    }
    for (const funding of fundings) expect((await call('POST', '/admin/treasury/fundings', funding, ADMIN)).statusCode).toBe(201);

    const wallet = (await generateKeyPairSigner()).address;
    receiver = (await call('POST', '/receivers', { type: 'PF', document: randomCpf(), name: 'Joana Souza', email: 'joana@example.com', walletAddress: wallet, limits: { nightTransactionsEnabled: true } })).json() as Json;
    expect((await call('POST', `/receivers/${receiver.id}/kyc`, { birthDate: '1990-04-12', documents: [{ type: 'ID_FRONT', reference: 's3://kyc/joana/id.jpg' }, { type: 'SELFIE', reference: 's3://kyc/joana/selfie.jpg' }] })).statusCode).toBe(200);
    expect((await call('POST', `/admin/receivers/${receiver.id}/kyc/start-review`, undefined, ADMIN)).statusCode).toBe(200);
    expect((await call('POST', `/admin/receivers/${receiver.id}/kyc/approve`, undefined, ADMIN)).json()).toMatchObject({ status: 'ACTIVE' });
  }, 90_000);

  afterAll(async () => {
    await ctx?.close();
    world?.stop();
    await prices?.close();
  });

  it('quotes each token at its own price', async () => {
    for (const [token, rate] of Object.entries(RATES)) {
      const quote = await call('POST', '/quotes', { type: 'PAYIN', token, amountBrl: 100, receiverId: receiver.id });
      expect(quote.statusCode, quote.body).toBe(201);
      expect(quote.json()).toMatchObject({ token, exchangeRate: Number(rate) });
    }
  });

  it('a PYUSD PAYIN paid at the PSP ends COMPLETED: the tokens in the receiver\'s Token-2022 account, the books in PYUSD', async () => {
    const created = await call('POST', '/payin', { receiverId: receiver.id, amountBrl: 20, targetToken: 'PYUSD' });
    expect(created.statusCode, created.body).toBe(201);
    const order = created.json() as Json;
    expect(order).toMatchObject({ targetToken: 'PYUSD', exchangeRate: 5.39, amountUsdc: null });
    await postJson(`${world.psp.ready.controlUrl}/control/pay`, { pixCopiaECola: order.pixPaymentCode });
    const completed = await driveUntil(order.id, 'COMPLETED');
    const account = await ata(address(receiver.walletAddress), pyusd, TOKEN_2022_PROGRAM_ADDRESS);
    const info = (await world.rpc.getAccountInfo(account, { encoding: 'base64' }).send()).value!;
    expect(info.owner).toBe(TOKEN_2022_PROGRAM_ADDRESS);
    const balance = (await world.rpc.getTokenAccountBalance(account).send()).value;
    expect(decimal(balance.amount).eq(decimal(String(completed.amountCrypto)).times(1e6))).toBe(true);
    const transfer = (completed.transactions as Json[]).find((t) => t.type === 'CHAIN_TRANSFER');
    expect(transfer).toMatchObject({ currency: 'PYUSD', status: 'CONFIRMED' });
  });

  // The PSP simulator pays PIX of up to R$ 10.00 (Efí's sandbox rules): 1.5 USDT is about R$ 8.
  it('a USDT PAYOUT funded by an SPL transfer ends COMPLETED, is swept in USDT, and every token reconciles', async () => {
    const created = await call('POST', '/payout', { receiverId: receiver.id, amountCrypto: '1.5', sourceToken: 'USDT' });
    expect(created.statusCode, created.body).toBe(201);
    const order = created.json() as Json;
    expect(order.exchangeRate).toBe(5.41);
    const depositor = await generateKeyPairSigner();
    await admin('/airdrop', { address: depositor.address, lamports: 100_000_000 });
    await admin('/mint-to', { mint: usdt, owner: depositor.address, amount: '1500000' });
    const { wire } = await buildTransfer(world.rpc, { payer: depositor, mint: usdt, to: address(order.depositAddress), amount: 1_500_000n });
    await world.rpc.sendTransaction(wire as Base64EncodedWireTransaction, { encoding: 'base64' }).send();

    const completed = await driveUntil(order.id, 'COMPLETED', ['deposit-watcher']);
    expect((completed.transactions as Json[]).map((t) => [t.type, t.currency, t.status])).toEqual(expect.arrayContaining([['CHAIN_DEPOSIT', 'USDT', 'CONFIRMED'], ['PIX_OUT', 'BRL', 'CONFIRMED']]));

    const deadline = Date.now() + 20_000;
    let sweep;
    do {
      await runJob('deposit-sweeps');
      sweep = await ctx.database.db.selectFrom('deposit_sweeps').select(['status', 'token', 'amount']).where('order_id', '=', order.id).executeTakeFirst();
      if (sweep?.status !== 'DONE') await new Promise((resolve) => setTimeout(resolve, 50));
    } while (sweep?.status !== 'DONE' && Date.now() < deadline);
    expect(sweep).toMatchObject({ status: 'DONE', token: 'USDT' });
    expect((await world.rpc.getAccountInfo(await ata(address(order.depositAddress), usdt), { encoding: 'base64', commitment: 'finalized' }).send()).value).toBeNull();

    // The books per token: the treasury's on chain equals the ledger's in each, no drift found.
    await runJob('treasury-reconciliation');
    const overview = (await call('GET', '/admin/treasury', undefined, ADMIN)).json() as Json;
    const byCurrency = Object.fromEntries((overview.currencies as Json[]).map((c) => [c.currency, c]));
    expect(Object.keys(byCurrency).sort()).toEqual(['PYUSD', 'SOL', 'USDC', 'USDT']);
    for (const currency of ['SOL', 'USDC', 'USDT', 'PYUSD']) expect(decimal(byCurrency[currency].onChain).eq(decimal(byCurrency[currency].ledger)), `${currency}: ${JSON.stringify(byCurrency[currency])}`).toBe(true);
    expect(decimal(byCurrency.USDT.onChain).eq('101.5')).toBe(true);
    expect(decimal(byCurrency.PYUSD.onChain).lt('100')).toBe(true);
    expect(decimal(byCurrency.USDC.onChain).eq('100')).toBe(true);
    expect(overview.lastReconciliation).toMatchObject({ driftFound: false });
  });

  it('a supported token the price source leaves out is 503 PRICE_UNAVAILABLE, the others still priced', async () => {
    prices.answer({ rates: { USDC: '5.40', USDT: '5.41' } });
    // The held document is fresh: wait until a refresh picked up the new one.
    const deadline = Date.now() + 10_000;
    let answer;
    do {
      answer = await call('POST', '/quotes', { type: 'PAYIN', token: 'PYUSD', amountBrl: 100, receiverId: receiver.id });
      if (answer.statusCode !== 503) await new Promise((resolve) => setTimeout(resolve, 100));
    } while (answer.statusCode !== 503 && Date.now() < deadline);
    expect(answer.statusCode, answer.body).toBe(503);
    expect(answer.json()).toMatchObject({ error: 'PRICE_UNAVAILABLE', details: { token: 'PYUSD' } });
    expect((await call('POST', '/quotes', { type: 'PAYIN', token: 'USDT', amountBrl: 100, receiverId: receiver.id })).statusCode).toBe(201);
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
    throw new Error(`order ${id} is ${current.status}, not ${status}: ${JSON.stringify(current)}`);
  }
});
