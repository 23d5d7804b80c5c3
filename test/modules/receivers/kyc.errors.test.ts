/**
 * Receiver KYC, errors: operators cannot decide before a submission (409), submissions are
 * validated by person type (400), a sandbox rejection needs a reason, and the sandbox routes
 * are absent when the sandbox is off. None of them emits an event.
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

  it('sandbox: a rejection without a reason is 400 and decides nothing', async () => {
    const receiver = await createReceiver();
    const rejectWithout = await call('POST', `/sandbox/receivers/${receiver.id}/kyc`, { decision: 'REJECT' });
    expect(expectErrorBody(rejectWithout, 400, 'VALIDATION_ERROR').details).toHaveProperty(['body.reason']);
    expect((await call('GET', `/receivers/${receiver.id}`)).json()).toMatchObject({ status: 'PENDING', kycStatus: 'PENDING' });
    expect(await eventsFor(receiver.id)).toHaveLength(0);
  });

  it('sandbox routes are absent when the sandbox is disabled', async () => {
    const receiver = await createReceiver();
    const app = await ctx.buildApp({ SANDBOX_ENABLED: 'false' });
    const response = await app.inject({ method: 'POST', url: `/api/v1/sandbox/receivers/${receiver.id}/kyc`, headers: merchant.headers, payload: { decision: 'APPROVE' } });
    expectErrorBody(response, 404, 'NOT_FOUND');
  });
});
