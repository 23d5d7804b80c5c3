/**
 * GET /admin/treasury/reconciliations through the app, with a treasury on chain the test
 * controls: the last runs newest first, each with what it read per currency (on chain, in the
 * ledger, the drift) and whether it found drift; `limit` bounds them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock, type TestContext, createTestContext, expectErrorBody } from '../../helpers/app.ts';
import { callAsAdmin, type Json } from '../../helpers/factories.ts';
import { fakeTreasury } from '../treasury/helpers.ts';

const treasury = fakeTreasury({ SOL: '2', USDC: '1000' });
const clock = new TestClock(new Date('2026-11-23T15:00:00.000Z'));
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({}, { clock, treasuryReader: treasury.reader });
});
afterAll(() => ctx?.close());

const runs = async (query = '') => {
  const response = await callAsAdmin(ctx, 'GET', `/treasury/reconciliations${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as Json[];
};

describe('GET /admin/treasury/reconciliations', () => {
  it('is empty before the first run', async () => {
    expect(await runs()).toEqual([]);
  });

  it('lists the runs newest first with per-currency on-chain, ledger and drift', async () => {
    for (const [currency, amount, reference] of [['USDC', '1000', 'fund-usdc'], ['SOL', '2', 'fund-sol']]) {
      expect((await callAsAdmin(ctx, 'POST', '/treasury/fundings', { currency, amount, reference })).statusCode).toBe(201);
    }
    const first = await ctx.app.services.treasury.reconcile();
    clock.advance(60_000);
    treasury.set('USDC', '990.5');
    const second = await ctx.app.services.treasury.reconcile();
    clock.advance(60_000);
    treasury.set('USDC', '1000');
    const third = await ctx.app.services.treasury.reconcile();

    const listed = await runs();
    expect(listed.map((run) => run.id)).toEqual([third!.runId, second!.runId, first!.runId]);
    expect(listed[1]).toEqual({
      id: second!.runId,
      startedAt: '2026-11-23T15:01:00.000Z',
      finishedAt: expect.any(String),
      inFlightTransfers: 0,
      driftFound: true,
      currencies: [
        { wallet: 1, currency: 'SOL', onChain: '2', ledger: '2', drift: '0', inFlightAmount: '0' },
        { wallet: 1, currency: 'USDC', onChain: '990.5', ledger: '1000', drift: '-9.5', inFlightAmount: '0' },
      ],
    });
    expect(listed.map((run) => run.driftFound)).toEqual([false, true, false]);
    // The newest is the one GET /admin/treasury shows as its last.
    expect((await callAsAdmin(ctx, 'GET', '/treasury')).json().lastReconciliation).toEqual(listed[0]);
    expect((await runs('?limit=2')).map((run) => run.id)).toEqual([third!.runId, second!.runId]);
  });

  it('refuses a limit out of 1..100 (400)', async () => {
    for (const query of ['?limit=0', '?limit=101', '?limit=x']) expectErrorBody(await callAsAdmin(ctx, 'GET', `/treasury/reconciliations${query}`), 400, 'VALIDATION_ERROR');
  });
});
