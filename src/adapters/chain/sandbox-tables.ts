/**
 * Tables of the sandbox chain (src/adapters/chain/sandbox.ts). Merged into the database's table map
 * (`Database` in src/db/schema.ts) so repos query them through the one Kysely instance.
 */
import type { DefaultedTimestamp } from '../../db/schema.ts';

export type SandboxTransferStatus = 'PENDING' | 'CONFIRMED' | 'FAILED';

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

/** Armed per order (issue 15): the transfer made under this idempotency key lands FAILED. */
export interface SandboxChainArmedFailuresTable {
  idempotency_key: string;
  error: string;
  created_at: DefaultedTimestamp;
}

declare module '../../db/schema.ts' {
  interface Database {
    sandbox_chain_deposit_addresses: SandboxChainDepositAddressesTable;
    sandbox_chain_deposits: SandboxChainDepositsTable;
    sandbox_chain_transfers: SandboxChainTransfersTable;
    sandbox_chain_transfer_failures: SandboxChainTransferFailuresTable;
    sandbox_chain_armed_failures: SandboxChainArmedFailuresTable;
  }
}

/** Every column of `sandbox_chain_deposit_addresses`, named: a statement lists what it reads, and a column added later is not read until asked for. */
export const SANDBOX_DEPOSIT_ADDRESS_COLUMNS = ['address', 'order_id', 'token', 'created_at'] as const satisfies ReadonlyArray<keyof SandboxChainDepositAddressesTable>;

/** Every column of `sandbox_chain_deposits`, named: a statement lists what it reads, and a column added later is not read until asked for. */
export const SANDBOX_CHAIN_DEPOSIT_COLUMNS = ['tx_hash', 'deposit_address', 'token', 'amount', 'created_at'] as const satisfies ReadonlyArray<keyof SandboxChainDepositsTable>;

/** Every column of `sandbox_chain_transfers`, named: a statement lists what it reads, and a column added later is not read until asked for. */
export const SANDBOX_CHAIN_TRANSFER_COLUMNS = ['tx_hash', 'idempotency_key', 'token', 'amount', 'destination', 'status', 'error', 'created_at', 'updated_at'] as const satisfies ReadonlyArray<keyof SandboxChainTransfersTable>;
