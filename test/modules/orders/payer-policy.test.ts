/**
 * Who paid (issue 30, docs/architecture/compliance-policies.md): the PSP's report of the payer is
 * kept on the order, and under the merchant's FIRST_PARTY payer policy a PIX from anyone but the
 * receiver (or from a payer the PSP does not report) is returned and the order ends REFUNDED. On
 * the sandbox PSP, whose "pay" names the payer (by default the receiver).
 */
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestMerchant } from '../../helpers/app.ts';
import { randomCnpj, randomCpf } from '../../helpers/documents.ts';
import { type Json, ordersTest } from './helpers.ts';
import { confirmPixNotification } from '../../../src/modules/orders/psp/pix-confirmation.ts';
import type { ReceivedPix } from '../../../src/adapters/pix/port.ts';
import { maskDocument } from '../../../src/lib/br-documents.ts';

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

describe('payer policy', () => {
  const t = ordersTest();
  const setPolicies = async (merchant: TestMerchant, body: Json) => {
    const response = await t.ctx.app.inject({ method: 'PUT', url: `/api/v1/admin/merchants/${merchant.merchantId}/policies`, headers: admin, payload: { reason: 'compliance review', ...body } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Json;
  };
  const pay = async (merchant: TestMerchant, order: Json, body: Json = {}) => {
    const response = await t.call('POST', `/sandbox/orders/${order.id}/pix-payment`, merchant, body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Json;
  };
  const order = async (merchant: TestMerchant, id: string) => (await t.call('GET', `/orders/${id}`, merchant)).json() as Json;
  // The payer's document and name are sealed at rest (orders/sealed-columns.ts): compared opened.
  const stored = async (id: string) => {
    const row = await t.ctx.database.db.selectFrom('orders').select(['payer_document_type', 'payer_document', 'payer_name', 'pix_end_to_end_id', 'refund_id']).where('id', '=', id).executeTakeFirstOrThrow();
    const pd = t.ctx.app.services.personalData;
    return { ...row, payer_document: pd.openNullable('document', row.payer_document), payer_name: pd.openNullable('name', row.payer_name) };
  };

  it('defaults to ANY; an operator sets FIRST_PARTY, audited with the reason (kyc.review permission)', async () => {
    const { merchant } = await t.merchantWithReceiver();
    const read = await t.ctx.app.inject({ method: 'GET', url: `/api/v1/admin/merchants/${merchant.merchantId}/policies`, headers: admin });
    expect(read.json()).toMatchObject({ merchantId: merchant.merchantId, destinationPolicy: 'RECEIVER_ONLY', payerPolicy: 'ANY', walletOwnershipPolicy: 'ALLOW', unprovenWalletLimitBrl: null });
    expect(await setPolicies(merchant, { payerPolicy: 'FIRST_PARTY' })).toMatchObject({ payerPolicy: 'FIRST_PARTY' });
    await setPolicies(merchant, { payerPolicy: 'FIRST_PARTY' }); // a repeat changes nothing
    const audit = await t.ctx.database.db.selectFrom('admin_audit_log').selectAll().where('target_id', '=', merchant.merchantId).where('action', '=', 'merchant.payer_policy').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.details).toMatchObject({ from: 'ANY', to: 'FIRST_PARTY', reason: 'compliance review' });
  });

  it('FIRST_PARTY: a third-party PIX is returned (refund at the PSP) and the order ends REFUNDED with a masked reason', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    await setPolicies(merchant, { payerPolicy: 'FIRST_PARTY' });
    const payin = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 100 });
    const thirdParty = randomCpf();
    const paid = await pay(merchant, payin, { payer: { document: thirdParty, name: 'Carlos Terceiro' } });
    expect(paid.status).toBe('REFUNDING');
    await t.drive();
    const ended = await order(merchant, payin.id);
    expect(ended.status).toBe('REFUNDED');
    expect(ended.failureReason).toBe(`PIX paid by a third party (CPF ${maskDocument(thirdParty)}): the merchant accepts only PIX from the receiver`);
    expect(ended.failureReason).not.toContain(thirdParty);
    // The payer is kept on the order (the admin detail shows it); the PSP holds the refund of the whole PIX.
    const row = await stored(payin.id);
    expect(row).toMatchObject({ payer_document_type: 'CPF', payer_document: thirdParty, payer_name: 'Carlos Terceiro' });
    const refund = await t.ctx.database.db.selectFrom('sandbox_pix_refunds').selectAll().where('refund_id', '=', row.refund_id!).executeTakeFirstOrThrow();
    expect(refund).toMatchObject({ end_to_end_id: row.pix_end_to_end_id, status: 'DEVOLVIDO', nature: 'ORIGINAL' });
    expect(Number(refund.amount_brl)).toBe(100);
    const events = (await t.events(payin.id)).map((e) => e.event_type);
    expect(events).toEqual(expect.arrayContaining(['order.refunding', 'order.refunded']));
    expect(events).not.toContain('order.payment_received');
    const detail = await t.ctx.app.inject({ method: 'GET', url: `/api/v1/admin/orders/${payin.id}`, headers: admin });
    expect(detail.json().payer).toEqual({ documentType: 'CPF', document: thirdParty, name: 'Carlos Terceiro' });
    // Travel-rule data: the register names the third party as the PIX's originator and the refund's beneficiary.
    // Names and documents are sealed at rest (src/lib/personal-data.ts): compared opened.
    const pd = t.ctx.app.services.personalData;
    const register = (await t.ctx.database.db.selectFrom('operations_register').selectAll().where('order_id', '=', payin.id).execute()).map((r) => ({
      ...r,
      originator_document: pd.openNullable('document', r.originator_document),
      beneficiary_document: pd.openNullable('document', r.beneficiary_document),
      originator_name: pd.openNullable('name', r.originator_name),
      beneficiary_name: pd.openNullable('name', r.beneficiary_name),
    }));
    expect(register.find((r) => r.movement === 'PIX_IN')).toMatchObject({ originator_document: thirdParty, originator_name: 'Carlos Terceiro', beneficiary_document: receiver.document });
    expect(register.find((r) => r.movement === 'PIX_REFUND')).toMatchObject({ beneficiary_document: thirdParty, originator_document: receiver.document });
  });

  it('FIRST_PARTY: the receiver paying completes; a PSP that does not report the payer means a refund with its own reason', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    await setPolicies(merchant, { payerPolicy: 'FIRST_PARTY' });
    const own = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 50 });
    await pay(merchant, own); // the sandbox's default payer: the receiver (the charge's devedor)
    await t.drive();
    expect((await order(merchant, own.id)).status).toBe('COMPLETED');
    expect(await stored(own.id)).toMatchObject({ payer_document_type: 'CPF', payer_document: receiver.document, payer_name: receiver.name });

    const unreported = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 51 });
    await pay(merchant, unreported, { payer: null });
    await t.drive();
    const ended = await order(merchant, unreported.id);
    expect(ended.status).toBe('REFUNDED');
    expect(ended.failureReason).toMatch(/^PIX payer not reported by the PIX provider/);
    expect(await stored(unreported.id)).toMatchObject({ payer_document: null });
  });

  it('ANY: the same third-party PIX completes, its payer kept', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const payin = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 100 });
    const company = randomCnpj();
    await pay(merchant, payin, { payer: { document: company, name: 'Empresa Terceira Ltda' } });
    await t.drive();
    expect((await order(merchant, payin.id)).status).toBe('COMPLETED');
    expect(await stored(payin.id)).toMatchObject({ payer_document_type: 'CNPJ', payer_document: company });
  });

  it('the sandbox pay refuses a payer document that is not a valid CPF or CNPJ', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const payin = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 10 });
    const refused = await t.call('POST', `/sandbox/orders/${payin.id}/pix-payment`, merchant, { payer: { document: '12345678900', name: 'X' } });
    expect(refused.statusCode).toBe(400);
  });
});

