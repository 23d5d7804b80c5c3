/**
 * The worker's reused PGlite (test/helpers/pglite-reuse.ts): each test file must start from the
 * migrated template exactly, whatever the previous one wrote, as a fresh instance would.
 */
import { describe, expect, it } from 'vitest';
import { openTestDatabase, testDriver } from '../helpers/database.ts';

const snapshot = async (handle: Awaited<ReturnType<typeof openTestDatabase>>) => ({
  tiers: await handle.db.selectFrom('platform_fee_tiers').select(['id', 'order_type', 'min_volume_brl', 'platform_fee_percentage']).orderBy('id').execute(),
  merchants: await handle.db.selectFrom('merchants').select('id').execute(),
  audit: await handle.db.selectFrom('admin_audit_log').select('id').execute(),
});

describe('a reused PGlite goes back to the template between test files', () => {
  it('drops what a file wrote, in append-only tables too, and gives the template rows back', async (ctx) => {
    if (testDriver() !== 'pglite') return ctx.skip();
    const first = await openTestDatabase();
    const before = await snapshot(first);
    expect(before.tiers.length).toBeGreaterThan(0);
    await first.db.deleteFrom('platform_fee_tiers').execute();
    await first.db.insertInto('merchants').values({ id: '0193c9a0-0000-7000-8000-000000000001', name: 'Left behind', status: 'ACTIVE' }).execute();
    await first.db.insertInto('admin_audit_log').values({ id: '0193c9a0-0000-7000-8000-000000000002', actor: 'test', action: 'merchant.create', target_type: 'merchant', target_id: null, details: JSON.stringify({}) as never, request_id: null, merchant_id: null }).execute();
    await first.close();

    const second = await openTestDatabase();
    try {
      expect(await snapshot(second)).toEqual(before);
    } finally {
      await second.close();
    }
  });

  it('refuses work on a closed handle, so a leftover timer cannot write into the next file', async (ctx) => {
    if (testDriver() !== 'pglite') return ctx.skip();
    const handle = await openTestDatabase();
    await handle.db.selectFrom('merchants').select('id').execute();
    await handle.close();
    await expect(handle.db.selectFrom('merchants').select('id').execute()).rejects.toThrow(/destroyed|closed/);
  });

  it('opens a separate database when a file asks for a second one while the first is open', async () => {
    const first = await openTestDatabase();
    const second = await openTestDatabase();
    try {
      await first.db.deleteFrom('platform_fee_tiers').execute();
      expect((await second.db.selectFrom('platform_fee_tiers').select('id').execute()).length).toBeGreaterThan(0);
    } finally {
      await first.close();
      await second.close();
    }
  });
});
