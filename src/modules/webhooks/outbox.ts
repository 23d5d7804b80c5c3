/**
 * The transactional outbox. A state change records its event with `recordEvent(trx, ...)` inside
 * its own transaction, so the change and its notification commit together or not at all.
 * Delivery to merchants' endpoints reads these rows afterwards.
 */
import type { Trx } from '../../db/database.ts';
import { newId } from '../../lib/ids.ts';

export interface OutboxEvent {
  merchantId: string;
  /** The event name of the spec, e.g. `receiver.kyc_approved`; also the payload's `event`. */
  event: string;
  /** The flat payload without `event` and `deliveryId`: `deliveryId` is assigned per delivery. */
  payload: Record<string, unknown>;
}

export interface RecordedEvent {
  id: string;
  createdAt: Date;
}

export async function recordEvent(trx: Trx, event: OutboxEvent): Promise<RecordedEvent> {
  if ('deliveryId' in event.payload) throw new Error('deliveryId is assigned per delivery, not per event');
  const row = await trx
    .insertInto('events')
    .values({
      id: newId(),
      merchant_id: event.merchantId,
      event_type: event.event,
      payload: JSON.stringify({ event: event.event, ...event.payload }),
    })
    .returning(['id', 'created_at'])
    .executeTakeFirstOrThrow();
  return { id: row.id, createdAt: row.created_at };
}

