/**
 * The treasury's operator routes and reconciliation (docs/architecture/treasury.md) through the
 * app, with a treasury on chain the test controls: fundings post once per reference and are
 * audited; GET /admin/treasury shows both sides, drift, thresholds and what PAYINs owe; a
 * reconciliation records its run, and its job sets the gauges and warns.
 */
import { totalOf } from '../../../src/adapters/chain/treasury-port.ts';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { createMetrics } from '../../../src/http/metrics.ts';
import { createWorkerJobs } from '../../../src/jobs.ts';
import { treasuryReconciliationJob } from '../../../src/modules/treasury/job.ts';
import { treasuryMetrics } from '../../../src/modules/treasury/metrics.ts';
import { ADMIN_TOKEN, TestClock, type TestContext, createTestContext, expectErrorBody } from '../../helpers/app.ts';
import { randomCpf } from '../../helpers/documents.ts';
import { TREASURY_ADDRESS, fakeTreasury } from './helpers.ts';

const ADMIN = { authorization: `Bearer ${ADMIN_TOKEN}` };
const SIGNATURE = '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW';

const treasury = fakeTreasury({ SOL: '1.5', USDC: '1000' });
const clock = new TestClock(new Date('2026-11-23T15:00:00.000Z'));
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({ TREASURY_LOW_BALANCE: 'USDC:500,SOL:2' }, { clock, treasuryReader: treasury.reader });
});
afterAll(() => ctx?.close());

const admin = (method: 'GET' | 'POST', url: string, payload?: object, headers: Record<string, string> = ADMIN) =>
  ctx.app.inject({ method, url: `/api/v1/admin${url}`, headers, ...(payload ? { payload } : {}) });

const treasuryBalances = async () => totalOf(await ctx.app.services.ledger.treasuryWalletBalances());
const capital = async () =>
  (
    await ctx.database.db
      .selectFrom('ledger_postings as p')
      .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
      .select(['a.currency', 'p.amount'])
      .where('a.code', '=', 'treasury_capital')
      .execute()
  ).map((row) => [row.currency, Number(row.amount)]);

describe('POST /admin/treasury/fundings', () => {
  it('posts token_treasury +X / treasury_capital −X once per reference, audited', async () => {
    const created = await admin('POST', '/treasury/fundings', { currency: 'USDC', amount: '1000', reference: SIGNATURE, note: 'Opening balance' });
    expect(created.statusCode, created.body).toBe(201);
    const funding = created.json();
    expect(funding).toMatchObject({ reference: SIGNATURE, currency: 'USDC', amount: '1000', note: 'Opening balance' });
    expect((await treasuryBalances()).get('USDC')).toBe('1000');
    expect(await capital()).toEqual([['USDC', -1000]]);

    // The same funding again: the first, nothing posted twice.
    const replay = await admin('POST', '/treasury/fundings', { currency: 'USDC', amount: '1000.000000', reference: SIGNATURE });
    expect(replay.statusCode, replay.body).toBe(200);
    expect(replay.json().id).toBe(funding.id);
    expect((await treasuryBalances()).get('USDC')).toBe('1000');

    // Another funding under a used reference.
    const conflict = await admin('POST', '/treasury/fundings', { currency: 'USDC', amount: '5', reference: SIGNATURE });
    expect(expectErrorBody(conflict, 409, 'CONFLICT').details).toMatchObject({ existingFundingId: funding.id });

    const audit = await ctx.database.db.selectFrom('admin_audit_log').select(['actor', 'action', 'target_id', 'details', 'request_id']).where('action', '=', 'treasury.fund').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ target_id: funding.id, request_id: created.headers['x-request-id'] });
    expect(audit[0]!.actor).toMatch(/^admin-api@/);
  });

  it('funds SOL with its 9 decimals', async () => {
    const created = await admin('POST', '/treasury/fundings', { currency: 'SOL', amount: '1.500000000', reference: 'sol-opening' });
    expect(created.statusCode, created.body).toBe(201);
    expect((await treasuryBalances()).get('SOL')).toBe('1.5');
  });

  it.each([
    [{ currency: 'USDC', amount: '1.0000001', reference: 'r1' }, 'body.amount'],
    [{ currency: 'SOL', amount: '0.0000000001', reference: 'r2' }, 'body.amount'],
    [{ currency: 'DOGE', amount: '1', reference: 'r3' }, 'body.currency'],
    [{ currency: 'USDC', amount: '0', reference: 'r4' }, 'body.amount'],
    [{ currency: 'USDC', amount: '1', reference: 'has space' }, 'body.reference'],
    [{ currency: 'USDC', amount: '1' }, 'body.reference'],
  ])('refuses %o (400 naming %s), posting nothing', async (body, field) => {
    const before = await treasuryBalances();
    const response = await admin('POST', '/treasury/fundings', body);
    const error = expectErrorBody(response, 400, 'VALIDATION_ERROR');
    expect(JSON.stringify(error.details)).toContain(field.replace('body.', ''));
    expect(await treasuryBalances()).toEqual(before);
  });
});

