/**
 * Table types for Kysely. Column names are snake_case in SQL and here; the repos map rows to
 * the API's camelCase shapes so a column can never leak into a response by accident.
 */
import type { ColumnType, Selectable } from 'kysely';

/** Nullable timestamptz: read as Date or null, written as Date or ISO string. */
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** timestamptz with a database default (now()). */
type DefaultedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** jsonb: read parsed, written as a JSON string so both drivers send the same text. */
type Json<T> = ColumnType<T, string, string>;

export type MerchantStatus = 'ACTIVE' | 'DISABLED';

export interface MerchantsTable {
  id: string;
  name: string;
  status: MerchantStatus;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

export interface ApiCredentialsTable {
  id: string;
  merchant_id: string;
  /** Public key id, e.g. mk_..., sent as x-api-key. */
  key_id: string;
  /** HMAC-SHA256 of the secret under the pepper, hex. The secret itself is never stored. */
  secret_hash: string;
  created_at: DefaultedTimestamp;
  revoked_at: NullableTimestamp;
}

export interface EventsTable {
  id: string;
  merchant_id: string;
  event_type: string;
  /** The flat payload of the spec, without deliveryId (assigned per delivery). */
  payload: Json<Record<string, unknown>>;
  created_at: DefaultedTimestamp;
  /** Set by the webhook fan-out once the event's deliveries exist (migration 0004). */
  fanned_out_at: NullableTimestamp;
}

export interface AdminAuditLogTable {
  id: string;
  actor: string;
  action: string;
  target_type: string;
  target_id: string | null;
  details: Json<Record<string, unknown>>;
  request_id: string | null;
  created_at: DefaultedTimestamp;
}

export interface Database {
  merchants: MerchantsTable;
  api_credentials: ApiCredentialsTable;
  events: EventsTable;
  admin_audit_log: AdminAuditLogTable;
  receivers: ReceiversTable;
  receiver_kyc_submissions: ReceiverKycSubmissionsTable;
  platform_fee_tiers: PlatformFeeTiersTable;
  merchant_fee_tiers: MerchantFeeTiersTable;
  quotes: QuotesTable;
  orders: OrdersTable;
  order_transactions: OrderTransactionsTable;
  receiver_daily_usage: ReceiverDailyUsageTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_endpoint_secrets: WebhookEndpointSecretsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_delivery_attempts: WebhookDeliveryAttemptsTable;
  idempotency_keys: IdempotencyKeysTable;
  sandbox_pix_charges: SandboxPixChargesTable;
  sandbox_pix_refunds: SandboxPixRefundsTable;
  sandbox_pix_payouts: SandboxPixPayoutsTable;
  sandbox_chain_deposit_addresses: SandboxChainDepositAddressesTable;
  sandbox_chain_deposits: SandboxChainDepositsTable;
  sandbox_chain_transfers: SandboxChainTransfersTable;
  sandbox_chain_transfer_failures: SandboxChainTransferFailuresTable;
  ledger_accounts: LedgerAccountsTable;
  ledger_entries: LedgerEntriesTable;
  ledger_postings: LedgerPostingsTable;
  settlements: SettlementsTable;
  settled_entries: SettledEntriesTable;
  managed_wallets: ManagedWalletsTable;
  wallet_sign_requests: WalletSignRequestsTable;
  merchant_order_counts: MerchantOrderCountsTable;
}

export type MerchantRow = Selectable<MerchantsTable>;
export type EventRow = Selectable<EventsTable>;

export type PersonType = 'PF' | 'PJ';
export type DocumentType = 'CPF' | 'CNPJ';
export type ReceiverStatus = 'PENDING' | 'ACTIVE' | 'SUSPENDED' | 'BLOCKED';
export type KycStatus = 'PENDING' | 'SUBMITTED' | 'UNDER_REVIEW' | 'APPROVED' | 'REJECTED';
export type OrderType = 'PAYIN' | 'PAYOUT';

export interface ReceiversTable {
  id: string;
  merchant_id: string;
  person_type: PersonType;
  document_type: DocumentType;
  /** Normalised: bare uppercase digits/letters. */
  document: string;
  name: string;
  email: string;
  phone: string | null;
  address_street: string | null;
  address_number: string | null;
  address_complement: string | null;
  address_neighborhood: string | null;
  address_city: string | null;
  address_state: string | null;
  address_zip_code: string | null;
  status: ColumnType<ReceiverStatus, ReceiverStatus | undefined, ReceiverStatus>;
  kyc_status: ColumnType<KycStatus, KycStatus | undefined, KycStatus>;
  kyc_rejection_reason: string | null;
  kyc_submitted_at: NullableTimestamp;
  kyc_reviewed_at: NullableTimestamp;
  wallet_address: string | null;
  managed_wallet_requested: ColumnType<boolean, boolean | undefined, boolean>;
  /** NUMERIC: a decimal string, never a float. */
  daily_limit_brl: string | null;
  daily_transaction_limit: number | null;
  night_transactions_enabled: boolean;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

export interface ReceiverKycSubmissionsTable {
  id: string;
  receiver_id: string;
  /** DATE as 'YYYY-MM-DD' text (parsed as text on both drivers: no time zone shifts). */
  birth_date: string | null;
  incorporation_date: string | null;
  mother_name: string | null;
  documents: Json<Array<{ type: string; reference: string }>>;
  previous_rejection_reason: string | null;
  submitted_at: DefaultedTimestamp;
}

export interface PlatformFeeTiersTable {
  id: string;
  order_type: OrderType;
  min_volume_brl: string;
  max_volume_brl: string | null;
  platform_fee_percentage: string;
}

export interface MerchantFeeTiersTable {
  id: string;
  merchant_id: string;
  order_type: OrderType;
  min_volume_brl: string;
  max_volume_brl: string | null;
  platform_fee_percentage: string;
  merchant_fee_percentage: string;
  created_at: DefaultedTimestamp;
}

export type ReceiverRow = Selectable<ReceiversTable>;

export type WebhookDeliveryStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED';

export interface WebhookEndpointsTable {
  id: string;
  merchant_id: string;
  url: string;
  description: string | null;
  /** null: every event; else the event names the endpoint receives. */
  event_types: ColumnType<string[] | null, string | null, string | null>;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
  deleted_at: NullableTimestamp;
}

export interface WebhookEndpointSecretsTable {
  id: string;
  endpoint_id: string;
  /** AES-256-GCM ciphertext of the whsec_ secret (see modules/webhooks/secrets.ts). */
  secret_ciphertext: string;
  created_at: DefaultedTimestamp;
  /** null for the current secret; the previous one signs until then. */
  expires_at: NullableTimestamp;
}

export interface WebhookDeliveriesTable {
  /** The deliveryId (webhook-id header). */
  id: string;
  merchant_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  order_id: string | null;
  status: ColumnType<WebhookDeliveryStatus, WebhookDeliveryStatus | undefined, WebhookDeliveryStatus>;
  attempts: ColumnType<number, number | undefined, number>;
  retries_used: ColumnType<number, number | undefined, number>;
  next_attempt_at: NullableTimestamp;
  claimed_until: NullableTimestamp;
  claim_token: string | null;
  last_attempt_at: NullableTimestamp;
  last_status_code: number | null;
  last_error: string | null;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

export interface WebhookDeliveryAttemptsTable {
  id: string;
  delivery_id: string;
  attempt_number: number;
  attempted_at: ColumnType<Date, Date | string, Date | string>;
  succeeded: boolean;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  response_body: string | null;
}

export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type WebhookDeliveryAttemptRow = Selectable<WebhookDeliveryAttemptsTable>;

/**
 * Every order status of the spec ("States and transitions"), written once: the API's enum
 * (orders/schemas.ts), the column types below and the state machine (orders/state-machine.ts)
 * derive from it. The migration's CHECK is its frozen copy (migrations are never edited).
 */
export const ORDER_STATUSES = [
  'PENDING',
  'AWAITING_PAYMENT',
  'PAYMENT_RECEIVED',
  'SWAPPING',
  'TRANSFERRING',
  'AWAITING_DEPOSIT',
  'DEPOSIT_RECEIVED',
  'PIX_SENDING',
  'PIX_SENT_UNCONFIRMED',
  'COMPLETED',
  'FAILED',
  'EXPIRED',
  'REFUNDING',
  'REFUNDED',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * PENDING is in the spec's list (and so in the API's enum) but is never stored: an order is
 * inserted only after its provider call succeeded, directly AWAITING_PAYMENT or
 * AWAITING_DEPOSIT. The status columns take this type, so no code can write PENDING.
 */
export type StoredOrderStatus = Exclude<OrderStatus, 'PENDING'>;
export const STORED_ORDER_STATUSES: readonly StoredOrderStatus[] = ORDER_STATUSES.filter((status): status is StoredOrderStatus => status !== 'PENDING');

/** What quotes and orders both carry: amounts, rate and fees (NUMERIC text; fees as fractions). */
interface PricingColumns {
  amount_brl: string;
  amount_token: string;
  exchange_rate: string;
  platform_fee_percentage: string;
  merchant_fee_percentage: string;
  platform_fee_amount_brl: string;
  merchant_fee_amount_brl: string;
  net_amount_brl: string;
}

export interface QuotesTable extends PricingColumns {
  id: string;
  merchant_id: string;
  receiver_id: string | null;
  type: OrderType;
  chain: string;
  token: string;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  used_by_order_id: string | null;
  created_at: DefaultedTimestamp;
}

export interface OrdersTable extends PricingColumns {
  id: string;
  merchant_id: string;
  receiver_id: string;
  type: OrderType;
  status: StoredOrderStatus;
  chain: string;
  token: string;
  external_id: string | null;
  quote_id: string | null;
  destination_wallet: string | null;
  deposit_address: string | null;
  pix_txid: string | null;
  pix_payment_code: string | null;
  pix_key: string | null;
  pix_key_type: string | null;
  recipient_name: string | null;
  pix_end_to_end_id: string | null;
  provider_transaction_id: string | null;
  refund_id: string | null;
  tx_hash: string | null;
  failure_reason: string | null;
  limit_day: string;
  limit_released: ColumnType<boolean, boolean | undefined, boolean>;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  completed_at: NullableTimestamp;
  next_step_at: NullableTimestamp;
  step_attempts: ColumnType<number, number | undefined, number>;
  claimed_until: NullableTimestamp;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

export type OrderTransactionType = 'PIX_IN' | 'PIX_OUT' | 'PIX_REFUND' | 'CHAIN_DEPOSIT' | 'CHAIN_TRANSFER';

export interface OrderTransactionsTable {
  id: string;
  order_id: string;
  type: OrderTransactionType;
  status: 'PENDING' | 'CONFIRMED' | 'FAILED';
  amount: string;
  currency: string;
  chain: string | null;
  tx_hash: string | null;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

export interface ReceiverDailyUsageTable {
  receiver_id: string;
  day: string;
  order_count: number;
  amount_brl: string;
}

export type OrderRow = Selectable<OrdersTable>;
export type QuoteRow = Selectable<QuotesTable>;
export type OrderTransactionRow = Selectable<OrderTransactionsTable>;

export type IdempotencyKeyState = 'IN_PROGRESS' | 'COMPLETED';

/** One Idempotency-Key of one merchant (src/http/idempotency.ts). Timestamps come from the app's clock. */
export interface IdempotencyKeysTable {
  merchant_id: string;
  key: string;
  /** SHA-256 (hex) of method, route template, path parameters, query and canonical JSON body. */
  fingerprint: string;
  method: string;
  /** The route template, e.g. /api/v1/payin. */
  route: string;
  state: IdempotencyKeyState;
  /** Who holds the IN_PROGRESS row: completing or releasing it requires this token. */
  lock_token: string;
  /** When the current holder took the row; after the lease a retry may take it over. */
  locked_at: ColumnType<Date, Date | string, Date | string>;
  /** x-request-id of the request whose answer is stored. */
  request_id: string | null;
  response_status: number | null;
  response_content_type: string | null;
  /** The answer as sent: the serialized JSON text. */
  response_body: string | null;
  created_at: ColumnType<Date, Date | string, Date | string>;
  completed_at: NullableTimestamp;
}

export type IdempotencyKeyRow = Selectable<IdempotencyKeysTable>;

// --- Sandbox PSP and chain (src/adapters/pix/sandbox.ts, src/adapters/chain/sandbox.ts) ----

export type SandboxChargeStatus = 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR' | 'REMOVIDA_PELO_PSP';
export type SandboxRefundStatus = 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO';
export type SandboxPayoutStatus = 'PROCESSING' | 'CONFIRMED' | 'FAILED';
export type SandboxTransferStatus = 'PENDING' | 'CONFIRMED' | 'FAILED';

export interface SandboxPixChargesTable {
  txid: string;
  /** 62/05 of the static code: the txid's first 25 characters (unique). */
  reference: string;
  amount_brl: string;
  description: string | null;
  pix_copia_e_cola: string;
  status: ColumnType<SandboxChargeStatus, SandboxChargeStatus | undefined, SandboxChargeStatus>;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  /** The PIX that paid the charge: set together when it is paid. */
  end_to_end_id: string | null;
  paid_amount_brl: string | null;
  paid_at: NullableTimestamp;
  created_at: DefaultedTimestamp;
}

export interface SandboxPixRefundsTable {
  refund_id: string;
  end_to_end_id: string;
  amount_brl: string;
  description: string;
  status: ColumnType<SandboxRefundStatus, SandboxRefundStatus | undefined, SandboxRefundStatus>;
  failure_reason: string | null;
  created_at: DefaultedTimestamp;
  settled_at: NullableTimestamp;
}

export interface SandboxPixPayoutsTable {
  provider_transaction_id: string;
  idempotency_key: string;
  pix_key: string;
  pix_key_type: 'CPF' | 'CNPJ' | 'EMAIL' | 'PHONE' | 'EVP';
  amount_brl: string;
  recipient_name: string | null;
  description: string;
  status: ColumnType<SandboxPayoutStatus, SandboxPayoutStatus | undefined, SandboxPayoutStatus>;
  end_to_end_id: string | null;
  failure_reason: string | null;
  created_at: DefaultedTimestamp;
  settled_at: NullableTimestamp;
}

export interface SandboxChainDepositAddressesTable {
  address: string;
  order_id: string;
  token: string;
  created_at: DefaultedTimestamp;
}

export interface SandboxChainDepositsTable {
  tx_hash: string;
  deposit_address: string;
  token: string;
  amount: string;
  created_at: DefaultedTimestamp;
}

export interface SandboxChainTransfersTable {
  tx_hash: string;
  idempotency_key: string;
  token: string;
  amount: string;
  destination: string;
  status: SandboxTransferStatus;
  error: string | null;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

export interface SandboxChainTransferFailuresTable {
  destination: string;
  error: string;
  created_at: DefaultedTimestamp;
}

export interface LedgerAccountsTable {
  id: string;
  code: string;
  merchant_id: string | null;
  currency: string;
  created_at: DefaultedTimestamp;
}

export interface LedgerEntriesTable {
  id: string;
  merchant_id: string;
  kind: string;
  reference_type: 'order' | 'settlement' | 'entry';
  reference_id: string;
  created_at: ColumnType<Date, Date | string, never>;
}

export interface LedgerPostingsTable {
  id: string;
  entry_id: string;
  account_id: string;
  currency: string;
  /** Debits positive, credits negative; NUMERIC text. */
  amount: string;
}

export interface SettlementsTable {
  id: string;
  merchant_id: string;
  period_start: ColumnType<Date, Date | string, never>;
  period_end: ColumnType<Date, Date | string, never>;
  amount_brl: string;
  entries_count: number;
  created_at: ColumnType<Date, Date | string, never>;
}

export interface SettledEntriesTable {
  entry_id: string;
  settlement_id: string;
}

export interface ManagedWalletsTable {
  id: string;
  merchant_id: string;
  /** Null for the merchant's own wallet. */
  receiver_id: string | null;
  /** The Ed25519 public key, base58 (a Solana address). */
  address: string;
  /** AES-256-GCM of the 32-byte seed under the KEK of key_version (src/modules/wallets/keys.ts). */
  encrypted_private_key: string;
  key_version: number;
  created_at: DefaultedTimestamp;
}

export type SignOperation = 'SIGN' | 'SIGN_AND_SEND';
export type SignOutcome = 'SIGNED' | 'SENT' | 'REJECTED' | 'FAILED';

export interface WalletSignRequestsTable {
  id: string;
  merchant_id: string;
  receiver_id: string | null;
  wallet_address: string | null;
  operation: SignOperation;
  outcome: SignOutcome;
  reason: string | null;
  message: string | null;
  signature: string | null;
  fee_lamports: number | null;
  request_id: string | null;
  created_at: DefaultedTimestamp;
}

export type ManagedWalletRow = Selectable<ManagedWalletsTable>;

export interface MerchantOrderCountsTable {
  merchant_id: string;
  type: OrderType;
  status: StoredOrderStatus;
  shard: number;
  count: number;
}
