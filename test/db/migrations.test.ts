import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.ts';
import { migrateDown, migrateToLatest } from '../../src/db/migrate.ts';
import { migrations } from '../../src/db/migrations/index.ts';
import { emptyPostgresDatabase } from '../helpers/database.ts';

async function tableNames(db: Parameters<typeof migrateToLatest>[0]): Promise<string[]> {
  const { rows } = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = 'public' and table_name not like 'kysely_%' order by table_name`.execute(db);
  return rows.map((row) => row.table_name);
}

// Runs on a new empty database of each driver: PGlite always, PostgreSQL when DATABASE_URL is set.
const drivers = ['pglite', 'postgres'] as const;

describe.each(drivers)('migrations on %s', (driver) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('apply every migration up, all the way down, and up again', async (ctx) => {
    let handle;
    if (driver === 'pglite') {
      handle = await openDatabase({ driver: 'pglite' });
    } else {
      const empty = await emptyPostgresDatabase();
      if (!empty) return ctx.skip();
      cleanups.push(empty.drop);
      handle = await openDatabase({ driver: 'postgres', url: empty.url, poolMax: 2 });
    }
    cleanups.push(() => handle.close());

    const applied = await migrateToLatest(handle.db);
    expect(applied).toEqual(Object.keys(migrations).map((name) => `Up ${name}`));
    expect(await tableNames(handle.db)).toEqual([
      'admin_audit_log',
      'api_credentials',
      'events',
      'idempotency_keys',
      'idempotency_owners',
      'ledger_accounts',
      'ledger_entries',
      'ledger_postings',
      'managed_wallets',
      'merchant_completed_volume',
      'merchant_fee_tiers',
      'merchant_order_counts',
      'merchants',
      'order_transactions',
      'orders',
      'platform_fee_tiers',
      'quotes',
      'receiver_daily_usage',
      'receiver_kyc_submissions',
      'receivers',
      'sandbox_chain_armed_failures',
      'sandbox_chain_deposit_addresses',
      'sandbox_chain_deposits',
      'sandbox_chain_transfer_failures',
      'sandbox_chain_transfers',
      'sandbox_pix_armed_failures',
      'sandbox_pix_charges',
      'sandbox_pix_payouts',
      'sandbox_pix_refunds',
      'settled_entries',
      'settlements',
      'wallet_sign_requests',
      'webhook_deliveries',
      'webhook_delivery_attempts',
      'webhook_endpoint_secrets',
      'webhook_endpoints',
    ]);
    expect(await migrateToLatest(handle.db)).toEqual([]);

    const reverted = await migrateDown(handle.db, { all: true });
    expect(reverted).toEqual(Object.keys(migrations).reverse().map((name) => `Down ${name}`));
    expect(await tableNames(handle.db)).toEqual([]);

    expect(await migrateToLatest(handle.db)).toHaveLength(Object.keys(migrations).length);
    expect(await tableNames(handle.db)).toContain('merchants');
  });
});
