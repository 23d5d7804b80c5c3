import { type Insertable, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { ManagedWalletsTable, WalletSignRequestsTable } from './tables.ts';

/** A wallet's public columns: what shows the wallet without being able to sign with it. */
const WALLET_COLUMNS = ['id', 'merchant_id', 'receiver_id', 'address', 'created_at'] as const;
/** The public columns and the sealed key: only the statements that feed the signer select these. */
const SIGNING_COLUMNS = [...WALLET_COLUMNS, 'encrypted_private_key', 'key_version'] as const;

/** Every function takes the transaction (or root db) it runs in. */
export const walletsRepo = {
  async insertReceiverWallet(db: Db, row: Insertable<ManagedWalletsTable>): Promise<void> {
    await db.insertInto('managed_wallets').values(row).execute();
  },

  /** The merchant's own wallet, unless one exists already (then undefined): safe against two concurrent first calls. */
  insertOwnWalletIfAbsent(db: Db, row: Insertable<ManagedWalletsTable>) {
    return db
      .insertInto('managed_wallets')
      .values({ ...row, receiver_id: null })
      .onConflict((oc) => oc.column('merchant_id').where('receiver_id', 'is', null).doNothing())
      .returning(SIGNING_COLUMNS)
      .executeTakeFirst();
  },

  /** The merchant's own wallet with its sealed key, for signing. */
  findOwnWallet(db: Db, merchantId: string) {
    return db.selectFrom('managed_wallets').select(SIGNING_COLUMNS).where('merchant_id', '=', merchantId).where('receiver_id', 'is', null).executeTakeFirst();
  },

  /** The merchant's own wallet to show: no key. */
  findOwnWalletPublic(db: Db, merchantId: string) {
    return db.selectFrom('managed_wallets').select(WALLET_COLUMNS).where('merchant_id', '=', merchantId).where('receiver_id', 'is', null).executeTakeFirst();
  },

  /** The receiver's wallet and the receiver's standing (status, KYC) in one query: the standing decides whether it may sign. */
  findReceiverWallet(db: Db, merchantId: string, receiverId: string) {
    return db
      .selectFrom('managed_wallets as w')
      .innerJoin('receivers as r', 'r.id', 'w.receiver_id')
      .select(SIGNING_COLUMNS.map((column) => `w.${column}` as const))
      .select(['r.status as receiver_status', 'r.kyc_status as receiver_kyc_status'])
      .where('w.merchant_id', '=', merchantId)
      .where('w.receiver_id', '=', receiverId)
      .executeTakeFirst();
  },

  /** The receiver's standing now (the wallet row is cached, the standing never is). */
  findReceiverStanding(db: Db, merchantId: string, receiverId: string) {
    return db
      .selectFrom('receivers')
      .select(['status as receiver_status', 'kyc_status as receiver_kyc_status'])
      .where('id', '=', receiverId)
      .where('merchant_id', '=', merchantId)
      .executeTakeFirst();
  },

  /**
   * Several audit rows in one statement (the service group-commits them). One array parameter per
   * column through unnest, so every batch size is the same SQL text: one prepared statement, and
   * no 13 × rows parameters to bind.
   */
  async recordSignRequests(db: Db, rows: ReadonlyArray<Insertable<WalletSignRequestsTable>>): Promise<void> {
    const column = <T>(pick: (row: Insertable<WalletSignRequestsTable>) => T) => rows.map(pick);
    await sql`
      insert into wallet_sign_requests
        (id, merchant_id, receiver_id, wallet_address, operation, outcome, reason, message, signature, fee_lamports, request_id, created_at)
      select * from unnest(
        ${column((r) => r.id)}::uuid[], ${column((r) => r.merchant_id)}::uuid[], ${column((r) => r.receiver_id ?? null)}::uuid[],
        ${column((r) => r.wallet_address ?? null)}::text[], ${column((r) => r.operation)}::text[], ${column((r) => r.outcome)}::text[],
        ${column((r) => r.reason ?? null)}::text[], ${column((r) => r.message ?? null)}::text[], ${column((r) => r.signature ?? null)}::text[],
        ${column((r) => (r.fee_lamports == null ? null : String(r.fee_lamports)))}::bigint[], ${column((r) => r.request_id ?? null)}::text[],
        ${column((r) => (r.created_at instanceof Date ? r.created_at.toISOString() : (r.created_at ?? new Date().toISOString())))}::timestamptz[]
      )`.execute(db);
  },

  /**
   * Adds `lamports` to the merchant's day unless that passes `budget`: one guarded upsert, so
   * concurrent sends (any process) queue on the row and none is let past the budget. The day's
   * new total, or undefined when refused (nothing changes then).
   */
  async reserveSponsorFee(db: Db, input: { merchantId: string; day: string; lamports: bigint; budget: number }): Promise<bigint | undefined> {
    const result = await sql<{ used_lamports: string }>`
      insert into sponsor_daily_usage as u (merchant_id, day, used_lamports)
      select ${input.merchantId}::uuid, ${input.day}::date, ${input.lamports.toString()}::bigint
      where ${input.lamports.toString()}::bigint <= ${String(input.budget)}::bigint
      on conflict (merchant_id, day) do update
        set used_lamports = u.used_lamports + excluded.used_lamports
        where u.used_lamports + excluded.used_lamports <= ${String(input.budget)}::bigint
      returning u.used_lamports`.execute(db);
    const row = result.rows[0];
    return row ? BigInt(row.used_lamports) : undefined;
  },

  /** Gives back a reservation whose transaction was never sent. */
  async releaseSponsorFee(db: Db, input: { merchantId: string; day: string; lamports: bigint }): Promise<void> {
    await sql`
      update sponsor_daily_usage set used_lamports = greatest(used_lamports - ${input.lamports.toString()}::bigint, 0)
      where merchant_id = ${input.merchantId} and day = ${input.day}::date`.execute(db);
  },

  async sponsorFeesUsed(db: Db, merchantId: string, day: string): Promise<bigint> {
    const row = await db.selectFrom('sponsor_daily_usage').select('used_lamports').where('merchant_id', '=', merchantId).where('day', '=', day).executeTakeFirst();
    return BigInt(row?.used_lamports ?? 0);
  },
};
