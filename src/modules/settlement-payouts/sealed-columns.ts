/**
 * The settlement PIX keys' sealed columns (docs/decisions/0026): the key (itself a CPF, phone or
 * email) and its holder's document. Sealed on write (keys.ts), opened only where the PIX leaves
 * (payouts.ts) and for the operators' and the merchant's masked reads.
 */
import type { SealedColumns } from '../../platform/personal-data-rotation.ts';

export const SETTLEMENT_PIX_KEYS_SEALED: SealedColumns = {
  name: 'settlementPixKeys',
  table: 'settlement_pix_keys',
  columns: { pix_key: 'account', holder_document: 'document' },
};
