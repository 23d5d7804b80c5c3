/**
 * Every table's place under Citus (docs/architecture/scale.md, decision 0048), machine-readable so
 * test/db/scale-classification.test.ts can hold the migrated schema to it: a table missing here, a
 * distributed table without its `merchant_id`, a foreign key Citus would refuse that is not in
 * FOREIGN_KEYS_TO_REWRITE, or a queue claim (FOR UPDATE SKIP LOCKED) not in QUEUE_CLAIMS fails it.
 *
 * - `distributed`: sharded by `merchant_id`; every row is one merchant's, co-located with that
 *   merchant's other rows, so a merchant's transaction stays on one worker node.
 * - `reference`: small, rarely written, read or referenced from every shard: copied to every node.
 * - `local`: stays on the coordinator only: platform and operator state, the workers' own tables,
 *   and the simulators' tables (never in production).
 */

export type ScaleClass =
  | {
      class: 'distributed';
      /** The distribution column when it is not `merchant_id` (merchants would be by `id`; none is today). */
      column?: string;
      /** The table lacks `merchant_id` today: the column to add before distributing, and where its value comes from. */
      missingColumn?: string;
      /** `merchant_id` exists but is nullable: why, and what those rows become (Citus refuses a NULL distribution value). */
      nullable?: string;
      why: string;
    }
  | { class: 'reference' | 'local'; why: string };

const byOrder = 'merchant_id to add, from its order (orders.merchant_id)';

