/**
 * Fee tiers over HTTP across merchants, people and without credentials: one merchant's PUT never
 * touches another's tiers, GET never shows them, both routes need credentials, and a person
 * signed in needs payments.write (OWNER, ADMIN) to replace them (the dashboard's fees page).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, expectErrorBody, TestClock, type TestContext } from '../../helpers/app.ts';
import { peopleOf, type Person } from '../../helpers/people.ts';
import { API, feeTiersFixture } from './helpers.ts';

let shared: TestContext;
const { getTiers, tiersOf, replace } = feeTiersFixture(() => shared);

const clock = new TestClock(new Date('2026-11-26T12:00:00Z'));

beforeAll(async () => {
  shared = await createTestContext({}, { clock });
});
afterAll(async () => {
  await shared?.close();
});

describe('PUT /fee-tiers/{orderType}', () => {
  it("isolation: merchant B's PUT does not touch A's tiers, and A's GET never shows B's", async () => {
    const a = await shared.createMerchant('Merchant A');
    const b = await shared.createMerchant('Merchant B');
    await replace(a, 'PAYIN', [{ minVolumeBrl: 0, maxVolumeBrl: null, merchantFeePercentage: 0.01 }]);
    const aBefore = await tiersOf(a);
    const bTiers = await replace(b, 'PAYIN', [
      { minVolumeBrl: 0, maxVolumeBrl: 10, merchantFeePercentage: 0.02 },
      { minVolumeBrl: 10, maxVolumeBrl: null, merchantFeePercentage: 0.03 },
    ]);
    const aAfter = await tiersOf(a);
    expect(aAfter).toEqual(aBefore);
    const bIds = (await tiersOf(b)).map((t) => t.id);
    expect(bIds).toEqual(expect.arrayContaining(bTiers.map((t) => t.id)));
    for (const tier of aAfter) expect(bIds).not.toContain(tier.id);
  });

  it('without credentials both routes are 401', async () => {
    expectErrorBody(await shared.app.inject({ method: 'GET', url: `${API}/fee-tiers` }), 401, 'UNAUTHORIZED');
    const put = await shared.app.inject({
      method: 'PUT',
      url: `${API}/fee-tiers/PAYIN`,
      payload: [{ minVolumeBrl: 0, maxVolumeBrl: null, merchantFeePercentage: 0 }],
    });
    expectErrorBody(put, 401, 'UNAUTHORIZED');
    const wrongSecret = await shared.createMerchant();
    expectErrorBody(await getTiers({ ...wrongSecret.headers, 'x-api-secret': `${wrongSecret.apiSecret}x` }), 401, 'UNAUTHORIZED');
  });

  it('a person needs payments.write: a VIEWER and a DEVELOPER are 403 and change nothing, an ADMIN replaces them; all may read', async () => {
    const merchant = await shared.createMerchant();
    const people = peopleOf(shared.app, merchant.merchantId, clock, 'fee-tiers-person');
    const tiers = [{ minVolumeBrl: 0, maxVolumeBrl: null, merchantFeePercentage: 0.02 }];
    const put = (person: Person) =>
      shared.app.inject({ method: 'PUT', url: `${API}/fee-tiers/PAYIN`, headers: people.as(person), payload: tiers });
    const before = await tiersOf(merchant);
    for (const role of ['VIEWER', 'DEVELOPER'] as const) {
      const person = await people.signedIn(role);
      expect((await people.call('GET', '/fee-tiers', people.as(person))).statusCode).toBe(200);
      const refused = expectErrorBody(await put(person), 403, 'FORBIDDEN');
      expect(refused.details).toMatchObject({ reason: 'ROLE_NOT_ALLOWED', permission: 'payments.write' });
    }
    expect(await tiersOf(merchant)).toEqual(before);
    const admin = await people.manager('ADMIN');
    const accepted = await put(admin);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect((await tiersOf(merchant)).filter((tier) => tier.orderType === 'PAYIN').map((tier) => tier.merchantFeePercentage)).toEqual([0.02]);
  });
});
