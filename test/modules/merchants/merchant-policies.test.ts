/**
 * GET /merchant/policies (issue 42): the merchant reads the policies an operator set for it, the
 * same answer as the back office's read, and never another merchant's; any role and a key scoped
 * to `read` may read; nobody on the merchant side may write them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, expectErrorBody, TestClock, type TestContext, type TestMerchant } from '../../helpers/app.ts';
import { operatorsOf, type SignedInOperator } from '../../helpers/operators.ts';
import { peopleOf } from '../../helpers/people.ts';

const clock = new TestClock(new Date('2026-11-26T12:00:00Z'));

describe('GET /merchant/policies', () => {
  let ctx: TestContext;
  let merchantA: TestMerchant;
  let merchantB: TestMerchant;
  let compliance: SignedInOperator;
  let operators: ReturnType<typeof operatorsOf>;

  beforeAll(async () => {
    ctx = await createTestContext({}, { clock });
    merchantA = await ctx.createMerchant();
    merchantB = await ctx.createMerchant();
    operators = operatorsOf(ctx.app, clock, 'policies');
    compliance = await operators.signedIn('COMPLIANCE');
  });
  afterAll(() => ctx?.close());

  const read = (headers: Record<string, string>) => ctx.app.inject({ method: 'GET', url: '/api/v1/merchant/policies', headers });
  const setPolicies = async (merchant: TestMerchant, body: object) => {
    const response = await operators.call('PUT', `/merchants/${merchant.merchantId}/policies`, operators.as(compliance), { reason: 'compliance review', ...body });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };

  it('answers the defaults before any operator changed them', async () => {
    const response = await read(merchantA.headers);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      merchantId: merchantA.merchantId,
      destinationPolicy: 'RECEIVER_ONLY',
      payerPolicy: 'ANY',
      walletOwnershipPolicy: 'ALLOW',
      unprovenWalletLimitBrl: null,
      updatedAt: expect.any(String),
    });
  });

  it("answers what the operator set, as the back office reads it, and only the merchant's own", async () => {
    clock.advance(60_000);
    const set = await setPolicies(merchantA, { payerPolicy: 'FIRST_PARTY', walletOwnershipPolicy: 'LIMITED', unprovenWalletLimitBrl: '250.50' });
    const mine = await read(merchantA.headers);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json()).toEqual(set);
    expect(mine.json()).toMatchObject({ payerPolicy: 'FIRST_PARTY', walletOwnershipPolicy: 'LIMITED', unprovenWalletLimitBrl: 250.5, destinationPolicy: 'RECEIVER_ONLY' });
    const adminRead = await operators.call('GET', `/merchants/${merchantA.merchantId}/policies`, operators.as(compliance, false));
    expect(mine.json()).toEqual(adminRead.json());

    // Merchant B keeps its own defaults: the route takes no id, so there is nothing to point at A's.
    const theirs = await read(merchantB.headers);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json()).toMatchObject({ merchantId: merchantB.merchantId, payerPolicy: 'ANY', walletOwnershipPolicy: 'ALLOW', unprovenWalletLimitBrl: null });
    expect(theirs.body).not.toContain(merchantA.merchantId);

    // A second change is read at once (no cache between the operator's write and the merchant's read).
    await setPolicies(merchantA, { walletOwnershipPolicy: 'REQUIRED' });
    expect((await read(merchantA.headers)).json()).toMatchObject({ walletOwnershipPolicy: 'REQUIRED', unprovenWalletLimitBrl: 250.5 });
  });

  it('is read by a VIEWER and by a key scoped to read; the merchant side has no write', async () => {
    const people = peopleOf(ctx.app, merchantA.merchantId, clock, 'policies-people');
    const viewer = await people.signedIn('VIEWER');
    const byViewer = await people.call('GET', '/merchant/policies', people.as(viewer, false));
    expect(byViewer.statusCode, byViewer.body).toBe(200);
    expect(byViewer.json().merchantId).toBe(merchantA.merchantId);

    const owner = await people.signedIn('OWNER', true);
    const created = await people.call('POST', '/credentials', people.as(owner), { label: 'read only', scopes: ['read'] });
    expect(created.statusCode, created.body).toBe(201);
    const key = created.json();
    const byKey = await read({ 'x-api-key': key.apiKey, 'x-api-secret': key.apiSecret });
    expect(byKey.statusCode, byKey.body).toBe(200);

    for (const method of ['PUT', 'PATCH', 'POST'] as const) {
      const write = await ctx.app.inject({ method, url: '/api/v1/merchant/policies', headers: merchantA.headers, payload: { walletOwnershipPolicy: 'ALLOW' } });
      expect(write.statusCode).toBe(404);
    }
    expect((await read(merchantA.headers)).json().walletOwnershipPolicy).toBe('REQUIRED');
  });

  it('needs authentication', async () => {
    expectErrorBody(await ctx.app.inject({ method: 'GET', url: '/api/v1/merchant/policies' }), 401, 'UNAUTHORIZED');
  });
});
