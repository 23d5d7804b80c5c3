import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectErrorBody } from '../../helpers/app.ts';
import { type ReceiversFixture, createReceiversFixture } from './helpers.ts';

describe('receivers: KYC security', () => {
  let ctx: ReceiversFixture['ctx'];
  let other: ReceiversFixture['other'];
  let call: ReceiversFixture['call'];
  let createReceiver: ReceiversFixture['createReceiver'];

  beforeAll(async () => {
    ({ ctx, other, call, createReceiver } = await createReceiversFixture());
  });
  afterAll(() => ctx.close());

  describe('KYC', () => {
    const pfSubmission = { birthDate: '1990-05-17', motherName: 'Ana Silva', documents: [{ type: 'ID_FRONT', reference: 's3://kyc/1' }, { type: 'SELFIE', reference: 's3://kyc/2' }] };

    it('another merchant cannot submit or see KYC of a receiver (404)', async () => {
      const receiver = await createReceiver();
      expectErrorBody(await call('POST', `/receivers/${receiver.id}/kyc`, pfSubmission, other), 404, 'NOT_FOUND');
    });
  });
});
