/**
 * Tables of the sandbox PSP (src/adapters/pix/sandbox.ts). Merged into the database's table map
 * (`Database` in src/db/schema.ts) so repos query them through the one Kysely instance.
 */
import type { ColumnType } from 'kysely';
import type { DefaultedTimestamp, NullableTimestamp } from '../../db/schema.ts';

export type SandboxChargeStatus = 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR' | 'REMOVIDA_PELO_PSP';

export type SandboxRefundStatus = 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO';

export type SandboxPayoutStatus = 'PROCESSING' | 'CONFIRMED' | 'FAILED';

export interface SandboxPixChargesTable {
  txid: string;
  /** The dynamic code's payload location (26/25, without https://); null for charges from before dynamic codes. */
  location: string | null;
  amount_brl: string;
  description: string | null;
  pix_copia_e_cola: string;
  status: ColumnType<SandboxChargeStatus, SandboxChargeStatus | undefined, SandboxChargeStatus>;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  /** The PIX that paid the charge: set together when it is paid. */
  end_to_end_id: string | null;
  paid_amount_brl: string | null;
  paid_at: NullableTimestamp;
  /** The charge's `devedor` (migration 0039): whom it is addressed to, the default payer of the sandbox "pay". */
  devedor_document_type: 'CPF' | 'CNPJ' | null;
  devedor_document: string | null;
  devedor_name: string | null;
  /** Who paid it, reported with the PIX as a PSP's extension would (Efí `gnExtras.pagador`). */
  payer_document_type: 'CPF' | 'CNPJ' | null;
  payer_document: string | null;
  payer_name: string | null;
  created_at: DefaultedTimestamp;
}

/**
 * A PIX the sandbox PSP received on a static code (migration 0064): a static code is paid any
 * number of times, each PIX reported with the code's txid (API Pix `GET /pix`, `pix[].txid`).
 */
export interface SandboxPixReceivedTable {
  end_to_end_id: string;
  txid: string;
  amount_brl: string;
  paid_at: ColumnType<Date, Date, never>;
  payer_document_type: 'CPF' | 'CNPJ' | null;
  payer_document: string | null;
  payer_name: string | null;
}

export interface SandboxPixRefundsTable {
  refund_id: string;
  end_to_end_id: string;
  amount_brl: string;
  description: string;
  /** ORIGINAL, or MED_FRAUDE: the return of an accepted MED claim (migration 0042). */
  nature: ColumnType<'ORIGINAL' | 'MED_FRAUDE', 'ORIGINAL' | 'MED_FRAUDE' | undefined, never>;
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

/** A failure armed ahead (issue 15): PAYOUT keyed by sendPix's idempotency key, REFUND by the paid charge's txid. */
export interface SandboxPixArmedFailuresTable {
  operation: 'PAYOUT' | 'REFUND';
  key: string;
  reason: string;
  created_at: DefaultedTimestamp;
}

export type SandboxPixKeyType = 'EMAIL' | 'PHONE' | 'EVP';

/** The sandbox DICT (sandbox-dict.ts): the holder of each registered non-document key. */
export interface SandboxPixKeysTable {
  key: string;
  key_type: SandboxPixKeyType;
  holder_document: string;
  created_at: DefaultedTimestamp;
}

/** The MED extension's infraction statuses, as Efí names them. */
export type SandboxInfractionStatus = 'ABERTA' | 'EM_DEFESA' | 'ACEITA' | 'REJEITADA' | 'CANCELADA';

/** A MED infraction the sandbox "payer's PSP" opened on a received PIX (sandbox-infractions.ts). */
export interface SandboxPixInfractionsTable {
  infraction_id: string;
  end_to_end_id: string;
  status: SandboxInfractionStatus;
  reason: string;
  amount_brl: string;
  defense_deadline: ColumnType<Date, Date, never>;
  justification: string | null;
  created_at: ColumnType<Date, Date, never>;
  updated_at: ColumnType<Date, Date, Date>;
}

declare module '../../db/schema.ts' {
  interface Database {
    sandbox_pix_charges: SandboxPixChargesTable;
    sandbox_pix_refunds: SandboxPixRefundsTable;
    sandbox_pix_received: SandboxPixReceivedTable;
    sandbox_pix_payouts: SandboxPixPayoutsTable;
    sandbox_pix_armed_failures: SandboxPixArmedFailuresTable;
    sandbox_pix_keys: SandboxPixKeysTable;
    sandbox_pix_infractions: SandboxPixInfractionsTable;
  }
}

/** Every column of `sandbox_pix_charges`, named: a statement lists what it reads, and a column added later is not read until asked for. */
export const SANDBOX_PIX_CHARGE_COLUMNS = ['txid', 'location', 'amount_brl', 'description', 'pix_copia_e_cola', 'status', 'expires_at', 'end_to_end_id', 'paid_amount_brl', 'paid_at', 'devedor_document_type', 'devedor_document', 'devedor_name', 'payer_document_type', 'payer_document', 'payer_name', 'created_at'] as const satisfies ReadonlyArray<keyof SandboxPixChargesTable>;

/** Every column of `sandbox_pix_infractions`, named: a statement lists what it reads, and a column added later is not read until asked for. */
export const SANDBOX_PIX_INFRACTION_COLUMNS = ['infraction_id', 'end_to_end_id', 'status', 'reason', 'amount_brl', 'defense_deadline', 'justification', 'created_at', 'updated_at'] as const satisfies ReadonlyArray<keyof SandboxPixInfractionsTable>;

/** Every column of `sandbox_pix_payouts`, named: a statement lists what it reads, and a column added later is not read until asked for. */
export const SANDBOX_PIX_PAYOUT_COLUMNS = ['provider_transaction_id', 'idempotency_key', 'pix_key', 'pix_key_type', 'amount_brl', 'recipient_name', 'description', 'status', 'end_to_end_id', 'failure_reason', 'created_at', 'settled_at'] as const satisfies ReadonlyArray<keyof SandboxPixPayoutsTable>;

/** Every column of `sandbox_pix_refunds`, named: a statement lists what it reads, and a column added later is not read until asked for. */
export const SANDBOX_PIX_REFUND_COLUMNS = ['refund_id', 'end_to_end_id', 'amount_brl', 'description', 'nature', 'status', 'failure_reason', 'created_at', 'settled_at'] as const satisfies ReadonlyArray<keyof SandboxPixRefundsTable>;

/** Every column of `sandbox_pix_received`, named. */
export const SANDBOX_PIX_RECEIVED_COLUMNS = ['end_to_end_id', 'txid', 'amount_brl', 'paid_at', 'payer_document_type', 'payer_document', 'payer_name'] as const satisfies ReadonlyArray<keyof SandboxPixReceivedTable>;
