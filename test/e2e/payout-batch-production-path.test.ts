/**
 * Issue 43's must-show for bulk payouts on the production path, the sandbox routes off
 * (PIX_PROVIDER=api-pix against the PSP simulator, CHAIN_PROVIDER=solana-rpc against the chain
 * simulator): a 200-line batch uploaded as CSV by an OWNER, above the merchant's threshold so an
 * ADMIN approves it, funded by ONE real SPL transfer of its total to its address (found by the
 * deposit watcher), 200 PIX sent at the PSP, one refused by the PSP (the simulator refuses a PIX of
 * 10.01 to 20.00 BRL by webhook, as Efí's sandbox) and reported in the batch and its CSV report,
 * the other 199 COMPLETED, and the batch's deposit swept into the treasury.
 * PAYOUT_BATCH_LINES=1000 measures the bench's batch (bench/reports/2026-12-06-payout-batch-1000.md).
 */
import { address, type Base64EncodedWireTransaction, generateKeyPairSigner } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/http/metrics.ts';
import { createWorkerJobs } from '../../src/jobs.ts';
import { decimal } from '../../src/lib/money.ts';
import { ADMIN_TOKEN, type TestContext, type TestMerchant, TestClock, createTestContext } from '../helpers/app.ts';
import { ata, buildTransfer } from '../helpers/chain-simulator.ts';
import { randomCpf } from '../helpers/documents.ts';
import { type Person, peopleOf } from '../helpers/people.ts';
import { freePort } from '../helpers/processes.ts';
import { type ProductionPath, postJson, startProductionPath } from '../helpers/production-path.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const TOKEN = 'e2e-batch-webhook-token-0123456789abcdefgh';
const HEADER = { 'x-webhook-secret': 'e2e-batch-header-secret-0123456789abcdefg' };
const ADMIN = { authorization: `Bearer ${ADMIN_TOKEN}` };
const LINES = Number(process.env.PAYOUT_BATCH_LINES ?? 200);
const RECEIVERS = 20;
/** The line the PSP refuses: its BRL above the simulator's 10.00 (the others' 1 USDC is below). */
const REFUSED_LINE = 42;

/** The real clock, which the people helper moves on by a TOTP step to sign a manager in again (the service shares it). */
class RealClock extends TestClock {
  private offset = 0;
  override now = () => new Date(Date.now() + this.offset);
  override advance(ms: number) {
    this.offset += ms;
  }
}

