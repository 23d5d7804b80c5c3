/**
 * The receivers' sealed columns, for the sealing pass (src/platform/personal-data-rotation.ts):
 * what repo.ts seals on write, and the blind index it keeps beside the document.
 */
import type { SealedColumns } from '../../platform/personal-data-rotation.ts';

export const RECEIVERS_SEALED: SealedColumns = {
  name: 'receivers',
  table: 'receivers',
  columns: { document: 'document', name: 'name', email: 'email', phone: 'phone' },
  hashes: { document_hash: { of: 'document', kind: 'document' } },
};

export const KYC_SUBMISSIONS_SEALED: SealedColumns = {
  name: 'kycSubmissions',
  table: 'receiver_kyc_submissions',
  columns: { mother_name: 'name' },
};
