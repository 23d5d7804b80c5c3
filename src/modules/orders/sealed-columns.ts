/**
 * The orders' sealed columns (issue 38, docs/decisions/0026-personal-data-sealed-at-rest.md): who
 * paid a PAYIN as the PSP reported it (payer-rules.ts), and a PAYOUT's PIX key and recipient name.
 * Sealed on write (notifications.ts, create-order.ts), and kept sealed in the row the state machine
 * carries, so the operations register copies them as they are (operations-register/record.ts:
 * same kinds, so they open there); opened only where a clear value leaves: the API's Order
 * (service.ts, listing.ts), the PIX sent (steps.ts), the webhook events naming the key (whose
 * payload the outbox seals again: platform/event-payload-sealing.ts), the admin's order detail. The sealing pass
 * (src/platform/personal-data-rotation.ts) seals rows from before and re-seals after a KEK rotation.
 */
import type { PersonalData, PersonalDataKind } from '../../lib/personal-data.ts';
import type { SealedColumns } from '../../platform/personal-data-rotation.ts';

const SEALED_KINDS = {
  payer_document: 'document',
  payer_name: 'name',
  pix_key: 'account',
  recipient_name: 'name',
} as const satisfies Record<string, PersonalDataKind>;

export const ORDERS_SEALED: SealedColumns = { name: 'orders', table: 'orders', columns: SEALED_KINDS };

type SealedColumn = keyof typeof SEALED_KINDS;
type WithSealed = { [K in SealedColumn]?: string | null | undefined };

function each<T extends WithSealed>(row: T, apply: (kind: PersonalDataKind, value: string | null) => string | null): T {
  const out: WithSealed = { ...row };
  for (const [column, kind] of Object.entries(SEALED_KINDS) as [SealedColumn, PersonalDataKind][]) {
    const value = row[column];
    if (value !== undefined) out[column] = apply(kind, value);
  }
  return out as T;
}

/** The same values with every sealed column it holds sealed (for an INSERT or an UPDATE). */
export const sealOrderColumns = <T extends WithSealed>(pd: Pick<PersonalData, 'sealNullable'>, values: T): T => each(values, (kind, value) => pd.sealNullable(kind, value));

/** The same row with every sealed column it holds opened (clear text from before stays as it is). */
export const openOrderColumns = <T extends WithSealed>(pd: Pick<PersonalData, 'openNullable'>, row: T): T => each(row, (kind, value) => pd.openNullable(kind, value));
