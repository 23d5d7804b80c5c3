/**
 * The operators' status decisions on a receiver (/admin/receivers/{id}/suspend, block,
 * reactivate): each follows its rules and is audited.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, type TestMerchant, createTestContext, expectErrorBody } from '../../helpers/app.ts';
import { admin, receiversFixture } from './helpers.ts';

let ctx: TestContext;
let merchant: TestMerchant;
const { call, createReceiver } = receiversFixture(() => ctx, () => merchant);

beforeAll(async () => {
  ctx = await createTestContext();
  merchant = await ctx.createMerchant('Merchant A');
});
afterAll(() => ctx?.close());

describe('operator status decisions', () => {
  it('suspend, block and reactivate follow their rules and are audited', async () => {
    const receiver = await createReceiver();
    const adminCall = (action: string) => ctx.app.inject({ method: 'POST', url: `/api/v1/admin/receivers/${receiver.id}/${action}`, headers: admin });
    expectErrorBody(await adminCall('suspend'), 409, 'CONFLICT'); // PENDING cannot be suspended
    await call('POST', `/sandbox/receivers/${receiver.id}/kyc`, { decision: 'APPROVE' });
    expect((await adminCall('suspend')).json().status).toBe('SUSPENDED');
    expect((await adminCall('block')).json().status).toBe('BLOCKED');
    expectErrorBody(await adminCall('block'), 409, 'CONFLICT');
    expect((await adminCall('reactivate')).json().status).toBe('ACTIVE');
    const audit = await ctx.database.db.selectFrom('admin_audit_log').select('action').where('target_id', '=', receiver.id).orderBy('created_at').execute();
    expect(audit.map((row) => row.action)).toEqual(['receiver.kyc_approve', 'receiver.suspend', 'receiver.block', 'receiver.reactivate']);
  });
});
