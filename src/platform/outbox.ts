/**
 * The transactional outbox. A state change records its event with `recordEvent(trx, ...)` inside
 * its own transaction, so the change and its notification commit together or not at all.
 * Delivery to merchants' endpoints reads these rows afterwards; the commit signals
 * `OUTBOX_CHANNEL`, which wakes the workers that fan events out.
 *
 * Personal data in a payload (a PIX key, a receiver's name and email) is sealed here, value by
 * value (event-payload-sealing.ts): the emitter passes the clear payload and the means to seal;
 * readers open it with `openEventPayload`.
 */
import type { TObject } from 'typebox';
import { signalAfterCommit } from './commit-signals.ts';
import type { Trx } from '../db/database.ts';
import { newId } from '../lib/ids.ts';
import type { PersonalData } from '../lib/personal-data.ts';
import { holdsPersonalData, sealEventPayload } from './event-payload-sealing.ts';

/** Published after every commit that recorded an event (the one place events are written). */
export const OUTBOX_CHANNEL = 'outbox_events';

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

/** `personalData`: needed when the payload holds personal data (sealed at rest); refused without it, never stored clear. */
export async function recordEvent(trx: Trx, event: OutboxEvent, personalData?: Pick<PersonalData, 'seal'>): Promise<RecordedEvent> {
  return (await recordEvents(trx, [event], personalData))[0]!;
}

/** Several events in one statement (a batch of transfers' transitions), answered in the order given. */
export async function recordEvents(trx: Trx, events: readonly OutboxEvent[], personalData?: Pick<PersonalData, 'seal'>): Promise<RecordedEvent[]> {
  if (events.length === 0) return [];
  const rows = events.map((event) => {
    if ('deliveryId' in event.payload) throw new Error('deliveryId is assigned per delivery, not per event');
    let payload = event.payload;
    if (holdsPersonalData(payload)) {
      if (!personalData) throw new Error(`${event.event} carries personal data: recordEvent needs personalData to seal it`);
      payload = sealEventPayload(personalData, payload);
    }
    return { id: newId(), merchant_id: event.merchantId, event_type: event.event, payload: JSON.stringify({ event: event.event, ...payload }) };
  });
  const inserted = await trx.insertInto('events').values(rows).returning(['id', 'created_at']).execute();
  signalAfterCommit(trx, OUTBOX_CHANNEL);
  const createdAt = new Map(inserted.map((row) => [row.id, row.created_at]));
  return rows.map((row) => ({ id: row.id, createdAt: createdAt.get(row.id)! }));
}

/**
 * What a module publishes about an event it records: the webhook catalog is assembled from
 * these by the composition root, so the module that emits an event also owns its definition.
 */
export interface EventDefinition {
  name: string;
  description: string;
  category: 'order' | 'receiver' | 'dispute' | 'webhook';
  /** The order types it is sent for; null for events not about an order. */
  orderTypes: Array<'PAYIN' | 'PAYOUT'> | null;
  /** The value the event reports in `statusField` (order status, or KYC status for receivers). */
  status: string | null;
  statusField: 'status' | 'kycStatus' | null;
  /**
   * The flat payload, `event` and `deliveryId` included: closed (additionalProperties false), every
   * field required, titled (the OpenAPI document's component for it, webhooks section).
   */
  payload: TObject;
}
