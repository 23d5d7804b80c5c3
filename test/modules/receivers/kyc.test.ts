/**
 * Receiver KYC (POST /receivers/{id}/kyc, the operators' decisions, the sandbox decision),
 * happy paths: submit, review, reject with a reason the resubmission shows, approve; each
 * decision emits its event.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, type TestMerchant, createTestContext, expectErrorBody } from '../../helpers/app.ts';
import { randomCnpj } from '../../helpers/documents.ts';
import { pfSubmission, receiversFixture } from './helpers.ts';

let ctx: TestContext;
let merchant: TestMerchant;
const { call, createReceiver, adminCall, eventsFor } = receiversFixture(() => ctx, () => merchant);

beforeAll(async () => {
  ctx = await createTestContext();
  merchant = await ctx.createMerchant('Merchant A');
});
afterAll(() => ctx?.close());

describe('KYC', () => {
  it('submit → review → reject (event) → resubmit shows the reason → approve (event, ACTIVE)', async () => {
    const receiver = await createReceiver();
    const submitted = await call('POST', `/receivers/${receiver.id}/kyc`, pfSubmission);
    expect(submitted.statusCode).toBe(200);
    expect(submitted.json()).toMatchObject({ receiverId: receiver.id, kycStatus: 'SUBMITTED', previousRejectionReason: null });

    expectErrorBody(await call('POST', `/receivers/${receiver.id}/kyc`, pfSubmission), 409, 'CONFLICT');
    expect((await adminCall(`/receivers/${receiver.id}/kyc/start-review`)).json().kycStatus).toBe('UNDER_REVIEW');

    expectErrorBody(await adminCall(`/receivers/${receiver.id}/kyc/reject`, {}), 400, 'VALIDATION_ERROR');
    const rejected = await adminCall(`/receivers/${receiver.id}/kyc/reject`, { reason: 'Selfie is blurred' });
    expect(rejected.json()).toMatchObject({ kycStatus: 'REJECTED', kycRejectionReason: 'Selfie is blurred', status: 'PENDING' });

    const resubmitted = await call('POST', `/receivers/${receiver.id}/kyc`, pfSubmission);
    expect(resubmitted.json()).toMatchObject({ kycStatus: 'SUBMITTED', previousRejectionReason: 'Selfie is blurred' });

    const approved = await adminCall(`/receivers/${receiver.id}/kyc/approve`);
    expect(approved.json()).toMatchObject({ kycStatus: 'APPROVED', status: 'ACTIVE', kycRejectionReason: null });
    expectErrorBody(await adminCall(`/receivers/${receiver.id}/kyc/approve`), 409, 'CONFLICT');

    const events = await eventsFor(receiver.id);
    expect(events.map((e) => e.event_type)).toEqual(['receiver.kyc_rejected', 'receiver.kyc_approved']);
    const [rejection, approval] = events.map((e) => e.payload);
    expect(Object.keys(rejection!).sort()).toEqual(['email', 'event', 'kycRejectionReason', 'kycReviewedAt', 'kycStatus', 'name', 'receiverId', 'timestamp', 'type']);
    expect(rejection).toMatchObject({ event: 'receiver.kyc_rejected', receiverId: receiver.id, type: 'PF', name: 'Maria Silva', email: 'maria@example.com', kycStatus: 'REJECTED', kycRejectionReason: 'Selfie is blurred' });
    expect(Object.keys(approval!).sort()).toEqual(['email', 'event', 'kycReviewedAt', 'kycStatus', 'name', 'receiverId', 'timestamp', 'type']);
    expect(approval).toMatchObject({ event: 'receiver.kyc_approved', kycStatus: 'APPROVED', kycReviewedAt: approved.json().kycReviewedAt });
    expect(approval!.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(events.every((e) => e.merchant_id === merchant.merchantId)).toBe(true);
  });

  it('accepts a PJ submission with incorporationDate', async () => {
    const receiver = await createReceiver({ type: 'PJ', document: randomCnpj() });
    const response = await call('POST', `/receivers/${receiver.id}/kyc`, {
      incorporationDate: '2010-03-01',
      documents: [{ type: 'ARTICLES_OF_INCORPORATION', reference: 'doc-1' }],
    });
    expect(response.json().kycStatus).toBe('SUBMITTED');
  });

  it('sandbox: the merchant decides from PENDING through the same path, with the event', async () => {
    const receiver = await createReceiver();
    const approved = await call('POST', `/sandbox/receivers/${receiver.id}/kyc`, { decision: 'APPROVE' });
    expect(approved.json()).toMatchObject({ status: 'ACTIVE', kycStatus: 'APPROVED' });
    expect((await eventsFor(receiver.id)).map((e) => e.event_type)).toEqual(['receiver.kyc_approved']);
  });
});
