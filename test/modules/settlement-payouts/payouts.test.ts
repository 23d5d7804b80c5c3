/**
 * Settlements paid to the merchant by PIX (docs/decisions/0044): a settlement without a key waits
 * AWAITING_PIX_KEY, owed; a key asked for by one operator is used only once another approves it;
 * the PIX is sent exactly once (a crash between the PSP's answer and storing it sends nothing
 * twice); the PSP's confirmation makes it PAID with its endToEndId and posts the cash out; a
 * refused PIX leaves the amount owed and visible, and is sent again to the next approved key.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSettlementPayouts, settlementPayoutKey } from '../../../src/modules/settlement-payouts/payouts.ts';
import { TestClock, type TestContext, type TestMerchant, createTestContext, expectErrorBody } from '../../helpers/app.ts';
import { operatorsOf, type SignedInOperator } from '../../helpers/operators.ts';
import { type Json, NOON_SP, ledgerFixture } from '../ledger/helpers.ts';

const clock = new TestClock(new Date(NOON_SP));
let ctx: TestContext;
const { call, feeMerchant, completedPayin, unbalancedEntries } = ledgerFixture(() => ctx);
let ops: ReturnType<typeof operatorsOf>;
let finance: SignedInOperator;
let admin: SignedInOperator;
let viewer: SignedInOperator;

beforeAll(async () => {
  ctx = await createTestContext({}, { clock });
  ops = operatorsOf(ctx.app, clock, 'settlepix');
  finance = await ops.signedIn('FINANCE');
  admin = await ops.signedIn('ADMIN');
  viewer = await ops.signedIn('VIEWER');
});
afterAll(() => ctx?.close());
beforeEach(() => clock.set(NOON_SP));

const db = () => ctx.database.db;
const payouts = () => ctx.app.services.settlementPayouts;

/** A merchant with one settlement of `amount` × 1 % (its payin's merchant fee), made now. */
async function settled(name: string, amountBrl: number): Promise<{ merchant: TestMerchant; settlement: Json }> {
  const { merchant, receiverId } = await feeMerchant(name);
  await completedPayin(merchant, receiverId, amountBrl);
  clock.advance(1000);
  const run = (await call('POST', '/sandbox/settlements/run', merchant, {})).json();
  expect(run.settlements).toHaveLength(1);
  return { merchant, settlement: run.settlements[0] };
}

/** One operator asks for the key, another approves it. */
async function approveKey(merchant: TestMerchant, key: { pixKeyType: string; pixKey: string; holderDocument: string }) {
  const asked = await ops.call('POST', `/merchants/${merchant.merchantId}/settlement-pix-key`, ops.as(finance), { ...key, reason: 'Merchant letter, ticket 42' });
  expect(asked.statusCode, asked.body).toBe(201);
  const approval = asked.json();
  expect(approval).toMatchObject({ action: 'SETTLEMENT_PIX_KEY', status: 'PENDING', merchantId: merchant.merchantId, targetType: 'settlement_pix_key' });
  const approved = await ops.call('POST', `/approvals/${approval.id}/approve`, ops.as(admin), {});
  expect(approved.statusCode, approved.body).toBe(200);
  return { approval, approved: approved.json() };
}

const settlementOf = async (merchant: TestMerchant, id: string) => (await call('GET', '/ledger/settlements', merchant)).json().settlements.find((s: Json) => s.id === id);
const sandboxPayouts = (idempotencyKey: string) =>
  sql<{ n: number }>`select count(*)::int as n from sandbox_pix_payouts where idempotency_key = ${idempotencyKey}`.execute(db()).then((r) => r.rows[0]!.n);
const accountBalance = (merchantId: string, code: string) =>
  sql<{ sum: string }>`select coalesce(sum(p.amount), 0)::text as sum from ledger_postings p join ledger_accounts a on a.id = p.account_id where a.code = ${code} and a.merchant_id = ${merchantId}`
    .execute(db())
    .then((r) => Number(r.rows[0]!.sum));

