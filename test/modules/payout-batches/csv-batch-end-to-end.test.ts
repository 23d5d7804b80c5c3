/**
 * Issue 43's "must show" for bulk payouts, in the sandbox: a 200-line batch uploaded as CSV by an
 * OWNER, above the merchant's threshold so an ADMIN approves it, funded by one deposit; 200 PIX
 * sent, one refused by the PSP (armed failure) reported in the batch and its CSV report while the
 * other 199 complete.
 */
import { describe, expect, it } from 'vitest';
import type { TestMerchant } from '../../helpers/app.ts';
import { type Person, peopleOf } from '../../helpers/people.ts';
import { type Json, ordersTest } from '../orders/helpers.ts';

const asWho = (person: Person): TestMerchant => ({ headers: { cookie: person.cookie, 'x-csrf-token': person.csrf } }) as unknown as TestMerchant;

/** 200 (issue 43's figure); PAYOUT_BATCH_LINES=1000 measures the bench's 1,000-line batch (the wall time is printed). */
const LINES = Number(process.env.PAYOUT_BATCH_LINES ?? 200);

describe('a 200-line payout batch from CSV', () => {
  const t = ordersTest();

  it('is validated, approved by a second person, funded once, and paid: 200 PIX, one refused and reported', { timeout: 1_200_000 }, async () => {
    const merchant = await t.merchant('Folha de Pagamento');
    const receivers: Json[] = [];
    for (let i = 0; i < 20; i++) receivers.push(await t.activeReceiver(merchant));
    const people = peopleOf(t.ctx.app, merchant.merchantId, t.clock, 'csv-batch');
    const owner = await people.manager('OWNER');
    const admin = await people.manager('ADMIN');
    await t.call('PUT', '/payout-batch-settings', asWho(owner), { approvalThresholdBrl: '1000.00' });

    const lines = Array.from({ length: LINES }, (_, i) => `${receivers[i % 20]!.id},${(1 + (i % 7) * 0.5).toFixed(2)},USDC,payroll-${i + 1}`);
    const csv = ['receiverId,amountCrypto,token,externalId', ...lines].join('\r\n');
    const uploaded = await t.call('POST', '/payout-batches', asWho(owner), csv, { 'content-type': 'text/csv', 'idempotency-key': 'payroll-2026-11' });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const batch = uploaded.json();
    expect(batch).toMatchObject({ status: 'VALIDATED', itemCount: LINES, validCount: LINES, invalidCount: 0 });

    expect((await t.call('POST', `/payout-batches/${batch.id}/submit`, asWho(owner))).json().status).toBe('AWAITING_APPROVAL');
    expect((await t.call('POST', `/payout-batches/${batch.id}/approve`, asWho(owner))).statusCode).toBe(403);
    const approved = (await t.call('POST', `/payout-batches/${batch.id}/approve`, asWho(admin))).json();
    expect(approved).toMatchObject({ status: 'AWAITING_FUNDING', approvedByUserId: admin.id });

    const started = Date.now();
    const funded = (await t.call('POST', `/sandbox/payout-batches/${batch.id}/deposit`, merchant, {})).json();
    expect(funded).toMatchObject({ status: 'COMPLETED', fundedCrypto: batch.totalCrypto, heldCrypto: '0', progress: { ordered: LINES } });
    const firstPage = (await t.call('GET', `/payout-batches/${batch.id}/items?limit=100`, merchant)).json();
    const refused = firstPage.data[41];
    expect((await t.call('POST', `/sandbox/orders/${refused.orderId}/failure-injections`, merchant, { step: 'PIX_PAYOUT', reason: 'conta encerrada' })).statusCode).toBe(201);

    let progress: Json = {};
    for (let pass = 0; pass < LINES / 5; pass++) {
      await t.drive(2);
      progress = (await t.call('GET', `/payout-batches/${batch.id}`, merchant)).json().progress;
      if (progress.completed + progress.failed === LINES) break;
    }
    const wallMs = Date.now() - started;
    expect(progress).toMatchObject({ ordered: LINES, completed: LINES - 1, failed: 1 });
    console.log(`${LINES}-line batch: funding to the last PIX settled in ${wallMs} ms`);

    const sent = await t.ctx.database.db.selectFrom('sandbox_pix_payouts').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    expect(Number(sent.n)).toBe(LINES);
    const report = (await t.call('GET', `/payout-batches/${batch.id}/report`, merchant)).body.split('\r\n');
    expect(report).toHaveLength(LINES + 2);
    const failedLine = report.find((line) => line.includes(refused.orderId))!;
    expect(failedLine).toContain('FAILED');
    expect(failedLine).toContain('PIX payout refused: conta encerrada');
    expect(report.filter((line) => line.includes(',COMPLETED,'))).toHaveLength(LINES - 1);
  });
});
