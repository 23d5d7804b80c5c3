/**
 * Issue 43 item 1's must-show on the production path (the PSP and chain simulators in their own
 * processes, sandbox routes off): three USDC deposits to one standing address, found by the
 * deposit watcher, make three PAYOUTs (order.created naming the standing address), three PIX sent
 * to the receiver's key at the PSP, and three sweeps landed on chain (the treasury up by the
 * deposits, the address drained), the books and the chain equal after.
 */
import { address, type Base64EncodedWireTransaction, generateKeyPairSigner } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/http/metrics.ts';
import { createWorkerJobs } from '../../src/jobs.ts';
import { decimal } from '../../src/lib/money.ts';
import { openEventPayload } from '../../src/platform/event-payload-sealing.ts';
import { ADMIN_TOKEN, type TestContext, type TestMerchant, createTestContext } from '../helpers/app.ts';
import { ata, buildTransfer } from '../helpers/chain-simulator.ts';
import { randomCpf } from '../helpers/documents.ts';
import { freePort } from '../helpers/processes.ts';
import { type ProductionPath, postJson, startProductionPath } from '../helpers/production-path.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const TOKEN = 'e2e-standing-webhook-token-0123456789abcdef';
const HEADER_SECRET = 'e2e-standing-header-secret-0123456789abcdef';
const ADMIN = { authorization: `Bearer ${ADMIN_TOKEN}` };
// The PSP simulator pays PIX of up to R$ 10.00 (Efí's sandbox rules): each deposit under it.
const DEPOSITS = [1_000_000n, 1_500_000n, 1_800_000n];

