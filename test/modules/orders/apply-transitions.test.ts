/**
 * applyTransitions (orders/lifecycle/transitions.ts): several orders moved in one transaction with
 * one statement per kind of write, each still guarded on its own. An order another transaction
 * moved first, or one under another claim, is left as it is (undefined in its place) and gives no
 * limit back; the others move, each with its own movement record, ledger entry and event.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock, type TestContext, createTestContext } from '../../helpers/app.ts';
import { NOON_SP, WALLET } from './helpers.ts';
import { randomCpf } from '../../helpers/documents.ts';
import { applyTransition, applyTransitions } from '../../../src/modules/orders/lifecycle/transitions.ts';
import { inTransaction } from '../../../src/platform/commit-signals.ts';
import type { OrderRow } from '../../../src/modules/orders/tables.ts';

describe('applyTransitions', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({}, { clock: new TestClock(new Date(NOON_SP)) });
  });
  afterAll(() => ctx.close());

  /** A merchant's PAYINs awaiting payment, as stored (in the order created), and the transitions' context. */
  async function awaitingPayins(merchantName: string, count: number) {
    const merchant = await ctx.createMerchant(merchantName);
    const call = (url: string, payload: object) => ctx.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: merchant.headers, payload });
    const receiver = (await call('/receivers', { type: 'PF', document: randomCpf(), name: 'Ana Lima', email: 'ana@example.com', walletAddress: WALLET })).json();
    await call(`/sandbox/receivers/${receiver.id}/kyc`, { decision: 'APPROVE' });
    const ids: string[] = [];
    for (let i = 0; i < count; i++) ids.push((await call('/payin', { receiverId: receiver.id, amountBrl: 10 + i })).json().id);
    const { db } = ctx.database;
    const read = async () => (await db.selectFrom('orders').selectAll().where('id', 'in', ids).execute()).sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id)) as OrderRow[];
    const { services } = ctx.app;
    return { ids, db, read, transitions: { clock: services.clock, ledger: services.ledger, personalData: services.personalData } };
  }

  it('moves each order under its own status and claim guards, in one transaction', async () => {
    const { db, read, transitions } = await awaitingPayins('Loja Lote', 4);
    const before = await read();

    // The second is moved first by someone else: the rows read before are stale for it.
    await inTransaction(db, (trx) => applyTransition(trx, transitions, before[1]!, 'EXPIRED'));
    const wrongClaim = { claimed_by: '00000000-0000-4000-8000-000000000001', claimed_until: new Date(NOON_SP) };
    const results = await inTransaction(db, (trx) =>
      applyTransitions(trx, transitions, [
        { order: before[0]!, to: 'EXPIRED' },
        { order: before[1]!, to: 'EXPIRED' },
        // Under a claim it does not hold: left alone.
        { order: before[2]!, to: 'EXPIRED', facts: { underClaim: wrongClaim } },
        { order: before[3]!, to: 'EXPIRED', facts: { underClaim: { claimed_by: before[3]!.claimed_by, claimed_until: before[3]!.claimed_until } } },
      ]),
    );
    expect(results.map((row) => row?.status)).toEqual(['EXPIRED', undefined, undefined, 'EXPIRED']);
    expect((await read()).map((o) => o.status)).toEqual(['EXPIRED', 'EXPIRED', 'AWAITING_PAYMENT', 'EXPIRED']);

    // Each moved order gave its day's limit back once (the edge's releasesLimit); the one left alone did not.
    expect((await read()).map((o) => o.limit_released)).toEqual([true, true, false, true]);
  });

  it('writes each moved order its own movement record, ledger entry and event, as applyTransition alone would', async () => {
    const { ids, db, read, transitions } = await awaitingPayins('Loja Lote Pago', 3);
    const orders = await read();
    const paid = (o: OrderRow) => ({ order: o, to: 'PAYMENT_RECEIVED' as const, facts: { changes: { pix_end_to_end_id: `E${o.id.replaceAll('-', '')}` }, moved: { amount: o.amount_brl, currency: 'BRL', txHash: `E${o.id.replaceAll('-', '')}` } } });
    const results = await inTransaction(db, (trx) => applyTransitions(trx, transitions, orders.map(paid)));
    expect(results.map((row) => row?.status)).toEqual(['PAYMENT_RECEIVED', 'PAYMENT_RECEIVED', 'PAYMENT_RECEIVED']);

    const perOrder = async (table: 'order_transactions' | 'ledger_entries' | 'events') => {
      if (table === 'order_transactions') return (await db.selectFrom(table).select('order_id as id').where('order_id', 'in', ids).execute()).map((r) => r.id).sort();
      if (table === 'ledger_entries') return (await db.selectFrom(table).select('reference_id as id').where('reference_id', 'in', ids).execute()).map((r) => r.id).sort();
      return (await db.selectFrom(table).select('payload').where('event_type', '=', 'order.payment_received').execute())
        .map((e) => (typeof e.payload === 'string' ? JSON.parse(e.payload) : e.payload).orderId as string)
        .filter((id) => ids.includes(id))
        .sort();
    };
    expect(await perOrder('order_transactions')).toEqual([...ids].sort());
    expect(await perOrder('ledger_entries')).toEqual([...ids].sort());
    expect(await perOrder('events')).toEqual([...ids].sort());
  });

  it('moves an order through a status in one UPDATE of its row, with both edges\' effects and log lines', async () => {
    const { ids, db, read, transitions } = await awaitingPayins('Loja Lote Direto', 2);
    const paid = (o: OrderRow) => ({ order: o, to: 'PAYMENT_RECEIVED' as const, facts: { changes: { pix_end_to_end_id: `E${o.id.replaceAll('-', '')}` }, moved: { amount: o.amount_brl, currency: 'BRL', txHash: `E${o.id.replaceAll('-', '')}` } } });
    const awaiting = await read();
    await inTransaction(db, (trx) => applyTransitions(trx, transitions, awaiting.map(paid)));
    const lines: Array<{ orderId: string; from: string; to: string }> = [];
    const log = { info: (line: { orderId: string; from: string; to: string }) => lines.push(line) };
    const txHash = '5'.repeat(88);
    const transfer = (o: OrderRow) => ({ order: o, to: 'TRANSFERRING' as const, through: 'SWAPPING' as const, facts: { changes: { tx_hash: txHash }, moved: { amount: o.amount_token, currency: o.token, chain: o.chain, txHash } } });
    const paidRows = await read();
    const { results, rowUpdates } = await inTransaction(db, async (trx) => {
      const updatesSoFar = async () => (await sql<{ n: string }>`select n_tup_upd::text as n from pg_stat_xact_user_tables where relname = 'orders'`.execute(trx)).rows[0]!.n;
      const before = Number(await updatesSoFar());
      const results = await applyTransitions(trx, { ...transitions, log }, paidRows.map(transfer));
      return { results, rowUpdates: Number(await updatesSoFar()) - before };
    });
    expect(results.map((row) => row?.status)).toEqual(['TRANSFERRING', 'TRANSFERRING']);
    expect(rowUpdates).toBe(2);
    expect(lines.map((l) => [l.orderId, l.from, l.to])).toEqual(ids.flatMap((id) => [[id, 'PAYMENT_RECEIVED', 'SWAPPING'], [id, 'SWAPPING', 'TRANSFERRING']]));
    const movements = await db.selectFrom('order_transactions').select(['type', 'status', 'tx_hash']).where('order_id', 'in', ids).where('type', '=', 'CHAIN_TRANSFER').execute();
    expect(movements).toEqual(ids.map(() => ({ type: 'CHAIN_TRANSFER', status: 'PENDING', tx_hash: txHash })));
    // A path the state machine does not have is refused before anything is written.
    const [first] = await read();
    await expect(inTransaction(db, (trx) => applyTransitions(trx, transitions, [{ order: first!, to: 'COMPLETED', through: 'PAYMENT_RECEIVED' }]))).rejects.toThrow(/illegal/);
  });

  it('refuses an order moved twice in one call, before writing anything', async () => {
    const { db, read, transitions } = await awaitingPayins('Loja Lote Duplo', 2);
    const [first, second] = await read();
    await expect(inTransaction(db, (trx) => applyTransitions(trx, transitions, [{ order: first!, to: 'EXPIRED' }, { order: second!, to: 'EXPIRED' }, { order: first!, to: 'EXPIRED' }]))).rejects.toThrow(/twice/);
    expect((await read()).map((o) => o.status)).toEqual(['AWAITING_PAYMENT', 'AWAITING_PAYMENT']);
  });
});
