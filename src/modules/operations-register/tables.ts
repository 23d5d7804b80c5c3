/**
 * The operations register's table (migration 0041): one row per PIX and on-chain movement of a
 * client order, append-only. Merged into the database's table map (`Database` in src/db/schema.ts).
 */
import type { ColumnType, Selectable } from 'kysely';

/** The movements the register holds: every movement of money of an order, once it is CONFIRMED. */
export const REGISTERED_MOVEMENTS = ['PIX_IN', 'PIX_REFUND', 'PIX_OUT', 'CHAIN_TRANSFER', 'CHAIN_DEPOSIT'] as const;
export type RegisteredMovement = (typeof REGISTERED_MOVEMENTS)[number];

/** Who is on the other side of the movement, seen from the platform. */
export const COUNTERPARTY_TYPES = ['PIX_PAYER', 'PIX_RECIPIENT', 'SELF_HOSTED_WALLET', 'CUSTODIAL_WALLET', 'PLATFORM_DEPOSIT_ADDRESS'] as const;
export type CounterpartyType = (typeof COUNTERPARTY_TYPES)[number];

export interface OperationsRegisterTable {
  id: string;
  occurred_at: ColumnType<Date, Date | string, never>;
  order_id: string;
  order_type: 'PAYIN' | 'PAYOUT';
  merchant_id: string;
  movement: RegisteredMovement;
  direction: 'IN' | 'OUT';
  /** 'BRL' or the token's symbol. */
  asset: string;
  chain: string | null;
  /** NUMERIC: decimal text, in the asset's units. */
  quantity: string;
  /** NUMERIC: decimal text with two places. */
  value_brl: string;
  client_document_type: string;
  client_document: string;
  client_name: string;
  wallet_address: string | null;
  wallet_self_hosted: boolean | null;
  counterparty_type: CounterpartyType;
  originator_name: string | null;
  originator_document_type: string | null;
  originator_document: string | null;
  originator_account: string | null;
  beneficiary_name: string | null;
  beneficiary_document_type: string | null;
  beneficiary_document: string | null;
  beneficiary_account: string | null;
  pix_end_to_end_id: string | null;
  psp_reference: string | null;
  tx_signature: string | null;
}

export type OperationsRegisterRow = Selectable<OperationsRegisterTable>;

declare module '../../db/schema.ts' {
  interface Database {
    operations_register: OperationsRegisterTable;
  }
}

/** Every column of `operations_register`, named: a statement lists what it reads, and a column added later is not read until asked for. */
export const REGISTER_ROW_COLUMNS = ['id', 'occurred_at', 'order_id', 'order_type', 'merchant_id', 'movement', 'direction', 'asset', 'chain', 'quantity', 'value_brl', 'client_document_type', 'client_document', 'client_name', 'wallet_address', 'wallet_self_hosted', 'counterparty_type', 'originator_name', 'originator_document_type', 'originator_document', 'originator_account', 'beneficiary_name', 'beneficiary_document_type', 'beneficiary_document', 'beneficiary_account', 'pix_end_to_end_id', 'psp_reference', 'tx_signature'] as const satisfies ReadonlyArray<keyof OperationsRegisterTable>;
