import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.ts';
import { migrateDown, migrateToLatest } from '../../src/db/migrate.ts';
import { migrations } from '../../src/db/migrations/index.ts';
import { emptyPostgresDatabase, testDriver } from '../helpers/database.ts';

/** The indexes on orders: for each, whether it is unique and its WHERE clause (null when it covers every row). */
async function ordersIndexes(db: Parameters<typeof migrateToLatest>[0]): Promise<Record<string, { unique: boolean; where: string | null }>> {
  const { rows } = await sql<{ indexname: string; indexdef: string }>`
    select indexname, indexdef from pg_indexes where schemaname = 'public' and tablename = 'orders' order by indexname`.execute(db);
  return Object.fromEntries(rows.map((row) => [row.indexname, { unique: row.indexdef.startsWith('CREATE UNIQUE'), where: row.indexdef.split(' WHERE ')[1] ?? null }]));
}

async function tableNames(db: Parameters<typeof migrateToLatest>[0]): Promise<string[]> {
  const { rows } = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = 'public' and table_name not like 'kysely_%' order by table_name`.execute(db);
  return rows.map((row) => row.table_name);
}

// Runs on a new empty database of the run's driver. CI's two passes walk both; walking PGlite in the
// PostgreSQL pass as well repeated its slowest part (20-40 s of CPU) in both passes.
const driver = testDriver();

describe(`migrations on ${driver}`, () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  /**
   * This driver's database for the whole suite, empty when first asked for. One database, not one
   * per test: opening PGlite and migrating from nothing cost 3-5 s a test. Each test starts by
   * migrating to the latest (a no-op after the first test) and the first four end there; the last
   * (0014) leaves it lower and so stays last.
   */
  let shared: Promise<Awaited<ReturnType<typeof openDatabase>>> | undefined;
  const database = () => (shared ??= openEmpty());
  async function openEmpty() {
    if (driver === 'pglite') {
      const handle = await openDatabase({ driver: 'pglite' });
      cleanups.push(() => handle.close());
      return handle;
    }
    const empty = await emptyPostgresDatabase();
    if (!empty) throw new Error('a PostgreSQL run without its database');
    cleanups.push(empty.drop);
    const handle = await openDatabase({ driver: 'postgres', url: empty.url, poolMax: 2 });
    cleanups.push(() => handle.close());
    return handle;
  }

  /** Reverts the latest migrations one by one up to and including `name` (later ones come and go). */
  async function downThrough(db: Parameters<typeof migrateDown>[0], name: string): Promise<string[]> {
    const reverted: string[] = [];
    while (reverted.at(-1) !== `Down ${name}`) {
      const step = await migrateDown(db);
      if (step.length === 0) throw new Error(`${name} was never applied`);
      reverted.push(...step);
    }
    return reverted;
  }

  it('apply every migration up, all the way down, and up again', async () => {
    const handle = await database();

    const applied = await migrateToLatest(handle.db);
    expect(applied).toEqual(Object.keys(migrations).map((name) => `Up ${name}`));
    expect(await tableNames(handle.db)).toEqual([
      'admin_audit_log',
      'api_credentials',
      'approvals',
      'chain_deposits',
      'chain_lookup_table_extensions',
      'chain_lookup_tables',
      'chain_transfer_batches',
      'deposit_addresses',
      'deposit_sweeps',
      'disputes',
      'events',
      'idempotency_keys',
      'idempotency_owners',
      'ledger_accounts',
      'ledger_entries',
      'ledger_postings',
      'managed_wallets',
      'merchant_completed_volume',
      'merchant_fee_tiers',
      'merchant_markups',
      'merchant_order_counts',
      'merchants',
      'operations_register',
      'operator_invitations',
      'operator_sessions',
      'operators',
      'order_transactions',
      'orders',
      'password_resets',
      'payout_batch_items',
      'payout_batch_settings',
      'payout_batches',
      'personal_data_sealing',
      'pix_notification_rejections',
      'platform_fee_tiers',
      'platform_keys',
      'psp_reconciliation_runs',
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
      'sandbox_pix_infractions',
      'sandbox_pix_keys',
      'sandbox_pix_payouts',
      'sandbox_pix_received',
      'sandbox_pix_refunds',
      'service_accounts',
      'settled_entries',
      'settlement_pix_keys',
      'settlements',
      'sign_in_failures',
      'sponsor_daily_usage',
      'standing_address_deposits',
      'standing_deposit_addresses',
      'standing_pix_charges',
      'treasury_fundings',
      'treasury_reconciliation_balances',
      'treasury_reconciliation_runs',
      'treasury_withdrawals',
      'unproven_wallet_daily_usage',
      'user_invitations',
      'user_sessions',
      'users',
      'wallet_ownership_challenges',
      'wallet_ownership_proofs',
      'wallet_sign_requests',
      'webhook_deliveries',
      'webhook_delivery_attempts',
      'webhook_delivery_leases',
      'webhook_endpoint_secrets',
      'webhook_endpoints',
      'workers',
    ]);
    expect(await migrateToLatest(handle.db)).toEqual([]);

    const reverted = await migrateDown(handle.db, { all: true });
    expect(reverted).toEqual(Object.keys(migrations).reverse().map((name) => `Down ${name}`));
    expect(await tableNames(handle.db)).toEqual([]);

    expect(await migrateToLatest(handle.db)).toHaveLength(Object.keys(migrations).length);
    expect(await tableNames(handle.db)).toContain('merchants');
  }, 120_000); // 60-odd migrations up, down and up on PGlite: 20-40 s on a busy two-core machine, past the default 30 s

  it('0021 keeps the orders indexes a query uses, partial where only some rows are looked up, and back down', async () => {
    const handle = await database();
    const db = handle.db;
    await migrateToLatest(db);
    const whole = { unique: false, where: null };
    const reference = (column: string) => ({ unique: true, where: `(${column} IS NOT NULL)` });
    const expected = {
      orders_deposit_address_key: reference('deposit_address'),
      orders_expiry_idx: { unique: false, where: "(status = ANY (ARRAY['AWAITING_PAYMENT'::text, 'AWAITING_DEPOSIT'::text]))" },
      orders_merchant_created_idx: whole,
      orders_merchant_external_id_key: { unique: true, where: '(external_id IS NOT NULL)' },
      orders_merchant_status_created_idx: whole,
      orders_next_step_idx: { unique: false, where: '(next_step_at IS NOT NULL)' },
      // Migration 0080: a batch leader's mates, oldest due first.
      orders_batch_mates_idx: { unique: false, where: "((type = 'PAYIN'::text) AND (status = ANY (ARRAY['PAYMENT_RECEIVED'::text, 'SWAPPING'::text])))" },
      // Migration 0024: what open PAYINs owe (the treasury's liquidity check).
      orders_open_payins_idx: {
        unique: false,
        where: "((type = 'PAYIN'::text) AND (status = ANY (ARRAY['AWAITING_PAYMENT'::text, 'PAYMENT_RECEIVED'::text, 'SWAPPING'::text, 'TRANSFERRING'::text])))",
      },
      // Migration 0042: a MED claim names the PIX it claims.
      orders_pix_end_to_end_id_idx: { unique: false, where: '(pix_end_to_end_id IS NOT NULL)' },
      orders_pix_txid_key: reference('pix_txid'),
      orders_pkey: { unique: true, where: null },
      orders_provider_transaction_id_key: reference('provider_transaction_id'),
      orders_receiver_created_idx: whole,
      orders_reconciliation_idx: { unique: false, where: "(status = ANY (ARRAY['REFUNDING'::text, 'PIX_SENT_UNCONFIRMED'::text]))" },
      // Migration 0034: the back office's queue of stuck orders.
      orders_operator_queue_idx: {
        unique: false,
        where:
          "((status = ANY (ARRAY['PAYMENT_RECEIVED'::text, 'SWAPPING'::text, 'TRANSFERRING'::text, 'REFUNDING'::text, 'DEPOSIT_RECEIVED'::text, 'PIX_SENDING'::text, 'PIX_SENT_UNCONFIRMED'::text])) OR ((status = 'FAILED'::text) AND (type = 'PAYIN'::text) AND (pix_end_to_end_id IS NOT NULL)) OR ((status = 'FAILED'::text) AND (type = 'PAYOUT'::text) AND (payout_refused_at IS NOT NULL)))",
      },
      orders_refund_id_key: reference('refund_id'),
      orders_source_idx: { unique: false, where: '(source_id IS NOT NULL)' },
      // Migration 0064: one order per PIX paid to a standing charge.
      orders_standing_pix_payment_idx: { unique: true, where: "(source_kind = 'STANDING_PIX_CHARGE'::text)" },
    };
    expect(await ordersIndexes(db)).toEqual(expected);

    await downThrough(db, '20261126_0021_orders_indexes');
    const before = await ordersIndexes(db);
    expect(Object.keys(before)).toHaveLength(13);
    expect(before).toMatchObject({
      orders_merchant_type_created_idx: whole,
      orders_merchant_volume_idx: { unique: false, where: "(status = 'COMPLETED'::text)" },
      orders_pix_txid_key: { unique: true, where: null },
      orders_refund_id_key: { unique: true, where: null },
    });
    expect(before).not.toHaveProperty('orders_reconciliation_idx');

    await migrateToLatest(db);
    expect(await ordersIndexes(db)).toEqual(expected);
  });

  it('0049 guards the ledger, the audit log and the register with one trigger function, and back down', async () => {
    const handle = await database();
    const db = handle.db;
    /** The function each append-only trigger calls, by table and trigger. */
    const guards = async () => {
      const { rows } = await sql<{ guard: string; fn: string }>`
        select c.relname || '.' || t.tgname as guard, p.proname as fn
        from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_proc p on p.oid = t.tgfoid
        where not t.tgisinternal and p.proname not in ('ledger_check_entry_balanced', 'personal_data_clear_write')
          and c.relname in ('ledger_entries', 'ledger_postings', 'admin_audit_log', 'operations_register')
        order by 1`.execute(db);
      return Object.fromEntries(rows.map((row) => [row.guard, row.fn]));
    };
    const shared = Object.fromEntries(
      ['admin_audit_log', 'ledger_entries', 'ledger_postings', 'operations_register'].flatMap((table) => [
        [`${table}.${table}_append_only`, 'append_only_refuse_change'],
        [`${table}.${table}_append_only_truncate`, 'append_only_refuse_change'],
      ]),
    );
    await migrateToLatest(db);
    expect(await guards()).toEqual(shared);

    await downThrough(db, '20261205_0049_append_only_shared');
    expect(await guards()).toEqual({
      'admin_audit_log.admin_audit_log_no_change': 'admin_audit_log_append_only',
      'admin_audit_log.admin_audit_log_no_truncate': 'admin_audit_log_append_only',
      'ledger_entries.ledger_entries_append_only': 'ledger_refuse_change',
      'ledger_postings.ledger_postings_append_only': 'ledger_refuse_change',
      'operations_register.operations_register_no_change': 'operations_register_append_only',
      'operations_register.operations_register_no_truncate': 'operations_register_append_only',
    });
    await migrateToLatest(db);
    expect(await guards()).toEqual(shared);
  });

  it("0079 puts the treasury's books in wallet 1 and keeps another wallet's apart; down is refused while a second wallet has books", async () => {
    const handle = await database();
    const db = handle.db;
    await migrateToLatest(db);
    await downThrough(db, '20261206_0079_treasury_wallets');
    const [usdc, fees, second, stray] = ['11', '12', '13', '14'].map((n) => `0190a0e0-0000-7000-8000-0000000000${n}`);
    await sql`insert into ledger_accounts (id, code, merchant_id, currency) values (${usdc}, 'token_treasury', null, 'USDC'), (${fees}, 'network_fees', null, 'SOL')`.execute(db);

    expect((await migrateToLatest(db))[0]).toEqual('Up 20261206_0079_treasury_wallets');
    const accounts = await sql<{ id: string; wallet: number | null }>`select id, wallet from ledger_accounts where id in (${usdc}, ${fees}) order by id`.execute(db);
    expect(accounts.rows).toEqual([
      { id: usdc, wallet: 1 },
      { id: fees, wallet: null },
    ]);
    // Wallet 2's USDC beside wallet 1's; a treasury account without a wallet, or another account with one, is refused.
    await sql`insert into ledger_accounts (id, code, merchant_id, currency, wallet) values (${second}, 'token_treasury', null, 'USDC', 2)`.execute(db);
    await expect(sql`insert into ledger_accounts (id, code, merchant_id, currency) values (${stray}, 'token_treasury', null, 'SOL')`.execute(db)).rejects.toThrow(/ledger_accounts_wallet_check/);
    await expect(sql`insert into ledger_accounts (id, code, merchant_id, currency, wallet) values (${stray}, 'network_fees', null, 'USDC', 1)`.execute(db)).rejects.toThrow(/ledger_accounts_wallet_check/);

    await expect(downThrough(db, '20261206_0079_treasury_wallets')).rejects.toThrow(/cannot be undone: treasury wallets beyond the first/);
    await sql`delete from ledger_accounts where id = ${second}`.execute(db);
    await downThrough(db, '20261206_0079_treasury_wallets');
    await migrateToLatest(db);
  });

  it('0014 carries a webhook lease in force over to webhook_delivery_leases, and back down', async () => {
    const handle = await database();
    const db = handle.db;
    await migrateToLatest(db);
    expect((await downThrough(db, '20261125_0014_webhook_delivery_leases')).at(-1)).toEqual('Down 20261125_0014_webhook_delivery_leases');

    const [merchant, endpoint, event, leased, idle] = ['01', '02', '03', '04', '05'].map((n) => `0190a0e0-0000-7000-8000-0000000000${n}`);
    const token = '0190a0e0-0000-7000-8000-000000000099';
    const until = new Date('2030-01-01T00:00:00Z');
    await sql`insert into merchants (id, name, status) values (${merchant}, 'm', 'ACTIVE')`.execute(db);
    await sql`insert into webhook_endpoints (id, merchant_id, url) values (${endpoint}, ${merchant}, 'https://example.com/hooks')`.execute(db);
    await sql`insert into events (id, merchant_id, event_type, payload) values (${event}, ${merchant}, 'order.completed', '{}')`.execute(db);
    await sql`
      insert into webhook_deliveries (id, merchant_id, endpoint_id, event_id, event_type, order_id, next_attempt_at, claimed_until, claim_token)
      values (${leased}, ${merchant}, ${endpoint}, ${event}, 'order.completed', 'order-1', now(), ${until}, ${token})`.execute(db);
    await sql`insert into events (id, merchant_id, event_type, payload) values (${idle}, ${merchant}, 'order.completed', '{}')`.execute(db);
    await sql`
      insert into webhook_deliveries (id, merchant_id, endpoint_id, event_id, event_type, next_attempt_at)
      values (${idle}, ${merchant}, ${endpoint}, ${idle}, 'order.completed', now())`.execute(db);

    expect((await migrateToLatest(db))[0]).toEqual('Up 20261125_0014_webhook_delivery_leases');
    const leases = await sql<{ delivery_id: string; order_id: string; token: string; claimed_until: Date }>`
      select delivery_id, order_id, token, claimed_until from webhook_delivery_leases`.execute(db);
    expect(leases.rows).toEqual([{ delivery_id: leased, order_id: 'order-1', token, claimed_until: until }]);

    await downThrough(db, '20261125_0014_webhook_delivery_leases');
    const restored = await sql<{ id: string; claimed_until: Date | null; claim_token: string | null }>`
      select id, claimed_until, claim_token from webhook_deliveries order by id`.execute(db);
    expect(restored.rows).toEqual([
      { id: leased, claimed_until: until, claim_token: token },
      { id: idle, claimed_until: null, claim_token: null },
    ]);
  });
});
