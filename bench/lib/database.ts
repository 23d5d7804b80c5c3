/** The bench database: created fresh per run, seeded in bulk by SQL, dropped at the end. */
import pg from 'pg';

export const adminUrl = (base: string, database = 'postgres') => {
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.toString();
};

export async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function createDatabase(serverUrl: string, name: string): Promise<void> {
  await withClient(adminUrl(serverUrl), (client) => client.query(`create database ${quoteIdent(name)}`));
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  await withClient(adminUrl(serverUrl), (client) => client.query(`drop database if exists ${quoteIdent(name)} with (force)`));
}

export async function serverVersion(serverUrl: string): Promise<string> {
  return withClient(adminUrl(serverUrl), async (client) => (await client.query<{ v: string }>('select version() as v')).rows[0]!.v);
}

function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsafe database name ${name}`);
  return `"${name}"`;
}

const FAKE_WALLET = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T';

/** `count` receivers of the merchant that may take orders at any hour (ACTIVE, KYC approved, night allowed, no limits). */
export async function seedReceivers(dbUrl: string, merchantId: string, count: number): Promise<string[]> {
  return withClient(dbUrl, async (client) => {
    const inserted = await client.query<{ id: string }>(
      `insert into receivers (id, merchant_id, person_type, document_type, document, name, email, status, kyc_status, kyc_reviewed_at,
                              wallet_address, night_transactions_enabled, created_at, updated_at)
       select gen_random_uuid(), $1, 'PJ', 'CNPJ', 'SPREAD' || lpad(i::text, 8, '0'), 'Spread Receiver ' || i, 'spread' || i || '@bench.example',
              'ACTIVE', 'APPROVED', now(), $2, true, now(), now()
       from generate_series(1, $3) i
       returning id`,
      [merchantId, FAKE_WALLET, count],
    );
    return inserted.rows.map((row) => row.id);
  });
}

/**
 * Bulk orders for one merchant: `count` rows from generate_series, spread over the last 365 days,
 * 70 % PAYIN, terminal statuses only (COMPLETED ~75 %, EXPIRED 15 %, FAILED/REFUNDED the rest: nothing
 * for the worker to pick up), realistic amounts and fees, 50 receivers, and one CONFIRMED movement per
 * completed order. User triggers on `orders` (e.g. maintained counters) are disabled during the insert
 * and `merchant_order_counts` and `merchant_completed_volume`, if present, are recomputed for the merchant afterwards.
 */
export async function seedOrders(dbUrl: string, merchantId: string, count: number, log: (msg: string) => void): Promise<{ ms: number; triggers: string[] }> {
  const started = performance.now();
  const triggers = await withClient(dbUrl, async (client) => {
    const receivers = 50;
    await client.query(
      `insert into receivers (id, merchant_id, person_type, document_type, document, name, email, status, kyc_status, kyc_reviewed_at,
                              wallet_address, night_transactions_enabled, created_at, updated_at)
       select gen_random_uuid(), $1, 'PF', 'CPF', 'BENCH' || lpad(i::text, 6, '0'), 'Bench Receiver ' || i, 'receiver' || i || '@bench.example',
              'ACTIVE', 'APPROVED', now() - interval '400 days', $2, true, now() - interval '400 days', now() - interval '400 days'
       from generate_series(1, $3) i`,
      [merchantId, FAKE_WALLET, receivers],
    );
    const userTriggers = (
      await client.query<{ tgname: string }>(`select tgname from pg_trigger where tgrelid = 'orders'::regclass and not tgisinternal order by tgname`)
    ).rows.map((row) => row.tgname);
    if (userTriggers.length > 0) await client.query('alter table orders disable trigger user');
    try {
      await client.query(
        `with r as (select array_agg(id order by id) as ids from receivers where merchant_id = $1 and document like 'BENCH%'),
         s as (
           select i,
                  (i * 37) % 100 as bucket,
                  case when i % 10 < 7 then 'PAYIN' else 'PAYOUT' end as type,
                  (((i::bigint * 7919) % 500000) + 1000)::numeric / 100 as amount,
                  now() - interval '1 hour' - (i::float8 / $2) * interval '365 days' as created
           from generate_series(1, $2) i
         ),
         p as (
           select s.*,
                  case when bucket < 75 then 'COMPLETED' when bucket < 90 then 'EXPIRED' when bucket < 96 then 'FAILED'
                       when type = 'PAYIN' then 'REFUNDED' else 'FAILED' end as status,
                  round(amount * 0.01, 2) as platform_fee,
                  round(amount * 0.005, 2) as merchant_fee
           from s
         )
         insert into orders (id, merchant_id, receiver_id, type, status, chain, token, external_id, amount_brl, amount_token, exchange_rate,
                             platform_fee_percentage, merchant_fee_percentage, platform_fee_amount_brl, merchant_fee_amount_brl, net_amount_brl,
                             destination_wallet, pix_txid, pix_payment_code, pix_key, pix_key_type, recipient_name, tx_hash, failure_reason,
                             limit_day, limit_released, expires_at, completed_at, next_step_at, step_attempts, created_at, updated_at)
         select gen_random_uuid(), $1, r.ids[1 + (i % array_length(r.ids, 1))], type, status, 'solana', 'USDC',
                case when i % 4 = 0 then 'ext-' || i end,
                amount, trunc((amount - platform_fee - merchant_fee) / 5.4, 6), 5.40,
                0.01, 0.005, platform_fee, merchant_fee, amount - platform_fee - merchant_fee,
                case when type = 'PAYIN' then '${FAKE_WALLET}' end,
                case when type = 'PAYIN' then replace(gen_random_uuid()::text, '-', '') end,
                case when type = 'PAYIN' then '00020126580014br.gov.bcb.pix0136bench-static-code-for-seeded-orders5204000053039865802BR6304ABCD' end,
                case when type = 'PAYOUT' then '52998224725' end,
                case when type = 'PAYOUT' then 'CPF' end,
                case when type = 'PAYOUT' then 'Bench Receiver' end,
                case when status = 'COMPLETED' then md5(i::text || $1::text) end,
                case when status = 'FAILED' then 'Seeded failure' end,
                (created at time zone 'America/Sao_Paulo')::date,
                status in ('EXPIRED', 'FAILED'),
                created + interval '15 minutes',
                case when status = 'COMPLETED' then created + interval '2 minutes' end,
                null, 0, created,
                created + interval '2 minutes'
         from p, r`,
        [merchantId, count],
      );
    } finally {
      if (userTriggers.length > 0) await client.query('alter table orders enable trigger user');
    }
    const volumes = await client.query<{ exists: boolean }>(`select to_regclass('merchant_completed_volume') is not null as exists`);
    if (volumes.rows[0]!.exists) {
      await client.query('delete from merchant_completed_volume where merchant_id = $1', [merchantId]);
      await client.query(
        `insert into merchant_completed_volume (merchant_id, type, month, shard, amount_brl)
         select merchant_id, type, date_trunc('month', completed_at at time zone 'America/Sao_Paulo')::date, 0, sum(amount_brl)
         from orders where merchant_id = $1 and status = 'COMPLETED' group by 1, 2, 3`,
        [merchantId],
      );
    }
    const counters = await client.query<{ exists: boolean }>(`select to_regclass('merchant_order_counts') is not null as exists`);
    if (counters.rows[0]!.exists) {
      await client.query('delete from merchant_order_counts where merchant_id = $1', [merchantId]);
      await client.query(
        `insert into merchant_order_counts (merchant_id, type, status, shard, count)
         select merchant_id, type, status, 0, count(*) from orders where merchant_id = $1 group by merchant_id, type, status`,
        [merchantId],
      );
    }
    await client.query(
      `insert into order_transactions (id, order_id, type, status, amount, currency, chain, tx_hash, created_at, updated_at)
       select gen_random_uuid(), id, case when type = 'PAYIN' then 'PIX_IN' else 'CHAIN_DEPOSIT' end, 'CONFIRMED',
              case when type = 'PAYIN' then amount_brl else amount_token end,
              case when type = 'PAYIN' then 'BRL' else token end,
              case when type = 'PAYIN' then null else chain end,
              tx_hash, created_at + interval '1 minute', created_at + interval '1 minute'
       from orders where merchant_id = $1 and status = 'COMPLETED'`,
      [merchantId],
    );
    return userTriggers;
  });
  const ms = performance.now() - started;
  log(`seeded ${count} orders for ${merchantId} in ${(ms / 1000).toFixed(1)} s${triggers.length ? ` (user triggers disabled during the insert: ${triggers.join(', ')})` : ''}`);
  return { ms, triggers };
}

/**
 * Statistics for the tables the seeding filled, and only those. An ANALYZE of the still-empty
 * tables (the webhook queue, the leases) records them as empty; every connection then plans its
 * foreign-key checks against them once, as sequential scans, and keeps those plans until the next
 * ANALYZE, which autovacuum runs about a minute later. Every delivery then scanned the growing
 * queue (bench/README.md, session of 2026-11-25 08:50). Autovacuum does not analyze an empty
 * table (it waits for 50 changed rows) and re-analyzes one as it grows by a tenth.
 */
export async function analyze(dbUrl: string): Promise<void> {
  await withClient(dbUrl, (client) => client.query('analyze merchants, receivers, orders, order_transactions, merchant_completed_volume, merchant_order_counts'));
}

/** The id of the order `depth` places down the merchant's newest-first list (a deep keyset cursor). */
export async function orderIdAtDepth(dbUrl: string, merchantId: string, depth: number): Promise<string> {
  return withClient(dbUrl, async (client) => {
    const result = await client.query<{ id: string }>(
      'select id from orders where merchant_id = $1 order by created_at desc, id desc offset $2 limit 1',
      [merchantId, depth],
    );
    return result.rows[0]!.id;
  });
}
