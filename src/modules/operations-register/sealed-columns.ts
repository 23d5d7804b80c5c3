/**
 * The register's sealed columns (docs/architecture/operations-register.md): the receiver's name
 * and document are copied sealed from `receivers` (record.ts), the parties' as the order gave
 * them; the sealing pass (src/platform/personal-data-rotation.ts) seals what came in clear and
 * re-seals after a KEK rotation, through the one change the append-only trigger lets through
 * (migration 0046). report.ts opens them.
 */
import type { SealedColumns } from '../../platform/personal-data-rotation.ts';

export const REGISTER_SEALED: SealedColumns = {
  name: 'operationsRegister',
  table: 'operations_register',
  columns: {
    client_document: 'document',
    client_name: 'name',
    originator_name: 'name',
    originator_document: 'document',
    beneficiary_name: 'name',
    beneficiary_document: 'document',
    // A PIX key (copied sealed from the order's) or a wallet: sealed alike (migration 0047).
    originator_account: 'account',
    beneficiary_account: 'account',
  },
  appendOnly: true,
};
