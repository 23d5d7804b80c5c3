/**
 * The operators' receiver routes are for operators only: a merchant's credentials are 403.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type TestContext, type TestMerchant, createTestContext, expectErrorBody } from '../../helpers/app.ts';
import { receiversFixture } from './helpers.ts';

let ctx: TestContext;
let merchant: TestMerchant;
const { createReceiver } = receiversFixture(() => ctx, () => merchant);

beforeAll(async () => {
  ctx = await createTestContext();
  merchant = await ctx.createMerchant('Merchant A');
});
afterAll(() => ctx?.close());

describe('operator status decisions', () => {
  it('merchants cannot call operator routes (403)', async () => {
    const receiver = await createReceiver();
    const response = await ctx.app.inject({ method: 'POST', url: `/api/v1/admin/receivers/${receiver.id}/kyc/approve`, headers: merchant.headers });
    expectErrorBody(response, 403, 'FORBIDDEN');
  });
});
