/**
 * Receiver KYC across merchants: another merchant cannot submit or decide a receiver's KYC
 * (404), which stays PENDING with no event.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, type TestMerchant, createTestContext, expectErrorBody } from '../../helpers/app.ts';
import { pfSubmission, receiversFixture } from './helpers.ts';

let ctx: TestContext;
let merchant: TestMerchant;
let other: TestMerchant;
const { call, createReceiver, eventsFor } = receiversFixture(() => ctx, () => merchant);

beforeAll(async () => {
  ctx = await createTestContext();
  merchant = await ctx.createMerchant('Merchant A');
  other = await ctx.createMerchant('Merchant B');
});
afterAll(() => ctx?.close());

describe('KYC', () => {
  it('another merchant cannot submit or see KYC of a receiver (404)', async () => {
    const receiver = await createReceiver();
    expectErrorBody(await call('POST', `/receivers/${receiver.id}/kyc`, pfSubmission, other), 404, 'NOT_FOUND');
  });

  it('sandbox: another merchant’s receiver is 404 and stays PENDING', async () => {
    const receiver = await createReceiver();
    expectErrorBody(await call('POST', `/sandbox/receivers/${receiver.id}/kyc`, { decision: 'APPROVE' }, other), 404, 'NOT_FOUND');
    expect((await call('GET', `/receivers/${receiver.id}`)).json()).toMatchObject({ status: 'PENDING', kycStatus: 'PENDING' });
    expect(await eventsFor(receiver.id)).toHaveLength(0);
  });
});