describe('standing deposit address on the production path: three deposits, three PAYOUTs, three PIX, three sweeps', () => {
  let world: ProductionPath;
  let ctx: TestContext;
  let merchant: TestMerchant;
  let receiver: Json;

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
    const port = await freePort();
    ctx = await createTestContext({ ...world.env(port), SANDBOX_ENABLED: 'false' });
    await ctx.app.listen({ port, host: '127.0.0.1' });
    merchant = await ctx.createMerchant('Loja Endereço Fixo');
    await ctx.app.services.reconciliation.runPass();

    const { TREASURY, SPONSOR } = ctx.app.services.platformKeysAtStart.signers;
    const airdrop = await admin('/airdrop', { address: TREASURY.address, lamports: 2_000_000_000 });
    await admin('/airdrop', { address: SPONSOR.address, lamports: 1_000_000_000 });
    await admin('/mint-to', { mint: world.usdc, owner: TREASURY.address, amount: '100000000' });
    for (const funding of [{ currency: 'SOL', amount: '2', reference: airdrop.signature }, { currency: 'USDC', amount: '100', reference: `mint-to-${world.usdc}` }]) {
      expect((await call('POST', '/admin/treasury/fundings', funding, ADMIN)).statusCode).toBe(201);
    }

    const wallet = (await generateKeyPairSigner()).address;
    receiver = (await call('POST', '/receivers', { type: 'PF', document: randomCpf(), name: 'Joana Souza', email: 'joana@example.com', walletAddress: wallet, limits: { nightTransactionsEnabled: true } })).json() as Json;
    expect((await call('POST', `/receivers/${receiver.id}/kyc`, { birthDate: '1990-04-12', documents: [{ type: 'ID_FRONT', reference: 's3://kyc/joana/id.jpg' }, { type: 'SELFIE', reference: 's3://kyc/joana/selfie.jpg' }] })).statusCode).toBe(200);
    expect((await call('POST', `/admin/receivers/${receiver.id}/kyc/start-review`, undefined, ADMIN)).statusCode).toBe(200);
    expect((await call('POST', `/admin/receivers/${receiver.id}/kyc/approve`, undefined, ADMIN)).json()).toMatchObject({ status: 'ACTIVE' });
  }, 90_000);

  afterAll(async () => {
    await ctx?.close();
    world?.stop();
  });

  /** `work` again on the real clock (the slots pass on the simulator's) until `done` answers something. */
  async function until<T>(what: string, work: () => Promise<void>, done: () => Promise<T | undefined>): Promise<T> {
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      await work();
      const value = await done();
      if (value !== undefined) return value;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`still waiting for ${what}`);
  }

  it('three USDC deposits: three PAYOUTs announced with their source, three PIX to the receiver\'s key, three sweeps landed', async () => {
    const created = await call('POST', `/receivers/${receiver.id}/standing-addresses`, {}, { ...merchant.headers, 'idempotency-key': 'standing-e2e-1' });
    expect(created.statusCode, created.body).toBe(201);
    const standing = created.json() as Json;
    const depositAddress = address(standing.depositAddress);
    const { TREASURY } = ctx.app.services.platformKeysAtStart.signers;
    const treasuryAccount = await ata(address(TREASURY.address), world.usdc);
    const balanceOf = async (account: Awaited<ReturnType<typeof ata>>) => BigInt((await world.rpc.getTokenAccountBalance(account, { commitment: 'finalized' }).send()).value.amount);
    const treasuryBefore = await balanceOf(treasuryAccount);

    const depositor = await generateKeyPairSigner();
    await admin('/airdrop', { address: depositor.address, lamports: 100_000_000 });
    await admin('/mint-to', { mint: world.usdc, owner: depositor.address, amount: '10000000' });
    for (const units of DEPOSITS) {
      const { wire } = await buildTransfer(world.rpc, { payer: depositor, mint: world.usdc, to: depositAddress, amount: units });
      await world.rpc.sendTransaction(wire as Base64EncodedWireTransaction, { encoding: 'base64' }).send();
    }

    // Found by the watcher, each a PAYOUT made by the standing-deposits job, then paid by the worker's PIX steps.
    const orderIds = await until(
      'three PAYOUTs',
      async () => {
        await runJob('deposit-watcher');
        await runJob('standing-deposits');
      },
      async () => {
        const rows = (await call('GET', `/receivers/${receiver.id}/standing-addresses/${standing.id}/deposits`)).json().data as Json[];
        return rows.length === 3 && rows.every((d) => d.status === 'ORDERED') ? rows.map((d) => d.orderId as string) : undefined;
      },
    );
    const completed = await until(
      'three PAYOUTs COMPLETED',
      () => ctx.app.services.orderSteps.runDuePass().then(() => undefined),
      async () => {
        const orders = await Promise.all(orderIds.map(async (id) => (await call('GET', `/orders/${id}`)).json() as Json));
        return orders.every((o) => o.status === 'COMPLETED') ? orders : undefined;
      },
    );
    expect(completed.map((o) => decimal(String(o.amountCrypto)).times(1e6).toFixed()).sort()).toEqual(DEPOSITS.map(String).sort());
    for (const order of completed) expect(order).toMatchObject({ type: 'PAYOUT', pixKey: receiver.document, sourceToken: 'USDC' });

    // order.created names the standing address as the source.
    const events = await ctx.database.db.selectFrom('events').select(['event_type', 'payload']).where('event_type', '=', 'order.created').execute();
    const created3 = events.map((e) => openEventPayload(ctx.app.services.personalData, e.payload) as Json).filter((p) => orderIds.includes(p.orderId));
    expect(created3).toHaveLength(3);
    for (const payload of created3) expect(payload).toMatchObject({ type: 'PAYOUT', sourceKind: 'STANDING_DEPOSIT_ADDRESS', sourceId: standing.id });

    // Three PIX sent by the PSP simulator, to the receiver's key, each its PAYOUT's amount.
    const sent = (Object.values((await world.pspState()).sent) as Json[]).filter((pix) => pix.favorecido === receiver.document);
    expect(sent).toHaveLength(3);
    expect(sent.map((pix) => pix.status)).toEqual(['REALIZADO', 'REALIZADO', 'REALIZADO']);
    expect(sent.map((pix) => decimal(pix.valor).toFixed(2)).sort()).toEqual(completed.map((o) => decimal(String(o.netAmountBrl)).toFixed(2)).sort());

    // Three sweeps landed, one after the other: the treasury up by the deposits, the address drained.
    const sweeps = await until(
      'three sweeps DONE',
      () => runJob('deposit-sweeps'),
      async () => {
        const rows = await ctx.database.db.selectFrom('deposit_sweeps').select(['status', 'order_id', 'standing_deposit_signature', 'amount', 'closes']).where('deposit_address', '=', depositAddress).execute();
        return rows.length === 3 && rows.every((r) => r.status === 'DONE') ? rows : undefined;
      },
    );
    expect(sweeps.map((s) => s.order_id).sort()).toEqual([...orderIds].sort());
    expect(sweeps.every((s) => s.standing_deposit_signature !== null && !s.closes)).toBe(true);
    const total = DEPOSITS.reduce((a, b) => a + b, 0n);
    expect((await balanceOf(treasuryAccount)) - treasuryBefore).toBe(total);
    expect(await balanceOf(await ata(depositAddress, world.usdc))).toBe(0n);

    await runJob('treasury-reconciliation');
    const overview = (await call('GET', '/admin/treasury', undefined, ADMIN)).json() as Json;
    const usdc = (overview.currencies as Json[]).find((c) => c.currency === 'USDC')!;
    expect(decimal(usdc.onChain).eq(decimal(usdc.ledger)), JSON.stringify(usdc)).toBe(true);
    expect(overview.lastReconciliation).toMatchObject({ driftFound: false });
  });
});