describe('a 200-line payout batch on the production path: CSV, approval, one on-chain deposit, 200 PIX', () => {
  let world: ProductionPath;
  let ctx: TestContext;
  let merchant: TestMerchant;
  let owner: Person;
  let admin: Person;
  const receivers: Json[] = [];
  const clock = new RealClock(new Date());

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object | string, headers: Record<string, string> = merchant.headers) =>
    ctx.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload !== undefined ? { payload } : {}) });
  const as = (person: Person) => ({ cookie: person.cookie, 'x-csrf-token': person.csrf });
  const jobs = () => Object.fromEntries(createWorkerJobs(ctx.app.services, ctx.config, createMetrics()).map((job) => [job.name, job]));
  const runJob = (name: string) => jobs()[name]!.run(new AbortController().signal);

  beforeAll(async () => {
    world = await startProductionPath({ token: TOKEN, headerSecret: HEADER['x-webhook-secret'] });
    const port = await freePort();
    ctx = await createTestContext({ ...world.env(port), SANDBOX_ENABLED: 'false' }, { clock });
    await ctx.app.listen({ port, host: '127.0.0.1' });
    merchant = await ctx.createMerchant('Folha Produção');
    await ctx.app.services.reconciliation.runPass();
    const { TREASURY, SPONSOR } = ctx.app.services.platformKeysAtStart.signers;
    const airdrop = await postJson(`${world.chain.ready.adminUrl}/airdrop`, { address: TREASURY.address, lamports: 2_000_000_000 });
    await postJson(`${world.chain.ready.adminUrl}/airdrop`, { address: SPONSOR.address, lamports: 1_000_000_000 });
    expect((await call('POST', '/admin/treasury/fundings', { currency: 'SOL', amount: '2', reference: airdrop.signature }, ADMIN)).statusCode).toBe(201);

    // Receivers whose KYC an operator decided (the sandbox's shortcut is off).
    for (let i = 0; i < RECEIVERS; i++) {
      const wallet = (await generateKeyPairSigner()).address;
      const receiver = (await call('POST', '/receivers', { type: 'PF', document: randomCpf(), name: `Pessoa ${i + 1}`, email: `folha${i + 1}@example.com`, walletAddress: wallet, limits: { nightTransactionsEnabled: true } })).json() as Json;
      expect((await call('POST', `/receivers/${receiver.id}/kyc`, { birthDate: '1990-04-12', documents: [{ type: 'ID_FRONT', reference: `s3://kyc/${i}/id.jpg` }, { type: 'SELFIE', reference: `s3://kyc/${i}/selfie.jpg` }] })).statusCode).toBe(200);
      expect((await call('POST', `/admin/receivers/${receiver.id}/kyc/start-review`, undefined, ADMIN)).statusCode).toBe(200);
      expect((await call('POST', `/admin/receivers/${receiver.id}/kyc/approve`, undefined, ADMIN)).statusCode).toBe(200);
      receivers.push(receiver);
    }
    const people = peopleOf(ctx.app, merchant.merchantId, clock, 'batch-production');
    owner = await people.manager('OWNER');
    admin = await people.manager('ADMIN');
  }, 300_000);

  afterAll(async () => {
    await ctx?.close();
    world?.stop();
  });

  it('has no sandbox route', async () => {
    expect((await call('POST', '/sandbox/payout-batches/00000000-0000-4000-8000-000000000000/deposit', {})).statusCode).toBe(404);
  });

  it('is approved by a second person, funded by one SPL transfer, and paid: 200 PIX, one refused and reported, the deposit swept', { timeout: 1_200_000 }, async () => {
    expect((await call('PUT', '/payout-batch-settings', { approvalThresholdBrl: '100.00' }, as(owner))).statusCode).toBe(200);
    const lines = Array.from({ length: LINES }, (_, i) => `${receivers[i % RECEIVERS]!.id},${i + 1 === REFUSED_LINE ? '3.00' : '1.00'},USDC,folha-${i + 1}`);
    const csv = ['receiverId,amountCrypto,token,externalId', ...lines].join('\r\n');
    const uploaded = await call('POST', '/payout-batches', csv, { ...as(owner), 'content-type': 'text/csv', 'idempotency-key': 'folha-2026-12' });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const batch = uploaded.json() as Json;
    expect(batch).toMatchObject({ status: 'VALIDATED', itemCount: LINES, validCount: LINES, invalidCount: 0 });
    expect((await call('POST', `/payout-batches/${batch.id}/submit`, undefined, as(owner))).json().status).toBe('AWAITING_APPROVAL');
    expect((await call('POST', `/payout-batches/${batch.id}/approve`, undefined, as(owner))).statusCode).toBe(403);
    const approved = (await call('POST', `/payout-batches/${batch.id}/approve`, undefined, as(admin))).json() as Json;
    expect(approved).toMatchObject({ status: 'AWAITING_FUNDING', approvedByUserId: admin.id });

    // One real transfer of the total, from the merchant's own wallet to the batch's address.
    const units = BigInt(decimal(batch.totalCrypto).times(1e6).toFixed(0));
    const payer = await generateKeyPairSigner();
    await postJson(`${world.chain.ready.adminUrl}/airdrop`, { address: payer.address, lamports: 100_000_000 });
    await postJson(`${world.chain.ready.adminUrl}/mint-to`, { mint: world.usdc, owner: payer.address, amount: units.toString() });
    const { wire } = await buildTransfer(world.rpc, { payer, mint: world.usdc, to: address(approved.depositAddress), amount: units });
    await world.rpc.sendTransaction(wire as Base64EncodedWireTransaction, { encoding: 'base64' }).send();

    const started = Date.now();
    let funded: Json = {};
    for (const deadline = Date.now() + 120_000; funded.status !== 'PAYING' && Date.now() < deadline; await pause(50)) {
      await runJob('deposit-watcher');
      funded = (await call('GET', `/payout-batches/${batch.id}`)).json() as Json;
    }
    expect(funded).toMatchObject({ status: 'PAYING', fundedCrypto: batch.totalCrypto });

    // The worker's jobs on the real clock: the batch's orders made, their PIX sent and settled by webhook.
    // Done when every order ended and the batch saw it has no line left (a later pass of its job than the last line's).
    let progress: Json = {};
    for (const deadline = Date.now() + 600_000; Date.now() < deadline; await pause(20)) {
      await runJob('payout-batches');
      await ctx.app.services.orderSteps.runDuePass();
      const now = (await call('GET', `/payout-batches/${batch.id}`)).json() as Json;
      progress = now.progress;
      if (progress.completed + progress.failed === LINES && now.status === 'COMPLETED') break;
    }
    const wallMs = Date.now() - started;
    console.log(`${LINES}-line batch on the production path: funding to the last PIX settled in ${wallMs} ms`);
    expect(progress).toMatchObject({ ordered: LINES, completed: LINES - 1, failed: 1 });
    expect((await call('GET', `/payout-batches/${batch.id}`)).json()).toMatchObject({ status: 'COMPLETED', heldCrypto: '0' });
    expect(Object.keys((await world.pspState()).sent)).toHaveLength(LINES);

    const items = (await call('GET', `/payout-batches/${batch.id}/items?limit=100`)).json() as Json;
    const refused = (items.data as Json[]).find((item) => item.line === REFUSED_LINE)!;
    expect(refused).toMatchObject({ status: 'ORDERED', orderStatus: 'FAILED', failureReason: 'PIX payout refused: refused by the receiving institution' });
    const report = (await call('GET', `/payout-batches/${batch.id}/report`)).body.split('\r\n');
    expect(report).toHaveLength(LINES + 2);
    const failedLine = report.find((line) => line.includes(refused.orderId))!;
    expect(failedLine).toContain('FAILED');
    expect(failedLine).toContain('PIX payout refused: refused by the receiving institution');
    expect(report.filter((line) => line.includes(',COMPLETED,'))).toHaveLength(LINES - 1);

    // The batch's deposit swept into the treasury once: its token account emptied and closed.
    let sweep: Json | undefined;
    for (const deadline = Date.now() + 120_000; sweep?.status !== 'DONE' && Date.now() < deadline; await pause(50)) {
      await runJob('deposit-sweeps');
      sweep = await ctx.database.db.selectFrom('deposit_sweeps').select(['status', 'amount']).where('payout_batch_id', '=', batch.id).executeTakeFirst();
    }
    expect(sweep).toMatchObject({ status: 'DONE' });
    expect(decimal(sweep!.amount).eq(batch.totalCrypto)).toBe(true);
    const account = await ata(address(approved.depositAddress), world.usdc);
    expect((await world.rpc.getAccountInfo(account, { encoding: 'base64', commitment: 'finalized' }).send()).value).toBeNull();
  });
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
