import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, expectErrorBody } from '../../helpers/app.ts';
import { randomCnpj } from '../../helpers/documents.ts';
import { type ReceiversFixture, createReceiversFixture } from './helpers.ts';

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

describe('receivers: KYC errors', () => {
  let ctx: ReceiversFixture['ctx'];
  let call: ReceiversFixture['call'];
  let createReceiver: ReceiversFixture['createReceiver'];

  beforeAll(async () => {
    ({ ctx, call, createReceiver } = await createReceiversFixture());
  });
  afterAll(() => ctx.close());

  describe('KYC', () => {
    const pfSubmission = { birthDate: '1990-05-17', motherName: 'Ana Silva', documents: [{ type: 'ID_FRONT', reference: 's3://kyc/1' }, { type: 'SELFIE', reference: 's3://kyc/2' }] };
    const eventsFor = (receiverId: string) =>
      ctx.database.db.selectFrom('events').selectAll().where(({ eb }) => eb.ref('payload', '->>').key('receiverId' as never), '=', receiverId).orderBy('created_at').execute();

    const adminCall = (url: string, payload?: object) =>
      ctx.app.inject({ method: 'POST', url: `/api/v1/admin${url}`, headers: admin, ...(payload ? { payload } : {}) });

    it('operators cannot decide before a submission', async () => {
      const receiver = await createReceiver();
      expectErrorBody(await adminCall(`/receivers/${receiver.id}/kyc/approve`), 409, 'CONFLICT');
      expectErrorBody(await adminCall(`/receivers/${receiver.id}/kyc/start-review`), 409, 'CONFLICT');
      expect(await eventsFor(receiver.id)).toHaveLength(0);
    });

    it.each([
      ['PF without birthDate', 'PF', { documents: pfSubmission.documents }, 'body.birthDate'],
      ['PF with incorporationDate', 'PF', { ...pfSubmission, incorporationDate: '2000-01-01' }, 'body.incorporationDate'],
      ['PJ with birthDate', 'PJ', { ...pfSubmission, motherName: undefined }, 'body.birthDate'],
      ['a future date', 'PF', { ...pfSubmission, birthDate: '2999-01-01' }, 'body.birthDate'],
      ['an impossible date', 'PF', { ...pfSubmission, birthDate: '1990-02-30' }, 'body.birthDate'],
      ['no documents', 'PF', { ...pfSubmission, documents: [] }, 'body.documents'],
      ['an unknown document type', 'PF', { ...pfSubmission, documents: [{ type: 'PASSPORT', reference: 'x' }] }, 'body.documents.0.type'],
    ])('refuses a submission with %s', async (_case, type, body, field) => {
      const receiver = await createReceiver(type === 'PJ' ? { type: 'PJ', document: randomCnpj() } : {});
      expect(expectErrorBody(await call('POST', `/receivers/${receiver.id}/kyc`, body), 400, 'VALIDATION_ERROR').details).toHaveProperty([field]);
      expect((await call('GET', `/receivers/${receiver.id}`)).json().kycStatus).toBe('PENDING');
    });
  });
});