describe('settlements paid by PIX', () => {
  it('waits AWAITING_PIX_KEY, owed, until two operators set a key; then one PIX, a crash between the PSP’s answer and its storing sending nothing twice; PAID with its reference', async () => {
    const { merchant, settlement } = await settled('Loja Liquidada', 400);
    expect(settlement).toMatchObject({ amountBrl: 4, payoutStatus: 'PENDING', pixEndToEndId: null, paidAt: null });

    await payouts().runDue();
    expect(await settlementOf(merchant, settlement.id)).toMatchObject({ payoutStatus: 'AWAITING_PIX_KEY' });
    const waiting = (await call('GET', '/ledger/balances', merchant)).json().settlements;
    expect(waiting).toMatchObject({ count: 1, totalBrl: '4.00', unpaidBrl: '4.00', latest: { id: settlement.id, payoutStatus: 'AWAITING_PIX_KEY' } });
    expect((await call('GET', '/ledger/settlement-pix-key', merchant)).json()).toEqual({ settlementPixKey: null });
    const unpaid = (await ops.call('GET', `/settlements?merchantId=${merchant.merchantId}&payoutStatus=AWAITING_PIX_KEY`, ops.as(viewer))).json();
    expect(unpaid).toMatchObject({ data: [{ id: settlement.id, merchantName: 'Loja Liquidada', payoutStatus: 'AWAITING_PIX_KEY' }], unpaid: { count: 1, amountBrl: '4.00' } });

    // Refused: a viewer, the admin token, an invalid key, a CPF key that is not its holder's document.
    const key = { pixKeyType: 'EMAIL', pixKey: 'financeiro@loja.example.com', holderDocument: '11.222.333/0001-81' };
    expectErrorBody(await ops.call('POST', `/merchants/${merchant.merchantId}/settlement-pix-key`, ops.as(viewer), { ...key, reason: 'a viewer tries' }), 403, 'FORBIDDEN');
    expectErrorBody(await ops.call('POST', `/merchants/${merchant.merchantId}/settlement-pix-key`, ops.as(finance), { ...key, pixKey: 'not an email', reason: 'typo' }), 400, 'VALIDATION_ERROR');
    expectErrorBody(await ops.call('POST', `/merchants/${merchant.merchantId}/settlement-pix-key`, ops.as(finance), { pixKeyType: 'CPF', pixKey: '52998224725', holderDocument: '11222333000181', reason: 'someone else’s CPF' }), 400, 'VALIDATION_ERROR');

    // One operator alone moves nothing: the asker cannot approve.
    const asked = (await ops.call('POST', `/merchants/${merchant.merchantId}/settlement-pix-key`, ops.as(finance), { ...key, reason: 'Merchant letter, ticket 41' })).json();
    const own = await ops.call('POST', `/approvals/${asked.id}/approve`, ops.as(finance), {});
    expectErrorBody(own, 403, 'FORBIDDEN');
    expect(own.json().details).toEqual({ reason: 'OWN_PROPOSAL' });
    await payouts().runDue();
    expect((await settlementOf(merchant, settlement.id)).payoutStatus).toBe('AWAITING_PIX_KEY');
    // The key is sealed at rest.
    const stored = await db().selectFrom('settlement_pix_keys').select(['pix_key', 'holder_document', 'status']).where('merchant_id', '=', merchant.merchantId).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ status: 'PENDING', pix_key: expect.stringMatching(/^pd\d+:/), holder_document: expect.stringMatching(/^pd\d+:/) });

    const approved = await ops.call('POST', `/approvals/${asked.id}/approve`, ops.as(admin), { note: 'Called the merchant back' });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().result).toMatchObject({ key: { status: 'ACTIVE', pixKey: 'fin***com', holderDocument: '**.222.333/****-**' }, requeuedSettlements: [settlement.id] });
    expect((await call('GET', '/ledger/settlement-pix-key', merchant)).json().settlementPixKey).toMatchObject({ pixKeyType: 'EMAIL', pixKey: 'financeiro@loja.example.com', status: 'ACTIVE' });

    // The PSP takes the PIX, and the worker dies before storing its answer: SENDING stays.
    const crashing = createSettlementPayouts({
      db: db(),
      clock,
      ledger: ctx.app.services.ledger,
      personalData: ctx.app.services.personalData,
      pix: {
        sendPix: async (input) => {
          await ctx.app.services.adapters.pix.sendPix(input);
          throw new Error('worker killed after the PSP answered');
        },
        getPayout: (id) => ctx.app.services.adapters.pix.getPayout(id),
      },
    });
    await crashing.runDue();
    const idempotencyKey = settlementPayoutKey(settlement.id, 0);
    expect(await db().selectFrom('settlements').select(['payout_status', 'payout_idempotency_key', 'provider_transaction_id']).where('id', '=', settlement.id).executeTakeFirstOrThrow()).toEqual({
      payout_status: 'SENDING',
      payout_idempotency_key: idempotencyKey,
      provider_transaction_id: null,
    });
    expect(await sandboxPayouts(idempotencyKey)).toBe(1);

    // The retry (after its backoff) asks the PSP under the same key: the same PIX, not a second one.
    clock.advance(5_000);
    await payouts().runDue();
    expect((await settlementOf(merchant, settlement.id)).payoutStatus).toBe('SENT');
    expect(await sandboxPayouts(idempotencyKey)).toBe(1);
    const sent = await db().selectFrom('sandbox_pix_payouts').select(['pix_key', 'amount_brl']).where('idempotency_key', '=', idempotencyKey).executeTakeFirstOrThrow();
    expect(sent.pix_key).toBe('financeiro@loja.example.com');
    expect(Number(sent.amount_brl)).toBe(4);

    // The PSP confirms (its notification, through the orders' entry point): PAID with the reference.
    await ctx.app.services.sandbox.settlePass();
    const paid = await settlementOf(merchant, settlement.id);
    expect(paid).toMatchObject({ payoutStatus: 'PAID', pixEndToEndId: expect.stringMatching(/^E/), paidAt: clock.now().toISOString() });
    const balances = (await call('GET', '/ledger/balances', merchant)).json().settlements;
    expect(balances).toMatchObject({ totalBrl: '4.00', unpaidBrl: '0.00', latest: { id: settlement.id, payoutStatus: 'PAID', pixEndToEndId: paid.pixEndToEndId } });
    expect(await accountBalance(merchant.merchantId, 'merchant_settlements')).toBe(0);
    const entries = (await call('GET', '/ledger/entries?settled=false', merchant)).json().entries.filter((e: Json) => e.referenceId === settlement.id);
    expect(entries.map((e: Json) => e.kind).sort()).toEqual(['SETTLEMENT', 'SETTLEMENT_PAID']);
    expect(await unbalancedEntries()).toEqual([]);

    // A repeated notification or a later pass changes nothing, sends nothing.
    clock.advance(60_000);
    await payouts().runDue();
    await ctx.app.services.sandbox.settlePass();
    expect(await sandboxPayouts(idempotencyKey)).toBe(1);
    expect((await settlementOf(merchant, settlement.id)).pixEndToEndId).toBe(paid.pixEndToEndId);
  });

  it('a refused PIX leaves the amount owed and visible; a new key approved sends it again under the next attempt, then PAID', async () => {
    const { merchant, settlement } = await settled('Loja Recusada', 300);
    const { approved } = await approveKey(merchant, { pixKeyType: 'CNPJ', pixKey: '11.222.333/0001-81', holderDocument: '11222333000181' });
    expect(approved.result.requeuedSettlements).toEqual([]);
    await ctx.app.services.adapters.sandbox.pix.armFailure('PAYOUT', settlementPayoutKey(settlement.id, 0), 'Conta destino encerrada');
    await payouts().runDue();
    expect((await settlementOf(merchant, settlement.id)).payoutStatus).toBe('SENT');
    await ctx.app.services.sandbox.settlePass();

    const failed = await settlementOf(merchant, settlement.id);
    expect(failed).toMatchObject({ payoutStatus: 'FAILED', pixEndToEndId: null, payoutFailureReason: 'PIX refused: Conta destino encerrada' });
    expect((await call('GET', '/ledger/balances', merchant)).json().settlements).toMatchObject({ unpaidBrl: '3.00', latest: { payoutStatus: 'FAILED' } });
    expect(await accountBalance(merchant.merchantId, 'merchant_settlements')).toBe(-3);
    // Nothing more is sent for it while no new key is approved.
    clock.advance(60_000);
    await payouts().runDue();
    expect((await settlementOf(merchant, settlement.id)).payoutStatus).toBe('FAILED');

    const second = await approveKey(merchant, { pixKeyType: 'EVP', pixKey: '123e4567-e89b-42d3-a456-426614174000', holderDocument: '11222333000181' });
    expect(second.approved.result.requeuedSettlements).toEqual([settlement.id]);
    const keys = (await ops.call('GET', `/merchants/${merchant.merchantId}/settlement-pix-keys`, ops.as(viewer))).json().data;
    expect(keys.map((k: Json) => [k.pixKeyType, k.status])).toEqual([
      ['EVP', 'ACTIVE'],
      ['CNPJ', 'SUPERSEDED'],
    ]);
    await payouts().runDue();
    expect(await sandboxPayouts(settlementPayoutKey(settlement.id, 1))).toBe(1);
    await ctx.app.services.sandbox.settlePass();
    expect(await settlementOf(merchant, settlement.id)).toMatchObject({ payoutStatus: 'PAID', pixEndToEndId: expect.stringMatching(/^E/), payoutFailureReason: null });
    expect(await accountBalance(merchant.merchantId, 'merchant_settlements')).toBe(0);
    expect(await unbalancedEntries()).toEqual([]);
  });

  it('a settlement made while a key is approved is paid by the next pass', async () => {
    const { merchant, receiverId } = await feeMerchant('Loja Com Chave');
    await approveKey(merchant, { pixKeyType: 'PHONE', pixKey: '+5511987654321', holderDocument: '52998224725' });
    await completedPayin(merchant, receiverId, 100);
    clock.advance(1000);
    const [settlement] = (await call('POST', '/sandbox/settlements/run', merchant, {})).json().settlements;
    await payouts().runDue();
    await ctx.app.services.sandbox.settlePass();
    expect(await settlementOf(merchant, settlement.id)).toMatchObject({ payoutStatus: 'PAID', amountBrl: 1 });
  });
});