describe('security', () => {
  it.each([
    ['GET', '/treasury'],
    ['POST', '/treasury/fundings'],
  ] as const)('%s %s needs the admin token', async (method, url) => {
    expectErrorBody(await admin(method, url, method === 'POST' ? { currency: 'USDC', amount: '1', reference: 'x' } : undefined, {}), 401, 'UNAUTHORIZED');
    expectErrorBody(await admin(method, url, method === 'POST' ? { currency: 'USDC', amount: '1', reference: 'x' } : undefined, { authorization: 'Bearer not-the-admin-token-0123456789abcdef' }), 401, 'UNAUTHORIZED');
    const merchant = await ctx.createMerchant();
    const asMerchant = await admin(method, url, method === 'POST' ? { currency: 'USDC', amount: '1', reference: 'x' } : undefined, merchant.headers);
    expect([401, 403]).toContain(asMerchant.statusCode);
  });
});

describe('GET /admin/treasury and reconciliation', () => {
  it('shows both sides per currency, the drift, the thresholds and what open PAYINs owe', async () => {
    // A PAYIN awaiting its PIX owes its tokens.
    const merchant = await ctx.createMerchant('Treasury Shop');
    const receiver = await ctx.app.inject({ method: 'POST', url: '/api/v1/receivers', headers: merchant.headers, payload: { type: 'PF', document: randomCpf(), name: 'Joana Souza', email: 'joana@example.com', walletAddress: TREASURY_ADDRESS } });
    expect(receiver.statusCode, receiver.body).toBe(201);
    await ctx.app.inject({ method: 'POST', url: `/api/v1/sandbox/receivers/${receiver.json().id}/kyc`, headers: merchant.headers, payload: { decision: 'APPROVE' } });
    const payin = await ctx.app.inject({ method: 'POST', url: '/api/v1/payin', headers: merchant.headers, payload: { receiverId: receiver.json().id, amountBrl: 54 } });
    expect(payin.statusCode, payin.body).toBe(201);
    const owed = String(payin.json().amountCrypto);

    treasury.set('USDC', '990.5');
    const response = await admin('GET', '/treasury');
    expect(response.statusCode, response.body).toBe(200);
    const view = response.json();
    expect(view).toMatchObject({ chain: 'solana-rpc', onChain: true, address: TREASURY_ADDRESS, onChainSource: 'node', onChainAsOf: clock.now().toISOString() });
    const usdc = view.currencies.find((c: { currency: string }) => c.currency === 'USDC');
    expect(usdc).toEqual({
      currency: 'USDC',
      onChain: '990.5',
      ledger: '1000',
      drift: '-9.5',
      lowBalanceThreshold: '500',
      belowThreshold: false,
      openPayinObligations: owed,
      openPayins: 1,
      inFlightTransfers: 0,
      inFlightAmount: '0',
    });
    const sol = view.currencies.find((c: { currency: string }) => c.currency === 'SOL');
    expect(sol).toMatchObject({ onChain: '1.5', ledger: '1.5', drift: '0', lowBalanceThreshold: '2', belowThreshold: true });
  });

  it('a reconciliation records its run and drift; its job sets the gauges and warns', async () => {
    const registry = new Registry();
    const warnings: Array<{ obj: object; msg: string }> = [];
    const log = { warn: (obj: object, msg: string) => warnings.push({ obj, msg }), error: () => {} };
    const job = treasuryReconciliationJob(ctx.app.services.treasury, 60_000, treasuryMetrics(registry), log);
    expect(job.name).toBe('treasury-reconciliation');
    await job.run(new AbortController().signal);

    const view = (await admin('GET', '/treasury')).json();
    expect(view.lastReconciliation).toMatchObject({ inFlightTransfers: 0, driftFound: true });
    expect(view.lastReconciliation.currencies).toEqual([
      { wallet: 1, currency: 'SOL', onChain: '1.5', ledger: '1.5', drift: '0', inFlightAmount: '0' },
      { wallet: 1, currency: 'USDC', onChain: '990.5', ledger: '1000', drift: '-9.5', inFlightAmount: '0' },
    ]);

    const text = await registry.metrics();
    expect(text).toContain('treasury_balance{wallet="1",currency="USDC"} 990.5');
    expect(text).toContain('treasury_drift{wallet="1",currency="USDC"} -9.5');
    expect(text).toContain('treasury_low_balance{wallet="1",currency="SOL"} 1');
    expect(text).toContain('treasury_low_balance{wallet="1",currency="USDC"} 0');
    expect(warnings.map((w) => w.msg)).toEqual(
      expect.arrayContaining(['treasury balance below its TREASURY_LOW_BALANCE threshold', 'treasury drift: on-chain balance differs from the ledger']),
    );
    expect(JSON.stringify(warnings)).not.toMatch(/private|secret|key/i);

    // Balanced again: no drift found.
    treasury.set('USDC', '1000');
    await job.run(new AbortController().signal);
    expect((await admin('GET', '/treasury')).json().lastReconciliation.driftFound).toBe(false);
  });

  it('with the node down, shows the last reconciliation’s balances', async () => {
    treasury.state.failing = true;
    try {
      const view = (await admin('GET', '/treasury')).json();
      expect(view.onChainSource).toBe('last-reconciliation');
      expect(view.currencies.find((c: { currency: string }) => c.currency === 'USDC').onChain).toBe('1000');
      await expect(ctx.app.services.treasury.reconcile()).rejects.toThrow(/getBalance/);
    } finally {
      treasury.state.failing = false;
    }
  });

  it('on the sandbox chain there is no treasury on chain: only the ledger side', async () => {
    // Built without a treasury reader: the sandbox chain's.
    const sandboxApp = await buildApp({ config: ctx.config, db: ctx.database.db, clock });
    onTestFinished(() => sandboxApp.close());
    const response = await sandboxApp.inject({ method: 'GET', url: '/api/v1/admin/treasury', headers: ADMIN });
    expect(response.statusCode, response.body).toBe(200);
    const view = response.json();
    expect(view).toMatchObject({ chain: 'sandbox', onChain: false, address: null, onChainSource: 'none' });
    expect(view.currencies.find((c: { currency: string }) => c.currency === 'USDC')).toMatchObject({ onChain: null, ledger: '1000', drift: null });
    expect(await sandboxApp.services.treasury.reconcile()).toBeUndefined();
    // The worker runs the reconciliation only with a treasury on chain.
    const jobsOf = (app: typeof sandboxApp) => createWorkerJobs(app.services, ctx.config, createMetrics()).map((job) => job.name);
    expect(jobsOf(ctx.app)).toContain('treasury-reconciliation');
    expect(jobsOf(sandboxApp)).not.toContain('treasury-reconciliation');
  });
});

// Last: it changes the USDC balance the view's tests above read.
describe('concurrent fundings', () => {
  it('two under one reference post once', async () => {
    const body = { currency: 'USDC', amount: '7', reference: 'concurrent-funding' };
    const answers = await Promise.all([admin('POST', '/treasury/fundings', body), admin('POST', '/treasury/fundings', body)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 201]);
    expect(new Set(answers.map((a) => a.json().id)).size).toBe(1);
    expect((await treasuryBalances()).get('USDC')).toBe('1007');
  });
});
