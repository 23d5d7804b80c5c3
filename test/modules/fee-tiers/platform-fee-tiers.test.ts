/**
 * The operators' platform fee schedule (/api/v1/admin/platform-fee-tiers), happy paths: the
 * seeded schedule, concurrent replacements, and what a replacement means for merchants (their
 * bands change only at their own next PUT). Each test has its own database.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, expectErrorBody, type TestContext } from '../../helpers/app.ts';
import { type OrderType, PLATFORM_DEFAULT, adminHeaders, feeTiersFixture } from './helpers.ts';

// Each test its own database: changing the platform schedule must not leak into another test.
let ctx: TestContext;
const { tiersOf, replace, admin } = feeTiersFixture(() => ctx);

beforeEach(async () => {
  ctx = await createTestContext();
});
afterEach(async () => {
  await ctx?.close();
});

describe('admin: the platform fee schedule', () => {
  it('GET lists the seeded schedule, filtered by orderType', async () => {
    const all = await admin('GET', '/platform-fee-tiers');
    expect(all.statusCode).toBe(200);
    const tiers = all.json() as Array<{ id: string; orderType: OrderType }>;
    expect(tiers.map(({ id: _id, ...rest }) => rest)).toEqual(
      (['PAYIN', 'PAYOUT'] as const).flatMap((orderType) => PLATFORM_DEFAULT.map((band) => ({ orderType, ...band }))),
    );
    const payout = (await admin('GET', '/platform-fee-tiers?orderType=PAYOUT')).json() as Array<{ orderType: string }>;
    expect(payout).toHaveLength(3);
    expect(payout.every((t) => t.orderType === 'PAYOUT')).toBe(true);
    expectErrorBody(await admin('GET', '/platform-fee-tiers?orderType=SWAP'), 400, 'VALIDATION_ERROR');
  });

  it('concurrent PUTs of the PAYOUT schedule serialize: one complete schedule remains, each audited', async () => {
    const schedules = Array.from({ length: 6 }, (_, n) =>
      Array.from({ length: n + 1 }, (_, i) => ({
        minVolumeBrl: i * 5000,
        maxVolumeBrl: i === n ? null : (i + 1) * 5000,
        platformFeePercentage: (n * 10 + i + 1) / 100_000,
      })),
    );
    const responses = await Promise.all(schedules.map((schedule) => admin('PUT', '/platform-fee-tiers/PAYOUT', schedule)));
    for (const response of responses) expect(response.statusCode, response.body).toBe(200);
    const final = (await admin('GET', '/platform-fee-tiers?orderType=PAYOUT')).json() as Array<{ id: string; orderType: string }>;
    const bands = final.map(({ id: _id, orderType: _orderType, ...band }) => band);
    expect(schedules.map((s) => JSON.stringify(s))).toContain(JSON.stringify(bands));
    const audited = await ctx.database.db.selectFrom('admin_audit_log').select('id').where('target_id', '=', 'PAYOUT').execute();
    expect(audited).toHaveLength(6);
    // The seeded schedule can be put back.
    expect((await admin('PUT', '/platform-fee-tiers/PAYOUT', PLATFORM_DEFAULT)).statusCode).toBe(200);
  });

  it("PUT replaces the schedule, audited; existing merchants keep their bands until their own next PUT, which takes the new rate at each band's min", async () => {
    const existing = await ctx.createMerchant('Existing');
    const mover = await ctx.createMerchant('Mover');
    const existingBefore = await tiersOf(existing);

    const schedule = [
      { minVolumeBrl: 0, maxVolumeBrl: 50000, platformFeePercentage: 0.006 },
      { minVolumeBrl: 50000, maxVolumeBrl: 250000.5, platformFeePercentage: 0.00412345 },
      { minVolumeBrl: 250000.5, maxVolumeBrl: null, platformFeePercentage: 0.002 },
    ];
    const response = await admin('PUT', '/platform-fee-tiers/PAYIN', schedule, { ...adminHeaders, 'x-request-id': 'fee-audit-1' });
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json() as { success: boolean; tiers: Array<{ id: string }> };
    expect(answer.success).toBe(true);
    expect(answer.tiers.map(({ id: _id, ...rest }) => rest)).toEqual(schedule);
    const payinSchedule = (await admin('GET', '/platform-fee-tiers?orderType=PAYIN')).json() as Array<{ id: string }>;
    expect(payinSchedule.map((t) => t.id)).toEqual(answer.tiers.map((t) => t.id));
    expect(((await admin('GET', '/platform-fee-tiers?orderType=PAYOUT')).json() as Array<{ platformFeePercentage: number }>).map((t) => t.platformFeePercentage)).toEqual([
      0.005, 0.0035, 0.0025,
    ]);

    const audit = await ctx.database.db.selectFrom('admin_audit_log').selectAll().where('request_id', '=', 'fee-audit-1').where('action', '!=', 'admin_token.use').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'platform_fee_tiers.replace',
      target_type: 'platform_fee_tiers',
      target_id: 'PAYIN',
      request_id: 'fee-audit-1',
      // What was asked, as the exact decimal text the body carried (DecimalAmount).
      details: { tiers: schedule.map((tier) => Object.fromEntries(Object.entries(tier).map(([key, value]) => [key, value === null ? null : String(value)]))) },
    });
    expect(audit[0]!.actor).toMatch(/^admin-api@/);

    // The existing merchants' bands are not rewritten.
    expect(await tiersOf(existing)).toEqual(existingBefore);

    // The mover's next PUT takes the platform rate in force at each band's minVolumeBrl.
    const moved = await replace(
      mover,
      'PAYIN',
      [
        { minVolumeBrl: 0, maxVolumeBrl: 100000, merchantFeePercentage: 0.001 },
        { minVolumeBrl: 100000, maxVolumeBrl: 250000.5, merchantFeePercentage: 0.001 },
        { minVolumeBrl: 250000.5, maxVolumeBrl: null, merchantFeePercentage: 0.001 },
      ],
    );
    expect(moved.map((t) => [t.platformFeePercentage, t.totalFeePercentage])).toEqual([
      [0.006, 0.007],
      [0.00412345, 0.00512345],
      [0.002, 0.003],
    ]);
    // Its PAYOUT bands, not replaced, still have the old rates; so do the other merchant's.
    expect((await tiersOf(mover, 'PAYOUT')).map((t) => t.platformFeePercentage)).toEqual([0.005, 0.0035, 0.0025]);
    expect((await tiersOf(existing, 'PAYIN')).map((t) => t.platformFeePercentage)).toEqual([0.005, 0.0035, 0.0025]);

    // A merchant created now starts from the new schedule.
    const newcomer = await ctx.createMerchant('Newcomer');
    expect((await tiersOf(newcomer, 'PAYIN')).map(({ minVolumeBrl, maxVolumeBrl, platformFeePercentage, merchantFeePercentage }) => ({
      minVolumeBrl,
      maxVolumeBrl,
      platformFeePercentage,
      merchantFeePercentage,
    }))).toEqual(schedule.map((band) => ({ ...band, merchantFeePercentage: 0 })));
  });
});

describe('fees that would take the whole amount', () => {
  it('a merchant band whose platform plus merchant fee reaches 100 % is refused (a quote could not be priced), just below is accepted, and a 90 % fee still quotes', async () => {
    const highFees = await createTestContext({ MERCHANT_FEE_MAX_PERCENTAGE: '0.5' });
    try {
      const schedule = [{ minVolumeBrl: 0, maxVolumeBrl: null, platformFeePercentage: 0.6 }];
      const put = await highFees.app.inject({ method: 'PUT', url: '/api/v1/admin/platform-fee-tiers/PAYIN', headers: adminHeaders, payload: schedule });
      expect(put.statusCode, put.body).toBe(200);
      const merchant = await highFees.createMerchant('High fees');
      const mine = (merchantFeePercentage: number) =>
        highFees.app.inject({ method: 'PUT', url: '/api/v1/fee-tiers/PAYIN', headers: merchant.headers, payload: [{ minVolumeBrl: 0, maxVolumeBrl: null, merchantFeePercentage }] });
      const refused = expectErrorBody(await mine(0.4), 400, 'VALIDATION_ERROR');
      expect(refused.details).toEqual({ 'body.0.merchantFeePercentage': "with the platform's fee of 0.6 in this band, must be below 0.4 (the total fee must stay below 1)" });
      expect((await mine(0.399999)).statusCode).toBe(200);
      expect((await mine(0.3)).statusCode).toBe(200);
      const quote = await highFees.app.inject({ method: 'POST', url: '/api/v1/quotes', headers: merchant.headers, payload: { type: 'PAYIN', amountCrypto: 1 } });
      expect(quote.statusCode, quote.body).toBe(201);
      expect(quote.json()).toMatchObject({ platformFeePercentage: 0.6, merchantFeePercentage: 0.3 });
    } finally {
      await highFees.close();
    }
  });
});
