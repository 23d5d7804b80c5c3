/**
 * The disputes module's table (migration 0042): one row per MED infraction the PSP reported on a
 * PIX we received. Merged into the database's table map (`Database` in src/db/schema.ts).
 */
import type { ColumnType } from 'kysely';
import type { NullableTimestamp } from '../../db/schema.ts';
import type { DisputeOutcome, DisputeStatus } from '../../lib/dispute-statuses.ts';

// Shared with the orders module's timeline (src/lib/dispute-statuses.ts says why they live there).
export { DISPUTE_OUTCOMES, DISPUTE_STATUSES, type DisputeOutcome, type DisputeStatus } from '../../lib/dispute-statuses.ts';

/**
 * The MED devolução of a charged-back claim, stored in the BACEN/API Pix terms: PENDING until the
 * PSP took the request. Published in English (return-status.ts).
 */
export type DisputeReturnStatus = 'PENDING' | 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO';

/** The merchant's defense, as submitted (POST /disputes/{id}/defense). */
export interface DisputeDefense {
  justification: string;
  evidence: Array<{ description: string; url?: string; sha256?: string }>;
}

export interface DisputesTable {
  id: string;
  merchant_id: string;
  order_id: string;
  psp_infraction_id: string;
  end_to_end_id: string;
  status: DisputeStatus;
  reason: string;
  amount_brl: string;
  reported_at: ColumnType<Date, Date, never>;
  defense_deadline: ColumnType<Date, Date, Date>;
  order_held: ColumnType<boolean, boolean | undefined, boolean>;
  defense: ColumnType<DisputeDefense | null, string | null | undefined, string | null>;
  defended_at: NullableTimestamp;
  resolved_at: NullableTimestamp;
  outcome: DisputeOutcome | null;
  return_id: string | null;
  return_status: DisputeReturnStatus | null;
  /** How many events the claim emitted; the last one's `sequence` (migration 0058). */
  event_sequence: ColumnType<number, number | undefined, number>;
  /** When the disputes job should look at it next: an accepted claim's effect still to apply, a return to request. */
  next_step_at: NullableTimestamp;
  created_at: ColumnType<Date, Date, never>;
  updated_at: ColumnType<Date, Date, Date>;
}

/** Every column of a claim, named so a column added later is read only where it is asked for. */
export const DISPUTE_COLUMNS = [
  'id',
  'merchant_id',
  'order_id',
  'psp_infraction_id',
  'end_to_end_id',
  'status',
  'reason',
  'amount_brl',
  'reported_at',
  'defense_deadline',
  'order_held',
  'defense',
  'defended_at',
  'resolved_at',
  'outcome',
  'return_id',
  'return_status',
  'event_sequence',
  'next_step_at',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof DisputesTable)[];

declare module '../../db/schema.ts' {
  interface Database {
    disputes: DisputesTable;
  }
}

