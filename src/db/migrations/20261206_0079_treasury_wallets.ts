import { type Kysely, sql } from 'kysely';

/**
 * The treasury as several hot wallets (decision 0057): wallet 1 is the TREASURY key, wallets 2 to 8
 * the keys TREASURY_2 … TREASURY_8. Each wallet has its own books: the ledger's token_treasury
 * accounts gain a `wallet` (1 for every one before this migration), fundings, withdrawals and
 * reconciliation rows name theirs, and a PAYIN records the wallet its transfer was signed by
 * (null on the orders before this migration: wallet 1, left unwritten so the migration rewrites no
 * order). Everything before it was wallet 1's.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table platform_keys drop constraint platform_keys_purpose_check`.execute(db);
  await sql`alter table platform_keys add constraint platform_keys_purpose_check check (purpose in ('TREASURY', 'SPONSOR') or purpose ~ '^TREASURY_[2-8]$')`.execute(db);

  await sql`alter table orders add column treasury_wallet smallint check (treasury_wallet between 1 and 8)`.execute(db);
  // The open PAYINs' index carries the wallet: the reconciliation sums the transfers in flight per wallet from it alone.
  await sql`drop index orders_open_payins_idx`.execute(db);
  await sql`
    create index orders_open_payins_idx on orders (token, status) include (amount_token, treasury_wallet)
    where type = 'PAYIN' and status in ('AWAITING_PAYMENT', 'PAYMENT_RECEIVED', 'SWAPPING', 'TRANSFERRING')`.execute(db);

  await sql`alter table ledger_accounts add column wallet smallint`.execute(db);
  await sql`update ledger_accounts set wallet = 1 where code = 'token_treasury'`.execute(db);
  await sql`alter table ledger_accounts add constraint ledger_accounts_wallet_check check ((code = 'token_treasury') = (wallet is not null) and (wallet is null or wallet between 1 and 8))`.execute(db);
  await sql`drop index ledger_accounts_key`.execute(db);
  await sql`create unique index ledger_accounts_key on ledger_accounts (code, coalesce(merchant_id, '00000000-0000-0000-0000-000000000000'::uuid), currency, coalesce(wallet, 0))`.execute(db);

  for (const table of ['treasury_fundings', 'treasury_withdrawals', 'treasury_reconciliation_balances']) {
    await sql`alter table ${sql.table(table)} add column wallet smallint not null default 1 check (wallet between 1 and 8)`.execute(db);
  }
  await sql`alter table treasury_reconciliation_balances drop constraint treasury_reconciliation_balances_pkey`.execute(db);
  await sql`alter table treasury_reconciliation_balances add constraint treasury_reconciliation_balances_pkey primary key (run_id, wallet, currency)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // Wallet 2's books or key cannot be folded into wallet 1's by a migration: an operator's decision.
  const { rows } = await sql<{ n: number }>`select (select count(*) from ledger_accounts where wallet > 1) + (select count(*) from platform_keys where purpose like 'TREASURY\_%') as n`.execute(db);
  if (Number(rows[0]!.n) > 0) throw new Error('migration 0079 cannot be undone: treasury wallets beyond the first have keys or books');
  await sql`alter table treasury_reconciliation_balances drop constraint treasury_reconciliation_balances_pkey`.execute(db);
  await sql`delete from treasury_reconciliation_balances where wallet <> 1`.execute(db);
  await sql`alter table treasury_reconciliation_balances add constraint treasury_reconciliation_balances_pkey primary key (run_id, currency)`.execute(db);
  for (const table of ['treasury_fundings', 'treasury_withdrawals', 'treasury_reconciliation_balances']) {
    await sql`alter table ${sql.table(table)} drop column wallet`.execute(db);
  }
  await sql`drop index ledger_accounts_key`.execute(db);
  await sql`alter table ledger_accounts drop constraint ledger_accounts_wallet_check`.execute(db);
  await sql`alter table ledger_accounts drop column wallet`.execute(db);
  await sql`create unique index ledger_accounts_key on ledger_accounts (code, coalesce(merchant_id, '00000000-0000-0000-0000-000000000000'::uuid), currency)`.execute(db);
  await sql`drop index orders_open_payins_idx`.execute(db);
  await sql`
    create index orders_open_payins_idx on orders (token, status) include (amount_token)
    where type = 'PAYIN' and status in ('AWAITING_PAYMENT', 'PAYMENT_RECEIVED', 'SWAPPING', 'TRANSFERRING')`.execute(db);
  await sql`alter table orders drop column treasury_wallet`.execute(db);
  await sql`alter table platform_keys drop constraint platform_keys_purpose_check`.execute(db);
  await sql`alter table platform_keys add constraint platform_keys_purpose_check check (purpose in ('TREASURY', 'SPONSOR'))`.execute(db);
}
