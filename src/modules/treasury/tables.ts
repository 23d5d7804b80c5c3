/**
 * The treasury's tables (migration 0024): operators' fundings, and each reconciliation run with
 * what it read per currency. Merged into the database's table map (`Database` in src/db/schema.ts).
 */
import type { ColumnType } from 'kysely';

export interface TreasuryFundingsTable {
  id: string;
  /** The funding's own name, e.g. its transaction signature: one funding per reference. */
  reference: string;
  /** The treasury wallet funded (migration 0079, decision 0057). */
  wallet: ColumnType<number, number | undefined, never>;
  currency: string;
  /** NUMERIC text, positive. */
  amount: string;
  note: string | null;
  actor: string;
  created_at: ColumnType<Date, Date | string, never>;
}

/** What two operators agreed was moved out of the treasury (migration 0038), once per reference. */
export interface TreasuryWithdrawalsTable {
  id: string;
  reference: string;
  /** The treasury wallet the tokens left (migration 0079). */
  wallet: ColumnType<number, number | undefined, never>;
  currency: string;
  /** NUMERIC text, positive. */
  amount: string;
  note: string | null;
  approval_id: string;
  created_at: ColumnType<Date, Date | string, never>;
}

export interface TreasuryReconciliationRunsTable {
  id: string;
  started_at: ColumnType<Date, Date | string, never>;
  finished_at: ColumnType<Date, Date | string, never>;
  /** Wallet 1's address (each wallet's is its key's: platform_keys). */
  address: string;
  /** PAYINs TRANSFERRING (sent, not yet COMPLETED) when the balances were read. */
  in_flight_transfers: number;
  /** Some currency drifted beyond what the in-flight transfers explain. */
  drift_found: boolean;
}

export interface TreasuryReconciliationBalancesTable {
  run_id: string;
  /** Each treasury wallet is reconciled on its own (migration 0079, decision 0057). */
  wallet: number;
  currency: string;
  on_chain: string;
  ledger: string;
  /** on_chain − ledger. */
  drift: string;
  /** Tokens of this currency the in-flight transfers carry. */
  in_flight_amount: string;
}

declare module '../../db/schema.ts' {
  interface Database {
    treasury_fundings: TreasuryFundingsTable;
    treasury_withdrawals: TreasuryWithdrawalsTable;
    treasury_reconciliation_runs: TreasuryReconciliationRunsTable;
    treasury_reconciliation_balances: TreasuryReconciliationBalancesTable;
  }
}
