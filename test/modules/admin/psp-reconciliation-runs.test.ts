/**
 * GET /admin/reconciliation/psp-runs: every pass of the PIX reconciliation is on record with its
 * drift (outcomes the PSP had that no notification told), newest first, or with the error that
 * stopped it.
 */
import { describe, expect, it } from 'vitest';
import { expectErrorBody } from '../../helpers/app.ts';
import { adminHeaders } from '../../helpers/factories.ts';
import { ordersTest } from '../orders/helpers.ts';

const t = ordersTest();
const runs = async (query = '') => {
  const response = await t.ctx.app.inject({ method: 'GET', url: `/api/v1/admin/reconciliation/psp-runs${query}`, headers: adminHeaders });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as Array<Record<string, unknown>>;
};

describe('the PIX reconciliation passes on record', () => {
  it('records each pass with its drift, newest first', async () => {
    const services = t.ctx.app.services;
    await services.reconciliation.runPass();
    const { merchant, receiver } = await t.merchantWithReceiver();
    const order = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 30 });
    const txid = (await t.ctx.database.db.selectFrom('orders').select('pix_txid').where('id', '=', order.id).executeTakeFirstOrThrow()).pix_txid!;
    // Paid at the PSP; its notification never reaches us.
    await services.adapters.sandbox.pix.simulateChargePayment(txid);
    t.clock.advance(1000);
    await services.reconciliation.runPass();

    const [last, before] = await runs('?limit=2');
    expect(last).toMatchObject({ chargesApplied: 1, refundsApplied: 0, payoutsApplied: 0, drift: 1, error: null });
    expect(before).toMatchObject({ drift: 0, error: null });
    expect(Date.parse(String(last!.startedAt))).toBeGreaterThan(Date.parse(String(before!.startedAt)));
  });

  it('records a pass the PSP stopped, with its error', async () => {
    const pix = t.ctx.app.services.adapters.sandbox.pix;
    const listReceivedPix = pix.listReceivedPix;
    pix.listReceivedPix = () => Promise.reject(new Error('PSP unreachable (test)'));
    try {
      t.clock.advance(1000);
      await expect(t.ctx.app.services.reconciliation.runPass()).rejects.toThrow('PSP unreachable');
    } finally {
      pix.listReceivedPix = listReceivedPix;
    }
    expect((await runs('?limit=1'))[0]).toMatchObject({ drift: 0, error: 'PSP unreachable (test)' });
  });

  it('refuses a bad limit (400) and a merchant (403)', async () => {
    expectErrorBody(await t.ctx.app.inject({ method: 'GET', url: '/api/v1/admin/reconciliation/psp-runs?limit=0', headers: adminHeaders }), 400, 'VALIDATION_ERROR');
    const { merchant } = await t.merchantWithReceiver();
    expectErrorBody(await t.ctx.app.inject({ method: 'GET', url: '/api/v1/admin/reconciliation/psp-runs', headers: merchant.headers }), 403, 'FORBIDDEN');
  });
});
