import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, expectErrorBody, type TestContext, type TestMerchant } from '../../helpers/app.ts';
import { API, UUID, adminHeaders, type OrderType, type TierInput, type ReplacedTier, PLATFORM_DEFAULT, getTiers, putTiers, tiersOf, replace, bandsOf, shared, useSharedContext } from './helpers.ts';

describe('fee tiers', () => {
  useSharedContext();

  describe('GET /fee-tiers', () => {
    it("a new merchant has the platform's bands with merchant fee 0 for both order types, ordered", async () => {
      const merchant = await shared.createMerchant();
      const tiers = await tiersOf(merchant);
      expect(tiers.map(({ id: _id, ...rest }) => rest)).toEqual(
        (['PAYIN', 'PAYOUT'] as const).flatMap((orderType) =>
          PLATFORM_DEFAULT.map((band) => ({ orderType, ...band, merchantFeePercentage: 0, totalFeePercentage: band.platformFeePercentage })),
        ),
      );
      for (const tier of tiers) expect(tier.id).toMatch(UUID);
      expect(new Set(tiers.map((t) => t.id)).size).toBe(6);
    });

    it('filters by orderType', async () => {
      const merchant = await shared.createMerchant();
      await replace(merchant, 'PAYOUT', [{ minVolumeBrl: 0, maxVolumeBrl: null, merchantFeePercentage: 0.002 }]);
      const payout = await tiersOf(merchant, 'PAYOUT');
      expect(payout).toHaveLength(1);
      expect(payout[0]).toMatchObject({ orderType: 'PAYOUT', merchantFeePercentage: 0.002 });
      const payin = await tiersOf(merchant, 'PAYIN');
      expect(payin).toHaveLength(3);
      expect(payin.every((t) => t.orderType === 'PAYIN')).toBe(true);
      expect(await tiersOf(merchant)).toEqual([...payin, ...payout]);
    });

    it('works with a bearer token too', async () => {
      const merchant = await shared.createMerchant();
      expect(await getTiers(await shared.bearerFor(merchant))).toMatchObject({ statusCode: 200 });
    });
  });

  describe('PUT /fee-tiers/{orderType}', () => {
    it('rule 1: replaces every existing tier of that order type (old ids gone, count equals the body), other type untouched', async () => {
      const merchant = await shared.createMerchant();
      const before = await tiersOf(merchant);
      const body = [
        { minVolumeBrl: 0, maxVolumeBrl: 5000, merchantFeePercentage: 0.01 },
        { minVolumeBrl: 5000, maxVolumeBrl: 20000, merchantFeePercentage: 0.008 },
        { minVolumeBrl: 20000, maxVolumeBrl: 100000, merchantFeePercentage: 0.006 },
        { minVolumeBrl: 100000, maxVolumeBrl: null, merchantFeePercentage: 0.004 },
      ];
      const replaced = await replace(merchant, 'PAYIN', body);
      expect(replaced).toHaveLength(4);
      const after = await tiersOf(merchant);
      const payin = after.filter((t) => t.orderType === 'PAYIN');
      expect(payin).toHaveLength(4);
      expect(payin.map((t) => t.id)).toEqual(replaced.map((t) => t.id));
      const oldPayinIds = before.filter((t) => t.orderType === 'PAYIN').map((t) => t.id);
      for (const id of oldPayinIds) expect(after.map((t) => t.id)).not.toContain(id);
      expect(after.filter((t) => t.orderType === 'PAYOUT')).toEqual(before.filter((t) => t.orderType === 'PAYOUT'));

      // A shorter set replaces the longer one completely.
      await replace(merchant, 'PAYIN', [{ minVolumeBrl: 0, maxVolumeBrl: null, merchantFeePercentage: 0 }]);
      expect(await tiersOf(merchant, 'PAYIN')).toHaveLength(1);
    });

    it('rule 2: each merchant fee comes from the body, and the answer lists the new tiers', async () => {
      const merchant = await shared.createMerchant();
      const body = [
        { minVolumeBrl: 0, maxVolumeBrl: 100000, merchantFeePercentage: 0.012345 },
        { minVolumeBrl: 100000, maxVolumeBrl: null, merchantFeePercentage: 0.1 },
      ];
      const replaced = await replace(merchant, 'PAYOUT', body);
      expect(bandsOf(replaced)).toEqual(body);
      expect(Object.keys(replaced[0]!).sort()).toEqual(
        ['id', 'maxVolumeBrl', 'merchantFeePercentage', 'minVolumeBrl', 'platformFeePercentage', 'totalFeePercentage'].sort(),
      );
      expect(bandsOf(await tiersOf(merchant, 'PAYOUT'))).toEqual(body);
    });

    it("rule 3: the platform fee is the platform's rate at each band's minVolumeBrl, and sending it is 400", async () => {
      const merchant = await shared.createMerchant();
      const replaced = await replace(merchant, 'PAYIN', [
        { minVolumeBrl: 0, maxVolumeBrl: 50000, merchantFeePercentage: 0 },
        { minVolumeBrl: 50000, maxVolumeBrl: 100000, merchantFeePercentage: 0 },
        { minVolumeBrl: 100000, maxVolumeBrl: 999999.99, merchantFeePercentage: 0 },
        { minVolumeBrl: 999999.99, maxVolumeBrl: 1000000, merchantFeePercentage: 0 },
        { minVolumeBrl: 1000000, maxVolumeBrl: 2000000, merchantFeePercentage: 0 },
        { minVolumeBrl: 2000000, maxVolumeBrl: null, merchantFeePercentage: 0 },
      ]);
      expect(replaced.map((t) => t.platformFeePercentage)).toEqual([0.005, 0.005, 0.0035, 0.0035, 0.0025, 0.0025]);

      // Unchanged bands keep exactly the platform fee they had.
      const again = await replace(merchant, 'PAYIN', bandsOf(replaced));
      expect(again.map((t) => t.platformFeePercentage)).toEqual(replaced.map((t) => t.platformFeePercentage));

      const sending = [
        { minVolumeBrl: 0, maxVolumeBrl: 100000, merchantFeePercentage: 0.01 },
        { minVolumeBrl: 100000, maxVolumeBrl: null, merchantFeePercentage: 0.01, platformFeePercentage: 0 },
      ];
      const refused = expectErrorBody(await putTiers(merchant, 'PAYIN', sending), 400, 'VALIDATION_ERROR');
      expect(refused.message).toBe('platformFeePercentage is set by the platform and cannot be sent');
      expect(refused.details).toEqual({ 'body.1.platformFeePercentage': 'is set by the platform and cannot be sent' });
      // Even the value the platform would have set is refused, and nothing changed.
      const same = [{ minVolumeBrl: 0, maxVolumeBrl: null, merchantFeePercentage: 0, platformFeePercentage: 0.005 }];
      expectErrorBody(await putTiers(merchant, 'PAYIN', same), 400, 'VALIDATION_ERROR');
      expect(bandsOf(await tiersOf(merchant, 'PAYIN'))).toEqual(bandsOf(replaced));
    });

    it('totals are exact decimal sums (0.005 + 0.01 = 0.015, 0.0035 + 0.0001 = 0.0036, 0.0035 + 0.001 = 0.0045)', async () => {
      const merchant = await shared.createMerchant();
      const tiers = await replace(merchant, 'PAYIN', [
        { minVolumeBrl: 0, maxVolumeBrl: 100000, merchantFeePercentage: 0.01 },
        { minVolumeBrl: 100000, maxVolumeBrl: 500000, merchantFeePercentage: 0.0001 },
        { minVolumeBrl: 500000, maxVolumeBrl: null, merchantFeePercentage: 0.001 },
      ]);
      // In floats the last would be 0.0045000000000000005.
      expect(tiers.map((t) => t.totalFeePercentage)).toEqual([0.015, 0.0036, 0.0045]);
      expect((await tiersOf(merchant, 'PAYIN')).map((t) => t.totalFeePercentage)).toEqual([0.015, 0.0036, 0.0045]);
    });

    it('concurrent PUTs serialize: afterwards exactly one complete set, equal to one of those sent', async () => {
      const merchant = await shared.createMerchant();
      // Ten different sets: different counts, bounds and fees, all starting at 0 (same unique key).
      const sets: TierInput[][] = Array.from({ length: 10 }, (_, n) =>
        Array.from({ length: n + 1 }, (_, i) => ({
          minVolumeBrl: i * 1000 * (n + 1),
          maxVolumeBrl: i === n ? null : (i + 1) * 1000 * (n + 1),
          merchantFeePercentage: (n * 10 + i) / 1_000_000,
        })),
      );
      const responses = await Promise.all(sets.map((set) => putTiers(merchant, 'PAYIN', set)));
      for (const response of responses) expect(response.statusCode, response.body).toBe(200);
      const payin = await tiersOf(merchant, 'PAYIN');
      const winner = sets.findIndex((set) => JSON.stringify(set) === JSON.stringify(bandsOf(payin)));
      expect(winner, JSON.stringify(payin)).toBeGreaterThanOrEqual(0);
      // The winner's own answer lists exactly the rows that remain.
      expect((responses[winner]!.json() as { tiers: ReplacedTier[] }).tiers.map((t) => t.id)).toEqual(payin.map((t) => t.id));
      expect(await tiersOf(merchant, 'PAYOUT')).toHaveLength(3);
    });
  });

  describe('tierForVolume: the rates order creation uses', () => {
    let merchant: TestMerchant;
    beforeAll(async () => {
      merchant = await shared.createMerchant();
      await replace(merchant, 'PAYIN', [
        { minVolumeBrl: 0, maxVolumeBrl: 100000, merchantFeePercentage: 0.001 },
        { minVolumeBrl: 100000, maxVolumeBrl: 1000000, merchantFeePercentage: 0.002 },
        { minVolumeBrl: 1000000, maxVolumeBrl: null, merchantFeePercentage: 0.003 },
      ]);
      await replace(merchant, 'PAYOUT', [
        { minVolumeBrl: 0, maxVolumeBrl: 100000, merchantFeePercentage: 0.0005 },
        { minVolumeBrl: 100000, maxVolumeBrl: 200000, merchantFeePercentage: 0.001 },
      ]);
    });
    const tierFor = (orderType: OrderType, volume: string) => shared.app.services.feeTiers.tierForVolume(merchant.merchantId, orderType, volume);

    it.each<[OrderType, string, string, string, string]>([
      ['PAYIN', '0', '0.005', '0.001', '0.006'],
      ['PAYIN', '99999.99', '0.005', '0.001', '0.006'],
      ['PAYIN', '100000', '0.0035', '0.002', '0.0055'],
      ['PAYIN', '100000.00', '0.0035', '0.002', '0.0055'],
      ['PAYIN', '999999.99', '0.0035', '0.002', '0.0055'],
      ['PAYIN', '1000000', '0.0025', '0.003', '0.0055'],
      ['PAYIN', '987654321.12', '0.0025', '0.003', '0.0055'],
      ['PAYOUT', '0', '0.005', '0.0005', '0.0055'],
      ['PAYOUT', '199999.99', '0.0035', '0.001', '0.0045'],
      // Above the last band's max: the last band.
      ['PAYOUT', '200000', '0.0035', '0.001', '0.0045'],
      ['PAYOUT', '5000000', '0.0035', '0.001', '0.0045'],
    ])('%s at %s BRL: platform %s + merchant %s = %s', async (orderType, volume, platformFeePercentage, merchantFeePercentage, totalFeePercentage) => {
      expect(await tierFor(orderType, volume)).toEqual({ platformFeePercentage, merchantFeePercentage, totalFeePercentage });
    });

    it('reads inside a caller transaction', async () => {
      const rates = await shared.database.db
        .transaction()
        .execute((trx) => shared.app.services.feeTiers.tierForVolume(merchant.merchantId, 'PAYIN', '100000', trx));
      expect(rates.totalFeePercentage).toBe('0.0055');
    });
  });

  describe('admin: the platform fee schedule', () => {
    // Its own database: changing the platform schedule must not leak into the other tests.
    let ctx: TestContext;
    beforeAll(async () => {
      ctx = await createTestContext();
    });
    afterAll(async () => {
      await ctx?.close();
    });

    const admin = (method: 'GET' | 'PUT', url: string, payload?: unknown, headers: Record<string, string> = adminHeaders) =>
      ctx.app.inject({ method, url: `${API}/admin${url}`, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

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
      // Put the seeded PAYOUT schedule back for the next test.
      expect((await admin('PUT', '/platform-fee-tiers/PAYOUT', PLATFORM_DEFAULT)).statusCode).toBe(200);
    });

    it("PUT replaces the schedule, audited; existing merchants keep their bands until their own next PUT, which takes the new rate at each band's min", async () => {
      const existing = await ctx.createMerchant('Existing');
      const mover = await ctx.createMerchant('Mover');
      const existingBefore = await tiersOf(existing, undefined, ctx);

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

      const audit = await ctx.database.db.selectFrom('admin_audit_log').selectAll().where('request_id', '=', 'fee-audit-1').execute();
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({
        action: 'platform_fee_tiers.replace',
        target_type: 'platform_fee_tiers',
        target_id: 'PAYIN',
        request_id: 'fee-audit-1',
        details: { tiers: schedule },
      });
      expect(audit[0]!.actor).toMatch(/^admin-api@/);

      // The existing merchants' bands are not rewritten.
      expect(await tiersOf(existing, undefined, ctx)).toEqual(existingBefore);

      // The mover's next PUT takes the platform rate in force at each band's minVolumeBrl.
      const moved = await replace(
        mover,
        'PAYIN',
        [
          { minVolumeBrl: 0, maxVolumeBrl: 100000, merchantFeePercentage: 0.001 },
          { minVolumeBrl: 100000, maxVolumeBrl: 250000.5, merchantFeePercentage: 0.001 },
          { minVolumeBrl: 250000.5, maxVolumeBrl: null, merchantFeePercentage: 0.001 },
        ],
        ctx,
      );
      expect(moved.map((t) => [t.platformFeePercentage, t.totalFeePercentage])).toEqual([
        [0.006, 0.007],
        [0.00412345, 0.00512345],
        [0.002, 0.003],
      ]);
      // Its PAYOUT bands, not replaced, still have the old rates; so do the other merchant's.
      expect((await tiersOf(mover, 'PAYOUT', ctx)).map((t) => t.platformFeePercentage)).toEqual([0.005, 0.0035, 0.0025]);
      expect((await tiersOf(existing, 'PAYIN', ctx)).map((t) => t.platformFeePercentage)).toEqual([0.005, 0.0035, 0.0025]);

      // A merchant created now starts from the new schedule.
      const newcomer = await ctx.createMerchant('Newcomer');
      expect((await tiersOf(newcomer, 'PAYIN', ctx)).map(({ minVolumeBrl, maxVolumeBrl, platformFeePercentage, merchantFeePercentage }) => ({
        minVolumeBrl,
        maxVolumeBrl,
        platformFeePercentage,
        merchantFeePercentage,
      }))).toEqual(schedule.map((band) => ({ ...band, merchantFeePercentage: 0 })));
    });
  });
});
