/**
 * A refused sign request: a reason code per rule (DOMAIN.md "Fee sponsorship") and a message
 * that names what was wrong. Shared by decoding (transaction.ts refuses unreadable versions) and
 * by the rules, so neither has to import the other.
 */
import { AppError } from '../../errors.ts';

export type RejectionReason =
  | 'UNSUPPORTED_VERSION'
  | 'ADDRESS_LOOKUP_TABLES'
  | 'SPONSOR_AS_PROGRAM'
  | 'SPONSOR_TRANSFER'
  | 'SPONSOR_FUNDS_ACCOUNT'
  | 'SPONSOR_PAYS_RENT'
  | 'SPONSOR_IN_INSTRUCTION'
  | 'SPONSOR_NOT_FEE_PAYER'
  | 'FOREIGN_SIGNER'
  | 'MANAGED_KEY_NOT_SIGNER'
  | 'DURABLE_NONCE'
  | 'PROGRAM_NOT_ALLOWED'
  | 'TOO_MANY_INSTRUCTIONS'
  | 'NO_INSTRUCTIONS'
  | 'INVALID_COMPUTE_BUDGET'
  | 'COMPUTE_UNIT_PRICE_TOO_HIGH'
  | 'COMPUTE_UNIT_LIMIT_TOO_HIGH'
  | 'FEE_TOO_HIGH'
  | 'TRANSACTION_TOO_LARGE'
  | 'UNSUPPORTED_MESSAGE'
  | 'SIMULATION_FAILED';

export interface Rejection {
  reason: RejectionReason;
  message: string;
  details?: Record<string, unknown>;
}

export const reject = (reason: RejectionReason, message: string, details?: Record<string, unknown>): Rejection => ({
  reason,
  message,
  ...(details ? { details } : {}),
});

/** 422 TRANSACTION_REJECTED with `details.reason`. */
export class TransactionRejectedError extends AppError {
  readonly rejection: Rejection;

  constructor(rejection: Rejection) {
    super('TRANSACTION_REJECTED', rejection.message, { reason: rejection.reason, ...rejection.details });
    this.name = 'TransactionRejectedError';
    this.rejection = rejection;
  }
}
