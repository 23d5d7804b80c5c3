/**
 * A payout batch line's sealed columns (migration 0068): the PIX key and the recipient's name, as
 * an order's. Sealed on upload (service.ts), opened only to make the line's order (funding.ts).
 * Keyed by (batch_id, line): the re-sealing pass walks that key.
 */
import type { SealedColumns } from '../../platform/personal-data-rotation.ts';

export const PAYOUT_BATCH_ITEMS_SEALED: SealedColumns = {
  name: 'payoutBatchItems',
  table: 'payout_batch_items',
  columns: { pix_key: 'account', recipient_name: 'name' },
  key: [
    { column: 'batch_id', type: 'uuid' },
    { column: 'line', type: 'integer' },
  ],
};
