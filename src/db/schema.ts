/**
 * Table types for Kysely. Column names are snake_case in SQL and here; the repos map rows to
 * the API's camelCase shapes so a column can never leak into a response by accident.
 */
import type { ColumnType, Selectable } from 'kysely';

/** Nullable timestamptz: read as Date or null, written as Date or ISO string. */
export type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** timestamptz with a database default (now()). */
export type DefaultedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** jsonb: read parsed, written as a JSON string so both drivers send the same text. */
export type Json<T> = ColumnType<T, string, string>;

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

/**
 * The table map of the one Kysely instance. The tables of each module are declared with the
 * module (its `tables.ts` merges them in here), so the database layer imports no module.
 */
export interface Database {
  events: EventsTable;
  quotes: QuotesTable;
  orders: OrdersTable;
  order_transactions: OrderTransactionsTable;
  receiver_daily_usage: ReceiverDailyUsageTable;
  managed_wallets: ManagedWalletsTable;
  wallet_sign_requests: WalletSignRequestsTable;
  merchant_order_counts: MerchantOrderCountsTable;
}
export type EventRow = Selectable<EventsTable>;

export type OrderType = 'PAYIN' | 'PAYOUT';

export type OrderStatus =
  | 'PENDING'
  | 'AWAITING_PAYMENT'
  | 'PAYMENT_RECEIVED'
  | 'SWAPPING'
  | 'TRANSFERRING'
  | 'AWAITING_DEPOSIT'
  | 'DEPOSIT_RECEIVED'
  | 'PIX_SENDING'
  | 'PIX_SENT_UNCONFIRMED'
  | 'COMPLETED'
  | 'FAILED'
  | 'EXPIRED'
  | 'REFUNDING'
  | 'REFUNDED';

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
  status: OrderStatus;
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

// --- Sandbox PSP and chain (src/adapters/pix/sandbox.ts, src/adapters/chain/sandbox.ts) ----
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
  status: OrderStatus;
  shard: number;
  count: number;
}
