/**
 * A MED claim's life, as the PSP reports it (Efí: ABERTA → EM_DEFESA → ACEITA | REJEITADA, or
 * CANCELADA by the payer's PSP): OPEN → DEFENDED → ACCEPTED | REJECTED | CANCELLED, and OPEN may
 * end without a defense. A report that would go back (a stale poll) is ignored, never applied.
 */
import type { DisputeStatus } from './tables.ts';

const NEXT: Readonly<Record<DisputeStatus, readonly DisputeStatus[]>> = {
  OPEN: ['DEFENDED', 'ACCEPTED', 'REJECTED', 'CANCELLED'],
  DEFENDED: ['ACCEPTED', 'REJECTED', 'CANCELLED'],
  ACCEPTED: [],
  REJECTED: [],
  CANCELLED: [],
};

export const canMove = (from: DisputeStatus, to: DisputeStatus): boolean => NEXT[from].includes(to);

/** Decided or withdrawn: nothing moves it again. */
export const isResolved = (status: DisputeStatus): boolean => NEXT[status].length === 0;

/** Still open to the claim: the order stays held while one of these names it. */
export const UNRESOLVED: readonly DisputeStatus[] = ['OPEN', 'DEFENDED'];
