/**
 * The orders' tables: orders, their movements, the receivers' daily usage the limits reserve,
 * and the per-merchant counters the listing totals come from. Merged into the database's table
 * map (`Database` in src/db/schema.ts).
 */
import type { ColumnType, Selectable } from 'kysely';
import type { DefaultedTimestamp, Json, NullableTimestamp } from '../../db/schema.ts';
import type { OrderSourceKind, OrderType } from '../../lib/order-types.ts';
import type { PricingColumns } from '../quotes/tables.ts';
import type { RefundNature } from '../../adapters/pix/port.ts';

/**
 * Every order status of the spec, written once: the API's enumeration, the state machine and
 * the column type derive from it (the migration's CHECK lists the same values).
 * `PENDING` is in the spec's enumeration but is never stored: orders are inserted already
 * AWAITING_PAYMENT or AWAITING_DEPOSIT, after the provider call (see service.ts), so the column's
 * type is `StoredOrderStatus`, which leaves it out.
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
export type StoredOrderStatus = Exclude<OrderStatus, 'PENDING'>;
export const STORED_ORDER_STATUSES = ORDER_STATUSES.filter((status): status is StoredOrderStatus => status !== 'PENDING');

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
  /** PAYIN: the treasury wallet (1 to 8) whose key signed its transfer, set with tx_hash (migration 0079, decision 0057); null before one was signed, and on orders older than the migration (wallet 1). */
  treasury_wallet: ColumnType<number | null, number | null | undefined, number | null>;
  failure_reason: string | null;
  /**
   * PAYIN: who paid its PIX, as the PSP reported it (migration 0039; compliance-policies.md); null
   * when the PSP did not say. Not in ORDER_COLUMNS: only the admin detail and chargePaid read them.
   */
  payer_document_type: 'CPF' | 'CNPJ' | null;
  payer_document: string | null;
  payer_name: string | null;
  /** PAYOUT: tokens deposited beyond the ordered amount, held for return (migration 0016); 0 when none. */
  excess_amount_token: ColumnType<string, string | undefined, string>;
  /** PAYOUT: when the PSP or the receiving bank refused its PIX (migration 0036); cleared by an operators' retry. */
  payout_refused_at: NullableTimestamp;
  /** PAYOUT: the operators' retries of its PIX; each names its own PSP idempotency key (payoutIdempotencyKey). */
  payout_attempt: ColumnType<number, number | undefined, number>;
  /** PAYIN: held by an open MED claim before its tokens left (migration 0042): no step towards the transfer runs. */
  dispute_hold: ColumnType<boolean, boolean | undefined, boolean>;
  /** PAYIN: the natureza its refund is made with: MED_FRAUDE when an accepted MED claim returns the PIX. */
  refund_nature: ColumnType<RefundNature, RefundNature | undefined, RefundNature>;
  limit_day: string;
  limit_released: ColumnType<boolean, boolean | undefined, boolean>;
  /**
   * PAYIN: its creation reserved its amount on its unproven wallet's day under LIMITED (migration
   * 0053): given back with the receiver's limit (`limit_released`), by the same transitions.
   */
  unproven_wallet_reserved: ColumnType<boolean, boolean | undefined, boolean>;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  completed_at: NullableTimestamp;
  next_step_at: NullableTimestamp;
  step_attempts: ColumnType<number, number | undefined, number>;
  claimed_until: NullableTimestamp;
  /** The worker instance holding the claim with `claimed_until` (migration 0054, platform/worker-presence.ts); null: none named. */
  claimed_by: string | null;
  /**
   * Where the order came from (migration 0062, order-source.ts): the API, or the standing address,
   * standing charge or payout batch `source_id` names. Not in ORDER_COLUMNS: read where asked for.
   */
  source_kind: ColumnType<OrderSourceKind, OrderSourceKind | undefined, OrderSourceKind>;
  source_id: string | null;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

/** CHAIN_DEPOSIT_EXCESS: the tokens a PAYOUT deposit brought beyond the ordered amount, HELD for return. */
export const ORDER_TRANSACTION_TYPES = ['PIX_IN', 'PIX_OUT', 'PIX_REFUND', 'CHAIN_DEPOSIT', 'CHAIN_TRANSFER', 'CHAIN_DEPOSIT_EXCESS'] as const;
export type OrderTransactionType = (typeof ORDER_TRANSACTION_TYPES)[number];
export const ORDER_TRANSACTION_STATUSES = ['PENDING', 'CONFIRMED', 'FAILED', 'HELD'] as const;
export type OrderTransactionStatus = (typeof ORDER_TRANSACTION_STATUSES)[number];