export const SCALE_CLASSES: Readonly<Record<string, ScaleClass>> = {
  // A merchant's own rows.
  chain_deposits: { class: 'distributed', missingColumn: byOrder, why: "a PAYOUT's detected deposits" },
  deposit_addresses: { class: 'distributed', missingColumn: "merchant_id to add, from the order or the Idempotency-Key's merchant", why: "a PAYOUT's deposit address and its sealed key" },
  deposit_sweeps: { class: 'distributed', missingColumn: `${byOrder} or its payout batch (payout_batches.merchant_id)`, why: "a PAYOUT's or a payout batch's sweep of its deposit address, or of one deposit to a standing address" },
  disputes: { class: 'distributed', why: "a merchant's MED claims, beside their orders" },
  events: { class: 'distributed', why: "the outbox: a merchant's order events" },
  idempotency_keys: { class: 'distributed', why: 'keyed (merchant_id, key) already' },
  ledger_entries: {
    class: 'distributed',
    nullable: "platform entries (treasury fundings and withdrawals) have none: they become tenant zero's, a reserved merchant_id of the platform's own",
    why: "a merchant's ledger entries, written in the same transaction as its order",
  },
  ledger_postings: { class: 'distributed', missingColumn: 'merchant_id to add, from its entry (ledger_entries.merchant_id)', why: "an entry's lines, beside their entry" },
  managed_wallets: { class: 'distributed', why: "a merchant's receivers' managed wallets" },
  merchant_completed_volume: { class: 'distributed', why: "a merchant's completed volume (fee tiers), updated with its orders" },
  merchant_fee_tiers: { class: 'distributed', why: "a merchant's own fee tiers" },
  merchant_markups: { class: 'distributed', why: "a merchant's partner markup" },
  merchant_order_counts: { class: 'distributed', why: "a merchant's order counters, updated by trigger with every order" },
  operations_register: { class: 'distributed', why: "the register of a merchant's movements; the month's export is a multi-shard read" },
  order_transactions: { class: 'distributed', missingColumn: byOrder, why: "an order's PIX and chain transactions" },
  orders: { class: 'distributed', why: 'the hot table: every order is one merchant' },
  password_resets: { class: 'distributed', missingColumn: 'merchant_id to add, from its user (users.merchant_id)', why: "a merchant's person's reset links" },
  quotes: { class: 'distributed', why: "a merchant's quotes" },
  receiver_daily_usage: { class: 'distributed', missingColumn: 'merchant_id to add, from its receiver (receivers.merchant_id)', why: "a receiver's daily limits, updated by each order" },
  receiver_kyc_submissions: { class: 'distributed', missingColumn: 'merchant_id to add, from its receiver (receivers.merchant_id)', why: "a receiver's KYC file" },
  receivers: { class: 'distributed', why: "a merchant's end users" },
  settled_entries: { class: 'distributed', missingColumn: 'merchant_id to add, from its settlement (settlements.merchant_id)', why: "the entries a merchant's settlement covers" },
  settlements: { class: 'distributed', why: "a merchant's settlements" },
  settlement_pix_keys: { class: 'distributed', why: "the PIX key a merchant's settlements are paid to, approved by two operators" },
  standing_pix_charges: { class: 'distributed', why: "a merchant's receivers' standing PIX charges" },
  standing_deposit_addresses: { class: 'distributed', why: "a merchant's receivers' standing deposit addresses" },
  standing_address_deposits: { class: 'distributed', why: "the deposits to a merchant's standing addresses" },
  payout_batches: { class: 'distributed', why: "a merchant's payout batches" },
  payout_batch_items: { class: 'distributed', missingColumn: 'merchant_id to add, from its batch (payout_batches.merchant_id)', why: "a merchant's payout batch lines" },
  payout_batch_settings: { class: 'distributed', why: "a merchant's batch approval threshold" },
  sponsor_daily_usage: { class: 'distributed', why: "a merchant's sponsor budget per day" },
  unproven_wallet_daily_usage: { class: 'distributed', why: "a merchant's unproven-wallet limit per day" },
  user_invitations: { class: 'distributed', why: "a merchant's invitations" },
  user_sessions: { class: 'distributed', missingColumn: 'merchant_id to add, from its user (users.merchant_id)', why: "a merchant's people's sessions" },
  users: { class: 'distributed', why: "a merchant's people" },
  wallet_ownership_challenges: { class: 'distributed', why: "a merchant's receivers' SIWS challenges" },
  wallet_ownership_proofs: { class: 'distributed', why: "a merchant's receivers' wallet proofs" },
  wallet_sign_requests: { class: 'distributed', why: "a merchant's managed-wallet signatures" },

  // Small, read everywhere, referenced by distributed rows.
  api_credentials: { class: 'reference', why: 'a few keys per merchant, written when one is made or revoked, looked up by key id on every request: on every node, that lookup needs no merchant_id' },
  merchants: { class: 'reference', why: 'one row per merchant, written on onboarding and status changes, referenced by every distributed table (a foreign key to a reference table is allowed from any shard)' },
  ledger_accounts: { class: 'reference', why: "a handful per merchant and the platform's own (merchant_id null), created once, referenced by every posting" },
  platform_fee_tiers: { class: 'reference', why: 'the default tiers every quote reads' },

  // The coordinator's own.
  admin_audit_log: { class: 'local', why: "operators' append-only audit log; merchant_id is what an action touched (nullable), read by operators across merchants" },
  approvals: { class: 'local', why: 'four-eyes approvals of operators (merchant_id nullable: many are platform actions)' },
  chain_lookup_table_extensions: { class: 'local', why: "the treasury's transactions that append to its lookup tables, one in flight; written and read by the worker only" },
  chain_lookup_tables: { class: 'local', why: "the treasury's address lookup tables, holding token accounts of any merchant's receivers; read by the worker only" },
  chain_transfer_batches: { class: 'local', why: "one treasury transaction for several PAYINs' transfers, of many merchants at once; written and read by the worker only" },
  idempotency_owners: { class: 'local', why: "the processes that own in-flight Idempotency-Keys, with their heartbeats" },
  kysely_migration: { class: 'local', why: 'the migrations applied (Citus propagates DDL from the coordinator)' },
  kysely_migration_lock: { class: 'local', why: "the migrations' lock" },
  operator_invitations: { class: 'local', why: 'operators are the platform\'s, not a merchant\'s' },
  operator_sessions: { class: 'local', why: "operators' sessions" },
  operators: { class: 'local', why: 'the back office people' },
  personal_data_sealing: { class: 'local', why: "the sealing marker: one row, the platform's KEK version" },
  pix_notification_rejections: { class: 'local', why: 'PSP callbacks refused before a merchant is known' },
  platform_keys: { class: 'local', why: "the treasury and sponsor keys, read by the worker only" },
  psp_reconciliation_runs: { class: 'local', why: 'the PSP reconciliation runs of the platform' },
  service_accounts: { class: 'local', why: "operators' service accounts" },
  sign_in_failures: { class: 'local', why: 'back-off by hashed sign-in key, before a merchant is known' },
  treasury_fundings: { class: 'local', why: "the platform treasury's fundings" },
  treasury_reconciliation_balances: { class: 'local', why: "the treasury reconciliation's figures" },
  treasury_reconciliation_runs: { class: 'local', why: 'the treasury reconciliation runs' },
  treasury_withdrawals: { class: 'local', why: "the platform treasury's withdrawals" },
  workers: { class: 'local', why: 'worker instances and their advisory-lock keys' },

  // The webhook queue on the coordinator (DESIGN.md: queue tables there, where SKIP LOCKED and LISTEN/NOTIFY work as today).
  webhook_deliveries: { class: 'local', why: 'the delivery queue: claimed fairly across every endpoint, so it stays whole on the coordinator; fed by the fan-out from the distributed events' },
  webhook_delivery_attempts: { class: 'local', why: "the deliveries' attempts, pruned with them" },
  webhook_delivery_leases: { class: 'local', why: "the deliveries' leases" },
  webhook_endpoint_secrets: { class: 'local', why: "the endpoints' signing secrets, read by the delivery worker" },
  webhook_endpoints: { class: 'local', why: 'a few per merchant, locked by the delivery claim (FOR NO KEY UPDATE … SKIP LOCKED) beside the queue' },

  // Simulators (SIMULATION_MODE, tests): never in a production cluster.
  sandbox_chain_armed_failures: { class: 'local', why: 'sandbox chain' },
  sandbox_chain_deposit_addresses: { class: 'local', why: 'sandbox chain' },
  sandbox_chain_deposits: { class: 'local', why: 'sandbox chain' },
  sandbox_chain_transfer_failures: { class: 'local', why: 'sandbox chain' },
  sandbox_chain_transfers: { class: 'local', why: 'sandbox chain' },
  sandbox_pix_armed_failures: { class: 'local', why: 'sandbox PSP' },
  sandbox_pix_charges: { class: 'local', why: 'sandbox PSP' },
  sandbox_pix_infractions: { class: 'local', why: 'sandbox PSP' },
  sandbox_pix_keys: { class: 'local', why: 'sandbox PSP' },
  sandbox_pix_payouts: { class: 'local', why: 'sandbox PSP' },
  sandbox_pix_refunds: { class: 'local', why: 'sandbox PSP' },
  sandbox_pix_received: { class: 'local', why: 'sandbox PSP' },
};

