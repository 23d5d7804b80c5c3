/** PAYOUT deposit addresses and the deposits seen on them (migration 0025). Merged into `Database` (src/db/schema.ts). */
import type { ColumnType, Selectable } from 'kysely';
import type { DefaultedTimestamp } from '../../db/schema.ts';

export interface DepositAddressesTable {
  /** The order's id, or the reference of its Idempotency-Key (payout.ts): one address per reference. */
  reference: string;
  token: string;
  mint: string;
  /** The keypair's public key, base58: the address the order shows. */
  owner_address: string;
  /** The owner's associated token account for `mint`: where the watcher looks. */
  token_account: string;
  /** AES-256-GCM of the 32-byte seed under the KEK of key_version, the reference as owner (src/lib/key-vault.ts). */
  encrypted_private_key: string;
  key_version: number;
  /** The newest signature of token_account handled: the watcher reads only what is newer. */
  last_signature: string | null;
  scanned_at: Date | null;
  /**
   * The token account's balance in base units (NUMERIC text) when the watcher last handled its
   * signatures; null: unknown (read the signatures next pass). A pass lists signatures only where
   * the balance read differs (migration 0065).
   */
  observed_amount: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the owner's token accounts of other mints were read, once the address stopped being watched. */
  other_mints_checked_at: Date | null;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

export const DEPOSIT_OUTCOMES = ['CREDITED', 'ORDER_FAILED', 'LATE', 'REPEATED', 'NO_ORDER', 'WRONG_MINT', 'UNFUNDED'] as const;
/**
 * CREDITED: the order's deposit (DEPOSIT_RECEIVED; an excess is held by the order). ORDER_FAILED:
 * the order's deposit, worth less than the minimum order: the order FAILED, the tokens held for
 * return. LATE: arrived once the order had expired. REPEATED: arrived after the order's deposit.
 * NO_ORDER: on an address no order holds. WRONG_MINT: another mint sent to the owner (its own token
 * account; `token` is then that mint's address). UNFUNDED: counted toward a payout batch that
 * expired or was cancelled before its deposits covered its total (was CREDITED; migration 0072,
 * decision 0051). All but CREDITED are not credited, to be returned.
 */
export type DepositOutcome = (typeof DEPOSIT_OUTCOMES)[number];

export interface ChainDepositsTable {
  signature: string;
  deposit_address: string;
  order_id: string | null;
  /** The token's symbol; for WRONG_MINT, the mint's address. */
  token: string;
  /** NUMERIC text, token units. */
  amount: string;
  outcome: DepositOutcome;
  detected_at: ColumnType<Date, Date | string, never>;
}

export type SweepStatus = 'PENDING' | 'DONE' | 'FAILED';

/**
 * One sweep per credited deposit address (migration 0026), or per credited deposit to a standing
 * address (migration 0071); at most one PENDING per address.
 */
export interface DepositSweepsTable {
  deposit_address: string;
  /** The PAYOUT whose deposit it sweeps, or null for a payout batch's (exactly one of the two; migration 0069). */
  order_id: string | null;
  payout_batch_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The standing address's deposit it sweeps (its PAYOUT in `order_id`); null for the others. */
  standing_deposit_signature: ColumnType<string | null, string | null | undefined, string | null>;
  token: string;
  /** NUMERIC text, token units: what the books credited to the treasury, and what the sweep moves. */
  amount: string;
  status: SweepStatus;
  tx_hash: string;
  wire: string;
  last_valid_block_height: string;
  closes: boolean;
  attempt: ColumnType<number, number | undefined, number>;
  previous_tx_hashes: ColumnType<string[], string[] | undefined, string[]>;
  failure_reason: string | null;
  fee_lamports: string | null;
  rent_lamports: string | null;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

export type DepositSweepRow = Selectable<DepositSweepsTable>;
export type DepositAddressRow = Selectable<DepositAddressesTable>;
export type ChainDepositRow = Selectable<ChainDepositsTable>;

declare module '../../db/schema.ts' {
  interface Database {
    deposit_addresses: DepositAddressesTable;
    chain_deposits: ChainDepositsTable;
    deposit_sweeps: DepositSweepsTable;
  }
}

/** Every column of `chain_deposits`, named: a statement lists what it reads, and a column added later is not read until asked for. */
export const CHAIN_DEPOSIT_COLUMNS = ['signature', 'deposit_address', 'order_id', 'token', 'amount', 'outcome', 'detected_at'] as const satisfies ReadonlyArray<keyof ChainDepositsTable>;