export interface OrderTransactionsTable {
  id: string;
  order_id: string;
  type: OrderTransactionType;
  status: OrderTransactionStatus;
  amount: string;
  currency: string;
  chain: string | null;
  tx_hash: string | null;
  /** CHAIN_TRANSFER: the signed transaction (base64), stored before its first send (migration 0023). */
  wire: string | null;
  /** CHAIN_TRANSFER: decimal text; past this block height the stored transaction can no longer land. */
  last_valid_block_height: string | null;
  /** CHAIN_TRANSFER: signatures of transactions replaced because they provably never landed. */
  previous_tx_hashes: ColumnType<string[], string[] | undefined, string[]>;
  /** CHAIN_TRANSFER in a batch (migration 0074): the batch whose transaction carries it, and its transfer instruction's index there. */
  transfer_batch_id: ColumnType<string | null, string | null | undefined, string | null>;
  instruction_index: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

export const TRANSFER_BATCH_STATUSES = ['PENDING', 'CONFIRMED', 'FAILED', 'EXPIRED'] as const;
export type TransferBatchStatus = (typeof TRANSFER_BATCH_STATUSES)[number];

/** One signed treasury transaction carrying several PAYINs' transfers (migration 0074, decision 0053). */
export interface ChainTransferBatchesTable {
  id: string;
  chain: string;
  token: string;
  tx_hash: string;
  wire: string;
  last_valid_block_height: ColumnType<string, string, string>;
  status: TransferBatchStatus;
  attempt: number;
  /** The orders, in the order of their transfer instructions. */
  order_ids: string[];
  /** The orders whose receiver's token account this transaction creates (the rent is theirs). */
  account_creators: string[];
  /** Fees of the failed batches this one was split from (lamports), shared out with its own when it lands. */
  carried_fee_lamports: ColumnType<string, string | undefined, string>;
  created_at: Date;
  updated_at: Date;
}

export interface ReceiverDailyUsageTable {
  receiver_id: string;
  day: string;
  order_count: number;
  amount_brl: string;
}

/** LIMITED: a merchant's PAYINs' BRL reserved per unproven wallet and São Paulo day (migration 0045). */
export interface UnprovenWalletDailyUsageTable {
  merchant_id: string;
  wallet_address: string;
  day: string;
  amount_brl: string;
}

export interface MerchantOrderCountsTable {
  merchant_id: string;
  type: OrderType;
  status: StoredOrderStatus;
  shard: number;
  count: number;
}

/** Completed BRL volume per merchant, order type and São Paulo month, in shards (migration 0010). */
export interface MerchantCompletedVolumeTable {
  merchant_id: string;
  type: OrderType;
  month: string;
  shard: number;
  amount_brl: string;
}

/** A PSP callback's notification the PSP did not confirm (pix-confirmation.ts, migration 0015). */
export interface PixNotificationRejectionsTable {
  id: string;
  received_at: ColumnType<Date, Date | string, Date | string>;
  request_id: string;
  kind: 'charge_paid' | 'refund_settled' | 'payout_settled';
  reference: string;
  notification: Json<Record<string, unknown>>;
  reason: string;
}

/**
 * The columns order statements select and return, named so that a column added to the table (a
 * wide or a secret one) reaches only the code that asks for it. The row the state machine, the
 * steps and the notifications work on: every column but `quote_id`, which creation writes and no
 * code reads back.
 */
export const ORDER_COLUMNS = [
  'id', 'merchant_id', 'receiver_id', 'type', 'status', 'chain', 'token', 'external_id',
  'amount_brl', 'amount_token', 'exchange_rate', 'platform_fee_percentage', 'merchant_fee_percentage',
  'platform_fee_amount_brl', 'merchant_fee_amount_brl', 'net_amount_brl', 'markup_bps', 'markup_flat_brl', 'markup_cap_brl', 'markup_amount_brl',
  'destination_wallet', 'deposit_address', 'pix_txid', 'pix_payment_code', 'pix_key', 'pix_key_type', 'recipient_name',
  'pix_end_to_end_id', 'provider_transaction_id', 'refund_id', 'tx_hash', 'treasury_wallet', 'failure_reason', 'excess_amount_token',
  'payout_refused_at', 'payout_attempt', 'dispute_hold', 'refund_nature', 'payer_document_type', 'payer_document', 'payer_name',
  'limit_day', 'limit_released', 'unproven_wallet_reserved', 'expires_at', 'completed_at', 'next_step_at', 'step_attempts', 'claimed_until',
  'claimed_by', 'created_at', 'updated_at',
] as const satisfies ReadonlyArray<keyof OrdersTable>;
export type OrderRow = Pick<Selectable<OrdersTable>, (typeof ORDER_COLUMNS)[number]>;

/** What the API's Order shows (view.ts): the listing selects only these, many rows at a time. */
export const ORDER_VIEW_COLUMNS = [
  'id', 'merchant_id', 'receiver_id', 'type', 'status', 'chain', 'token', 'external_id',
  'amount_brl', 'amount_token', 'exchange_rate', 'platform_fee_percentage', 'merchant_fee_percentage',
  'platform_fee_amount_brl', 'merchant_fee_amount_brl', 'net_amount_brl', 'markup_bps', 'markup_flat_brl', 'markup_cap_brl', 'markup_amount_brl',
  'destination_wallet', 'deposit_address', 'pix_txid', 'pix_payment_code', 'pix_key', 'recipient_name', 'failure_reason',
  'expires_at', 'completed_at', 'created_at', 'updated_at',
] as const satisfies ReadonlyArray<(typeof ORDER_COLUMNS)[number]>;
export type OrderView = Pick<OrderRow, (typeof ORDER_VIEW_COLUMNS)[number]>;
export const ORDER_TRANSACTION_COLUMNS = ['id', 'order_id', 'type', 'status', 'amount', 'currency', 'chain', 'tx_hash', 'created_at', 'updated_at'] as const satisfies ReadonlyArray<keyof OrderTransactionsTable>;
export type OrderTransactionRow = Pick<Selectable<OrderTransactionsTable>, (typeof ORDER_TRANSACTION_COLUMNS)[number]>;

declare module '../../db/schema.ts' {
  interface Database {
    orders: OrdersTable;
    order_transactions: OrderTransactionsTable;
    chain_transfer_batches: ChainTransferBatchesTable;
    receiver_daily_usage: ReceiverDailyUsageTable;
    unproven_wallet_daily_usage: UnprovenWalletDailyUsageTable;
    merchant_order_counts: MerchantOrderCountsTable;
    merchant_completed_volume: MerchantCompletedVolumeTable;
    pix_notification_rejections: PixNotificationRejectionsTable;
  }
}