/**
 * Foreign keys Citus would refuse as they stand (`table.column -> table.column`): between two
 * distributed tables without the distribution column on both sides, or from a distributed table to
 * a local one. Each becomes (merchant_id, x) → (merchant_id, id) once both tables carry merchant_id
 * and their primary keys include it. The test fails when one is added, or fixed and still listed.
 */
export const FOREIGN_KEYS_TO_REWRITE: readonly string[] = [
  'chain_deposits.deposit_address -> deposit_addresses.owner_address',
  'chain_deposits.order_id -> orders.id',
  'deposit_sweeps.deposit_address -> deposit_addresses.owner_address',
  'deposit_sweeps.order_id -> orders.id',
  'deposit_sweeps.payout_batch_id -> payout_batches.id',
  'deposit_sweeps.standing_deposit_signature -> standing_address_deposits.signature',
  'disputes.order_id -> orders.id',
  'ledger_postings.entry_id -> ledger_entries.id',
  'managed_wallets.receiver_id -> receivers.id',
  'order_transactions.order_id -> orders.id',
  'orders.quote_id -> quotes.id',
  'orders.receiver_id -> receivers.id',
  'password_resets.user_id -> users.id',
  'payout_batch_items.batch_id -> payout_batches.id',
  'payout_batch_items.order_id -> orders.id',
  'quotes.receiver_id -> receivers.id',
  'receiver_daily_usage.receiver_id -> receivers.id',
  'receiver_kyc_submissions.receiver_id -> receivers.id',
  'settled_entries.entry_id -> ledger_entries.id',
  'settled_entries.settlement_id -> settlements.id',
  'settlement_pix_keys.approval_id -> approvals.id',
  'settlement_pix_keys.requested_by -> operators.id',
  'settlements.payout_key_id -> settlement_pix_keys.id',
  'standing_address_deposits.order_id -> orders.id',
  'standing_address_deposits.standing_address_id -> standing_deposit_addresses.id',
  'standing_deposit_addresses.receiver_id -> receivers.id',
  'standing_pix_charges.receiver_id -> receivers.id',
  'user_invitations.invited_by -> users.id',
  'user_sessions.user_id -> users.id',
  'wallet_ownership_challenges.receiver_id -> receivers.id',
  'wallet_ownership_proofs.challenge_id -> wallet_ownership_challenges.id',
  'wallet_ownership_proofs.receiver_id -> receivers.id',
  'wallet_sign_requests.receiver_id -> receivers.id',
  'webhook_deliveries.event_id -> events.id',
];