describe('a posted callback cannot choose the payer (pix-confirmation applies the PSP record)', () => {
  const e2e = 'E12345678202611231500aaaaaaaaaaa';
  const txid = 'a'.repeat(30);
  const record = (payer?: ReceivedPix['payer']): ReceivedPix => ({ endToEndId: e2e, txid, amountBrl: '100.00', paidAt: new Date('2026-11-23T15:00:00Z'), ...(payer ? { payer } : {}) });
  const lookups = (found: ReceivedPix) => ({
    getReceivedPix: async () => found,
    getChargePayment: async () => found,
    getRefund: async () => null,
    getPayout: async () => null,
  });
  const thirdParty = { documentType: 'CPF' as const, document: '52998224725', name: 'Carlos Terceiro' };
  const receiverPayer = { documentType: 'CPF' as const, document: '11144477735', name: 'Joana Souza' };
  const claimed = (payer?: ReceivedPix['payer']) => ({ kind: 'charge_paid' as const, txid, endToEndId: e2e, amountBrl: '100.00', paidAt: new Date(), ...(payer ? { payer } : {}) });

  it('a body naming the receiver as payer, where the PSP has a third party, is refused whole', async () => {
    const confirmation = await confirmPixNotification(lookups(record(thirdParty)), claimed(receiverPayer));
    expect(confirmation.confirmed).toBe(false);
  });

  it('a body naming no payer gets the PSP record’s payer; a payer named where the PSP reports none is refused', async () => {
    const confirmation = await confirmPixNotification(lookups(record(thirdParty)), claimed());
    expect(confirmation).toMatchObject({ confirmed: true, notification: { payer: thirdParty } });
    expect((await confirmPixNotification(lookups(record()), claimed(receiverPayer))).confirmed).toBe(false);
  });
});
