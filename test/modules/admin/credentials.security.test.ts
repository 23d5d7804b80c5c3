/**
 * The operator API's merchant credentials across merchants: a credential is revoked only under
 * its own merchant; another merchant's id there is 404 and leaves it live.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, expectErrorBody, type TestContext } from '../../helpers/app.ts';
import { adminFixture, keyHeaders } from './helpers.ts';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});

afterAll(async () => {
  await ctx?.close();
});

const { admin, getMerchant, createViaApi, auditRows } = adminFixture(() => ctx);

describe('credentials', () => {
  it("another merchant's credential id under this merchant is 404, and stays live", async () => {
    const { merchant } = await createViaApi('Owner');
    const { merchant: otherMerchant, credential: otherCredential } = await createViaApi('Other owner');

    expectErrorBody(await admin('DELETE', `/merchants/${merchant.id}/credentials/${otherCredential.id}`), 404, 'NOT_FOUND');
    expectErrorBody(await admin('DELETE', `/merchants/${merchant.id}/credentials/${randomUUID()}`), 404, 'NOT_FOUND');

    const me = await getMerchant(keyHeaders(otherCredential));
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual(otherMerchant);
    expect((await auditRows()).filter((row) => row.action === 'credential.revoke' && row.target_id === otherCredential.id)).toHaveLength(0);
  });
});
