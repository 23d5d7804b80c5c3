/** A batch's and a line's status as filled badges carrying the word (colour is never the only cue; filled, for AA contrast). */
import { Badge } from '@mantine/core';
import type { components } from '../../api/schema.ts';
import { TONE } from '../../components/readable.ts';
import { useI18n } from '../../i18n/context.tsx';

export type Batch = components['schemas']['PayoutBatch'];
export type BatchItem = components['schemas']['PayoutBatchItem'];

const BATCH_TONE: Record<Batch['status'], string> = {
  VALIDATED: TONE.info,
  AWAITING_APPROVAL: TONE.warn,
  AWAITING_FUNDING: TONE.warn,
  PAYING: TONE.info,
  PAUSED: TONE.neutral,
  COMPLETED: TONE.ok,
  CANCELLED: TONE.neutral,
  EXPIRED: TONE.neutral,
};

const ITEM_TONE: Record<BatchItem['status'], string> = { VALID: TONE.ok, INVALID: TONE.bad, ORDERED: TONE.info, REFUSED: TONE.bad, CANCELLED: TONE.neutral };

/** Statuses after which the batch changes no more: its page stops refreshing. */
export const FINAL_BATCH = new Set<Batch['status']>(['COMPLETED', 'CANCELLED', 'EXPIRED']);

export function BatchStatusBadge({ status }: { status: Batch['status'] }) {
  const { t } = useI18n();
  return <Badge color={BATCH_TONE[status]} variant="filled" tt="none">{t(`batches.status.${status}`)}</Badge>;
}

export function ItemStatusBadge({ status }: { status: BatchItem['status'] }) {
  const { t } = useI18n();
  return <Badge color={ITEM_TONE[status]} variant="filled" tt="none">{t(`batches.item.${status}`)}</Badge>;
}
