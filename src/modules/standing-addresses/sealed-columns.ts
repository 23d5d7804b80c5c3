/**
 * A standing address's sealed columns (migration 0076): the PIX key every deposit's PAYOUT pays and
 * the recipient's name, as an order's and a payout batch line's. Sealed when the address is made
 * (service.ts), opened for the API's answers and to make a deposit's PAYOUT (deposits.ts).
 */
import type { SealedColumns } from '../../platform/personal-data-rotation.ts';

export const STANDING_ADDRESSES_SEALED: SealedColumns = {
  name: 'standingAddresses',
  table: 'standing_deposit_addresses',
  columns: { pix_key: 'account', recipient_name: 'name' },
};