/**
 * Every statement in src/ that claims queued rows with FOR UPDATE … SKIP LOCKED, by file, with
 * whether it filters on merchant_id. Citus runs such a statement on one shard only when it does;
 * a multi-shard FOR UPDATE is refused. `perTenant: false` claims are the work to do before the
 * tables they claim from are distributed (scale.md, "Queue claims"). The test counts the claims in
 * each file, so a new one fails it until it is listed here.
 */
export const QUEUE_CLAIMS: readonly { file: string; count: number; table: string; perTenant: boolean; note: string }[] = [
  { file: 'src/platform/leases.ts', count: 3, table: 'orders, disputes; purged tables', perTenant: false, note: 'claimDue (orders, disputes) and purgeBatch across merchants; skipHeld is the helper its callers use (counted at them)' },
  { file: 'src/modules/orders/repo.ts', count: 1, table: 'orders', perTenant: false, note: 'dueExpiries: the expiry sweep across merchants' },
  { file: 'src/modules/orders/transfer-batch-repo.ts', count: 1, table: 'orders', perTenant: false, note: "claimMates: a transfer batch's orders, across merchants (one treasury transaction carries several merchants' PAYINs)" },
  { file: 'src/modules/webhooks/repo.ts', count: 1, table: 'events', perTenant: false, note: 'claimEventsToFanOut: the outbox fan-out across merchants' },
  { file: 'src/modules/webhooks/delivery-repo.ts', count: 1, table: 'webhook_endpoints', perTenant: false, note: 'the fair claim across every endpoint with work: local tables, stays as it is' },
  { file: 'src/adapters/pix/sandbox-repo.ts', count: 2, table: 'sandbox_pix_*', perTenant: false, note: 'the sandbox PSP (local tables): not distributed' },
];

/**
 * The hot statements (test/sql-snapshots/, one file each) and whether each runs on one merchant's
 * shard: `filtered` ones say `merchant_id = $n` on the table they read; `cross-tenant` ones do
 * not, and `why` says what that costs under Citus. The test reads every snapshot: an unlisted one
 * fails it, and so does a `filtered` one without the filter or a `cross-tenant` one that has it.
 */
export const HOT_QUERIES: Readonly<Record<string, { tenant: 'filtered' | 'cross-tenant'; why: string }>> = {
  'orders-claim-expiries': { tenant: 'cross-tenant', why: 'the expiry sweep over every merchant: multi-shard FOR UPDATE, refused by Citus; to become one claim per merchant with due work' },
  'orders-claim-steps': { tenant: 'cross-tenant', why: "the worker's claim of due orders over every merchant: multi-shard FOR UPDATE, refused; to become one claim per merchant with due work" },
  'orders-insert-reserved': { tenant: 'filtered', why: "the order's insert with its receiver's limits: one merchant" },
  'orders-list-amount-page': { tenant: 'filtered', why: "GET /orders by amount: one merchant's orders" },
  'orders-list-cursor-page': { tenant: 'filtered', why: "GET /orders after a cursor: one merchant's orders" },
  'orders-list-first-page': { tenant: 'filtered', why: "GET /orders: one merchant's orders" },
  'webhooks-claim-deliveries': { tenant: 'cross-tenant', why: 'the fair claim across every endpoint with work, on the coordinator-local webhook tables: runs there as today' },
};
