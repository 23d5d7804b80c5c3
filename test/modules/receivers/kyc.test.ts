import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, expectErrorBody } from '../../helpers/app.ts';
import { randomCnpj } from '../../helpers/documents.ts';
import { type ReceiversFixture, createReceiversFixture } from './helpers.ts';

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

describe('receivers: KYC', () => {
  let ctx: ReceiversFixture['ctx'];
  let merchant: ReceiversFixture['merchant'];
  let other: ReceiversFixture['other'];
  let call: ReceiversFixture['call'];
  let createReceiver: ReceiversFixture['createReceiver'];

  beforeAll(async () => {
    ({ ctx, merchant, other, call, createReceiver } = await createReceiversFixture());
  });
  afterAll(() => ctx.close());

  describe('KYC', () => {
    const pfSubmission = { birthDate: '1990-05-17', motherName: 'Ana Silva', documents: [{ type: 'ID_FRONT', reference: 's3://kyc/1' }, { type: 'SELFIE', reference: 's3://kyc/2' }] };
    const eventsFor = (receiverId: string) =>
      ctx.database.db.selectFrom('events').selectAll().where(({ eb }) => eb.ref('payload', '->>').key('receiverId' as never), '=', receiverId).orderBy('created_at').execute();

    const adminCall = (url: string, payload?: object) =>
      ctx.app.inject({ method: 'POST', url: `/api/v1/admin${url}`, headers: admin, ...(payload ? { payload } : {}) });

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
      const rejectWithout = await call('POST', `/sandbox/receivers/${receiver.id}/kyc`, { decision: 'REJECT' });
      expect(expectErrorBody(rejectWithout, 400, 'VALIDATION_ERROR').details).toHaveProperty(['body.reason']);
      expectErrorBody(await call('POST', `/sandbox/receivers/${receiver.id}/kyc`, { decision: 'APPROVE' }, other), 404, 'NOT_FOUND');
      const approved = await call('POST', `/sandbox/receivers/${receiver.id}/kyc`, { decision: 'APPROVE' });
      expect(approved.json()).toMatchObject({ status: 'ACTIVE', kycStatus: 'APPROVED' });
      expect((await eventsFor(receiver.id)).map((e) => e.event_type)).toEqual(['receiver.kyc_approved']);
    });

    it('sandbox routes are absent when the sandbox is disabled', async () => {
      const receiver = await createReceiver();
      const app = await ctx.buildApp({ SANDBOX_ENABLED: 'false' });
      const response = await app.inject({ method: 'POST', url: `/api/v1/sandbox/receivers/${receiver.id}/kyc`, headers: merchant.headers, payload: { decision: 'APPROVE' } });
      expectErrorBody(response, 404, 'NOT_FOUND');
    });
  });
});
