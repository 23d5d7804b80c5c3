/**
 * The receivers' sealed columns: what repo.ts seals on write and opens on read, the blind index it
 * keeps beside the document, and the list the sealing pass (src/platform/personal-data-rotation.ts)
 * seals and re-seals.
 */
import type { PersonalDataKind } from '../../lib/personal-data.ts';
import type { SealedColumns } from '../../platform/personal-data-rotation.ts';

/**
 * Every part of the postal address, each sealed on its own (kind `address`): the API takes and
 * answers them one by one, and nothing looks a receiver up by them, so no blind index.
 */
export const RECEIVER_ADDRESS_COLUMNS = ['address_street', 'address_number', 'address_complement', 'address_neighborhood', 'address_city', 'address_state', 'address_zip_code'] as const;

const addressKinds = Object.fromEntries(RECEIVER_ADDRESS_COLUMNS.map((column) => [column, 'address'])) as Record<(typeof RECEIVER_ADDRESS_COLUMNS)[number], PersonalDataKind>;

export const RECEIVERS_SEALED: SealedColumns = {
  name: 'receivers',
  table: 'receivers',
  columns: { document: 'document', name: 'name', email: 'email', phone: 'phone', ...addressKinds },
  hashes: { document_hash: { of: 'document', kind: 'document' } },
};

export const KYC_SUBMISSIONS_SEALED: SealedColumns = {
  name: 'kycSubmissions',
  table: 'receiver_kyc_submissions',
  columns: { mother_name: 'name' },
};
