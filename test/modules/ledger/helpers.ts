/**
 * The ledger's tests drive orders to their end through the sandbox: a merchant with a 1 %
 * merchant fee and an ACTIVE receiver, completed payins, and the worker passes run by hand. A
 * TestClock holds time at 12:00 in São Paulo unless a test moves it.
 */
import { sql } from 'kysely';
import type { TestContext, TestMerchant } from '../../helpers/app.ts';
import { type Json, SOLANA_WALLET, callAs, createActiveReceiver, setMerchantFee } from '../../helpers/factories.ts';

/** 12:00 on 2026-11-23 in São Paulo: outside the night window. */
export const NOON_SP = '2026-11-23T15:00:00.000Z';
export type { Json };

export function ledgerFixture(getCtx: () => TestContext) {
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, who: TestMerchant, payload?: unknown) => callAs(getCtx(), who, method, url, payload);

  /** A merchant with a 1 % merchant fee on both order types, and an active receiver. */
  async function feeMerchant(name: string) {
    const ctx = getCtx();
    const merchant = await ctx.createMerchant(name);
    for (const type of ['PAYIN', 'PAYOUT'] as const) await setMerchantFee(ctx, merchant, type, 0.01);
    const receiver = await createActiveReceiver(ctx, merchant, { name: 'Ana', email: 'ana@example.com', walletAddress: SOLANA_WALLET });
    return { merchant, receiverId: receiver.id as string };
  }

  /** Runs the lifecycle and the sandbox settlement passes until every due step has happened. */
  const drive = async () => {
    const { services } = getCtx().app;
    for (let i = 0; i < 5; i++) {
      await services.orderSteps.runDuePass();
      await services.sandbox.settlePass();
    }
  };

  /** A payin created, paid by PIX (sandbox) and driven to COMPLETED; answers the order. */
  async function completedPayin(merchant: TestMerchant, receiverId: string, amountBrl: number): Promise<Json> {
    const order = (await call('POST', '/payin', merchant, { receiverId, amountBrl })).json();
    await call('POST', `/sandbox/orders/${order.id}/pix-payment`, merchant, {});
    await drive();
    return (await call('GET', `/orders/${order.id}`, merchant)).json();
  }

  /** Every (entry, currency) whose postings do not sum to zero: none, ever. */
  const unbalancedEntries = () =>
    sql<{ entry_id: string }>`select entry_id from ledger_postings group by entry_id, currency having sum(amount) <> 0`.execute(getCtx().database.db).then((r) => r.rows);

  return { call, feeMerchant, drive, completedPayin, unbalancedEntries };
}
