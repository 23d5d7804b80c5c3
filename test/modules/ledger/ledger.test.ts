/**
 * The ledger: postings written by order transitions, zero-sum and append-only in the database,
 * the fee balance, settlements (idempotent, safe when two run at once), pagination, isolation,
 * and a property test over random sequences of orders, failures, refunds and settlement runs.
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../src/lib/ids.ts';
import { decimal } from '../../../src/lib/money.ts';
import { settlementJob } from '../../../src/modules/ledger/job.ts';
import { ADMIN_TOKEN, TestClock, type TestContext, type TestMerchant, createTestContext, expectErrorBody } from '../../helpers/app.ts';
import { randomCpf } from '../../helpers/documents.ts';

const WALLET = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T';
const NOON_SP = '2026-11-23T15:00:00.000Z';
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('ledger', () => {
  const clock = new TestClock(new Date(NOON_SP));
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext({}, { clock });
  });
  afterAll(() => ctx.close());

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, who: TestMerchant, payload?: unknown) =>
    ctx.app.inject({ method, url: `/api/v1${url}`, headers: who.headers, ...(payload === undefined ? {} : { payload: payload as object }) });

  /** A merchant with a 1 % merchant fee on both order types, and an active receiver. */
  async function feeMerchant(name: string) {
    const merchant = await ctx.createMerchant(name);
    for (const type of ['PAYIN', 'PAYOUT']) {
      expect((await call('PUT', `/fee-tiers/${type}`, merchant, [{ minVolumeBrl: 0, maxVolumeBrl: null, merchantFeePercentage: 0.01 }])).statusCode).toBe(200);
    }
    const receiver = (await call('POST', '/receivers', merchant, { type: 'PF', document: randomCpf(), name: 'Ana', email: 'ana@example.com', walletAddress: WALLET })).json();
    await call('POST', `/sandbox/receivers/${receiver.id}/kyc`, merchant, { decision: 'APPROVE' });
    return { merchant, receiverId: receiver.id as string };
  }

  const drive = async () => {
    for (let i = 0; i < 5; i++) {
      await ctx.app.services.orderSteps.runDuePass();
      await ctx.app.services.sandbox.settlePass();
    }
  };

  async function completedPayin(merchant: TestMerchant, receiverId: string, amountBrl: number) {
    const order = (await call('POST', '/payin', merchant, { receiverId, amountBrl })).json();
    await call('POST', `/sandbox/orders/${order.id}/pix-payment`, merchant, {});
    await drive();
    return (await call('GET', `/orders/${order.id}`, merchant)).json();
  }

  const unbalancedEntries = () =>
    sql<{ entry_id: string }>`select entry_id from ledger_postings group by entry_id, currency having sum(amount) <> 0`.execute(ctx.database.db).then((r) => r.rows);

  it('must show: a completed payin’s merchant fee is the balance; a settlement run lists it and zeroes the balance', async () => {
    const { merchant, receiverId } = await feeMerchant('Loja Saldo');
    expect((await call('GET', '/ledger/fees/balance', merchant)).json()).toEqual({ merchantId: merchant.merchantId, balance: '0.00', currency: 'BRL' });
    const order = await completedPayin(merchant, receiverId, 250);
    expect(order).toMatchObject({ status: 'COMPLETED', merchantFeeAmountBrl: 2.5 });
    expect((await call('GET', '/ledger/fees/balance', merchant)).json()).toEqual({ merchantId: merchant.merchantId, balance: '2.50', currency: 'BRL' });

    clock.advance(1000);
    // No body at all: every field of this body is optional.
    const run = await call('POST', '/sandbox/settlements/run', merchant);
    expect(run.json().settlements).toHaveLength(1);
    const listed = (await call('GET', '/ledger/settlements', merchant)).json();
    expect(listed.pagination).toEqual({ page: 1, pageSize: 20, total: 1, totalPages: 1 });
    expect(listed.settlements[0]).toMatchObject({ merchantId: merchant.merchantId, amountBrl: 2.5, entriesCount: 1, periodEnd: clock.now().toISOString() });
    expect((await call('GET', '/ledger/fees/balance', merchant)).json().balance).toBe('0.00');
    expect(expectErrorBody(await call('GET', '/ledger/settlements?pageSize=101', merchant), 400, 'VALIDATION_ERROR').details).toHaveProperty(['querystring.pageSize']);
    clock.set(NOON_SP);
  });

  it('posts every movement of both lifecycles, each entry zero-sum, once per (order, kind)', async () => {
    const { merchant, receiverId } = await feeMerchant('Loja Fluxos');
    const payin = await completedPayin(merchant, receiverId, 100);
    const payout = (await call('POST', '/payout', merchant, { receiverId, amountCrypto: 10, sourceToken: 'USDC' })).json();
    await call('POST', `/sandbox/orders/${payout.id}/deposit`, merchant, {});
    await drive();
    const entries = (await call('GET', '/ledger/entries?pageSize=100', merchant)).json();
    const kinds = entries.entries.map((e: Json) => `${e.referenceId === payin.id ? 'payin' : 'payout'}:${e.kind}`).sort();
    expect(kinds).toEqual(['payin:PAYIN_COMPLETED', 'payin:PAYIN_PIX_RECEIVED', 'payout:PAYOUT_COMPLETED', 'payout:PAYOUT_DEPOSIT_RECEIVED']);
    const payoutDone = entries.entries.find((e: Json) => e.kind === 'PAYOUT_COMPLETED');
    expect(payoutDone.postings).toEqual(
      expect.arrayContaining([
        { account: 'merchant_fees_payable', owner: 'merchant', currency: 'BRL', amount: '-0.54' },
        { account: 'pix_cash', owner: 'platform', currency: 'BRL', amount: '-53.19' },
        { account: 'fx_conversion', owner: 'platform', currency: 'USDC', amount: '-10' },
      ]),
    );
    expect(await unbalancedEntries()).toEqual([]);
    // Replaying a transition's posting is a no-op.
    const row = await ctx.database.db.selectFrom('orders').selectAll().where('id', '=', payin.id).executeTakeFirstOrThrow();
    const posted = await ctx.database.db.transaction().execute((trx) => ctx.app.services.ledger.postOrderMovement(trx, row, 'PAYIN_COMPLETED', clock.now()));
    expect(posted).toBe(false);
    expect((await call('GET', '/ledger/fees/balance', merchant)).json().balance).toBe('1.54');
  });

  it('a refunded payin nets to zero in transit and recognises no fee', async () => {
    const { merchant, receiverId } = await feeMerchant('Loja Estorno');
    const order = (await call('POST', '/payin', merchant, { receiverId, amountBrl: 80 })).json();
    await call('POST', `/sandbox/orders/${order.id}/fail`, merchant, { step: 'CHAIN_TRANSFER' });
    await call('POST', `/sandbox/orders/${order.id}/pix-payment`, merchant, {});
    await drive();
    expect((await call('GET', `/orders/${order.id}`, merchant)).json().status).toBe('REFUNDED');
    const entries = (await call('GET', '/ledger/entries', merchant)).json().entries;
    expect(entries.map((e: Json) => e.kind).sort()).toEqual(['PAYIN_PIX_RECEIVED', 'PAYIN_REFUNDED']);
    const inTransit = entries.flatMap((e: Json) => e.postings).filter((p: Json) => p.account === 'customer_funds_in_transit');
    expect(inTransit.reduce((sum: ReturnType<typeof decimal>, p: Json) => sum.plus(p.amount), decimal(0)).toString()).toBe('0');
    expect((await call('GET', '/ledger/fees/balance', merchant)).json().balance).toBe('0.00');
  });

  it('the database refuses unbalanced entries and any update or delete', async () => {
    const { merchant } = await feeMerchant('Loja Regras');
    const accountId = (await ctx.database.db.selectFrom('ledger_accounts').select('id').limit(1).executeTakeFirstOrThrow()).id;
    await expect(
      ctx.database.db.transaction().execute(async (trx) => {
        const entryId = newId();
        await trx.insertInto('ledger_entries').values({ id: entryId, merchant_id: merchant.merchantId, kind: 'MANUAL', reference_type: 'order', reference_id: newId(), created_at: new Date() }).execute();
        await trx.insertInto('ledger_postings').values({ id: newId(), entry_id: entryId, account_id: accountId, currency: 'BRL', amount: '10' }).execute();
      }),
    ).rejects.toThrow(/sum to zero/);
    const anyEntry = await ctx.database.db.selectFrom('ledger_entries').select('id').limit(1).executeTakeFirstOrThrow();
    await expect(sql`update ledger_entries set kind = 'X' where id = ${anyEntry.id}`.execute(ctx.database.db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from ledger_postings where entry_id = ${anyEntry.id}`.execute(ctx.database.db)).rejects.toThrow(/append-only/);
  });

  it('two concurrent settlement runs produce one settlement; a run with nothing to close creates nothing', async () => {
    const { merchant, receiverId } = await feeMerchant('Loja Concorrente');
    await completedPayin(merchant, receiverId, 100);
    await completedPayin(merchant, receiverId, 200);
    clock.advance(1000);
    const runs = await Promise.all([
      ctx.app.services.ledger.settleMerchant(merchant.merchantId, clock.now()),
      ctx.app.services.ledger.settleMerchant(merchant.merchantId, clock.now()),
      ctx.app.inject({ method: 'POST', url: '/api/v1/admin/settlements/run', headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload: { merchantId: merchant.merchantId } }),
    ]);
    const created = [runs[0], runs[1], ...(runs[2].json().settlements as Json[])].filter(Boolean);
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ amountBrl: 3, entriesCount: 2 });
    clock.advance(1000);
    expect((await call('POST', '/sandbox/settlements/run', merchant, {})).json().settlements).toEqual([]);
    expect((await call('GET', '/ledger/settlements', merchant)).json().pagination.total).toBe(1);
    expect((await call('GET', '/ledger/entries?settled=true', merchant)).json().entries.map((e: Json) => e.kind)).toEqual(['PAYIN_COMPLETED', 'PAYIN_COMPLETED']);
    clock.set(NOON_SP);
  });

  it('pages settlements newest first and keeps merchants apart', async () => {
    const { merchant, receiverId } = await feeMerchant('Loja Paginas');
    const other = await ctx.createMerchant('Loja Outra');
    for (let i = 0; i < 3; i++) {
      await completedPayin(merchant, receiverId, 10 + i);
      clock.advance(60_000);
      await call('POST', '/sandbox/settlements/run', merchant, {});
    }
    clock.set(NOON_SP);
    const page2 = (await call('GET', '/ledger/settlements?page=2&pageSize=2', merchant)).json();
    expect(page2.pagination).toEqual({ page: 2, pageSize: 2, total: 3, totalPages: 2 });
    expect(page2.settlements).toHaveLength(1);
    expect(page2.settlements[0].amountBrl).toBe(0.1);
    const first = (await call('GET', '/ledger/settlements?pageSize=1', merchant)).json().settlements[0];
    expect(first.amountBrl).toBe(0.12);
    expect((await call('GET', '/ledger/settlements', other)).json()).toEqual({ settlements: [], pagination: { page: 1, pageSize: 20, total: 0, totalPages: 0 } });
    expect((await call('GET', '/ledger/entries', other)).json().entries).toEqual([]);
    expect((await call('GET', '/ledger/fees/balance', other)).json().balance).toBe('0.00');
    for (const bad of ['pageSize=0', 'page=0', 'settled=maybe', 'limit=5']) {
      expectErrorBody(await call('GET', `/ledger/entries?${bad}`, merchant), 400, 'VALIDATION_ERROR');
    }
  });

  it('the daily job settles up to the latest 00:00 in São Paulo, once', async () => {
    const { merchant, receiverId } = await feeMerchant('Loja Diaria');
    await completedPayin(merchant, receiverId, 100); // 12:00 on the 23rd, São Paulo
    const job = settlementJob(ctx.app.services.ledger, '00:00', clock);
    const controller = new AbortController();
    clock.set('2026-11-24T02:59:00.000Z'); // 23:59 on the 23rd: not yet
    await job.run(controller.signal);
    expect((await call('GET', '/ledger/settlements', merchant)).json().pagination.total).toBe(0);
    clock.set('2026-11-24T03:01:00.000Z'); // 00:01 on the 24th
    await job.run(controller.signal);
    await job.run(controller.signal);
    const listed = (await call('GET', '/ledger/settlements', merchant)).json();
    expect(listed.settlements).toHaveLength(1);
    expect(listed.settlements[0]).toMatchObject({ periodEnd: '2026-11-24T03:00:00.000Z', amountBrl: 1 });
    clock.set(NOON_SP);
  });

  it('property: random payins, payouts, failures, refunds and settlement runs keep every entry zero-sum and balance + settled = recognised', async () => {
    const operation = fc.oneof(
      fc.record({ op: fc.constant('payin' as const), cents: fc.integer({ min: 100, max: 500_000 }), outcome: fc.constantFrom('complete', 'refund', 'expire') }),
      fc.record({ op: fc.constant('payout' as const), micro: fc.integer({ min: 1_000_000, max: 50_000_000 }), outcome: fc.constantFrom('complete', 'fail') }),
      fc.record({ op: fc.constant('settle' as const) }),
    );
    let run = 0;
    let completedFees = decimal(0);
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 6 }), async (operations) => {
        clock.set(NOON_SP);
        const { merchant, receiverId } = await feeMerchant(`Loja Prop ${run++}`);
        for (const step of operations) {
          clock.advance(1000);
          if (step.op === 'settle') {
            await ctx.app.services.ledger.settleMerchant(merchant.merchantId, clock.now());
          } else if (step.op === 'payin') {
            const created = await call('POST', '/payin', merchant, { receiverId, amountBrl: step.cents / 100 });
            expect(created.statusCode, created.body).toBe(201);
            const order = created.json();
            if (step.outcome === 'expire') {
              clock.advance(900_000);
            } else {
              if (step.outcome === 'refund') await call('POST', `/sandbox/orders/${order.id}/fail`, merchant, { step: 'CHAIN_TRANSFER' });
              await call('POST', `/sandbox/orders/${order.id}/pix-payment`, merchant, {});
            }
          } else {
            const created = await call('POST', '/payout', merchant, { receiverId, amountCrypto: step.micro / 1_000_000, sourceToken: 'USDC' });
            expect(created.statusCode, created.body).toBe(201);
            const order = created.json();
            await call('POST', `/sandbox/orders/${order.id}/deposit`, merchant, {});
            await ctx.app.services.orderSteps.runDuePass();
            await ctx.app.services.orderSteps.runDuePass();
            if (step.outcome === 'fail') await call('POST', `/sandbox/orders/${order.id}/fail`, merchant, { step: 'PIX_PAYOUT' });
          }
          await drive();
        }
        expect(await unbalancedEntries()).toEqual([]);
        const recognised = await ctx.database.db
          .selectFrom('orders')
          .select((eb) => eb.fn.coalesce(eb.fn.sum<string>('merchant_fee_amount_brl'), sql<string>`0`).as('fees'))
          .where('merchant_id', '=', merchant.merchantId)
          .where('status', '=', 'COMPLETED')
          .executeTakeFirstOrThrow();
        const balance = (await call('GET', '/ledger/fees/balance', merchant)).json().balance;
        const settled = (await call('GET', '/ledger/settlements?pageSize=100', merchant)).json().settlements.reduce((sum: ReturnType<typeof decimal>, s: Json) => sum.plus(s.amountBrl), decimal(0));
        expect(decimal(balance).plus(settled).toFixed(2)).toBe(decimal(String(recognised.fees)).toFixed(2));
        completedFees = completedFees.plus(String(recognised.fees));
      }),
      { numRuns: 12 },
    );
    // The runs did recognise fees (the invariant was not checked on empty ledgers only).
    expect(completedFees.gt(0)).toBe(true);
    clock.set(NOON_SP);
  });
});
