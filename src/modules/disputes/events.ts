/**
 * The dispute events, extensions of the spec's catalog (docs/architecture/disputes.md): the same
 * flat fields for the three, so a merchant's handler reads every claim event the same way;
 * `sequence` orders one claim's events, and the return's status is published in English
 * (return-status.ts).
 */
import { Type } from 'typebox';
import type { EventDefinition, OutboxEvent } from '../../platform/outbox.ts';
import { toJsonNumber } from '../../lib/money.ts';
import { DisputeOutcomeSchema, DisputeStatusSchema } from './schemas.ts';
import type { DisputeRow } from './repo.ts';
import { NullableReturnStatus, publishedReturnStatus } from './return-status.ts';

const fields = {
  disputeId: Type.String({ format: 'uuid', description: 'The dispute (GET /disputes/{id})' }),
  sequence: Type.Integer({
    minimum: 1,
    description: "The event's number among this dispute's events (1, 2, ...): a later event has a larger number. Deliveries are not ordered (a return settling after the claim ended sends dispute.updated after dispute.resolved): keep the largest seen and ignore an event with a smaller one",
  }),
  orderId: Type.String({ format: 'uuid', description: 'The PAYIN whose PIX is claimed' }),
  externalId: Type.Union([Type.String(), Type.Null()], { description: "The merchant's reference of the order" }),
  type: Type.Literal('PAYIN', { description: 'Order type: claims concern PAYINs only' }),
  status: DisputeStatusSchema,
  orderStatus: Type.String({ description: "The order's status when the event was recorded" }),
  amountBrl: Type.Number({ description: 'The amount claimed, BRL' }),
  reason: Type.String({ description: "What the payer's PSP reported" }),
  defenseDeadline: Type.String({ format: 'date-time', description: 'Until when a defense is taken (POST /disputes/{id}/defense)' }),
  orderHeld: Type.Boolean({ description: 'Whether the claim stopped the order before its tokens left' }),
  outcome: Type.Union([DisputeOutcomeSchema, Type.Null()], { description: 'What the end of the claim did; null until it is known' }),
  returnStatus: NullableReturnStatus,
  timestamp: Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' }),
  deliveryId: Type.String({ description: 'Unique identifier of the delivery; stable across retries' }),
};

/** One closed payload per event, alike but for `event`, so a receiver's types narrow on the name. */
const define = (name: string, title: string, description: string): EventDefinition => ({
  name,
  description,
  category: 'dispute',
  orderTypes: ['PAYIN'],
  status: null,
  statusField: 'status',
  payload: Type.Object({ event: Type.Literal(name, { description: 'Event name' }), ...fields }, { title, description, additionalProperties: false }),
});

export const ORDER_DISPUTED = 'order.disputed';
export const DISPUTE_UPDATED = 'dispute.updated';
export const DISPUTE_RESOLVED = 'dispute.resolved';

/** The dispute events as the webhook catalog publishes them. */
export const disputeEventDefinitions = (): EventDefinition[] => [
  define(ORDER_DISPUTED, 'OrderDisputedEvent', "Extension: the payer's PSP opened a MED fraud claim on the order's PIX; an order whose tokens had not left is held until the claim ends"),
  define(DISPUTE_UPDATED, 'DisputeUpdatedEvent', 'Extension: the claim changed without ending: defended, its outcome became known, or its MED devolução settled'),
  define(DISPUTE_RESOLVED, 'DisputeResolvedEvent', 'Extension: the claim ended: ACCEPTED (the PIX is returned, by the order or charged back to the merchant), REJECTED or CANCELLED (a held order goes on)'),
];

/** The outbox event of one dispute change, the dispute's `sequence`-th. */
export function disputeEvent(name: string, dispute: DisputeRow, order: { external_id: string | null; status: string }, sequence: number, at: Date): OutboxEvent {
  return {
    merchantId: dispute.merchant_id,
    event: name,
    payload: {
      disputeId: dispute.id,
      sequence,
      orderId: dispute.order_id,
      externalId: order.external_id,
      type: 'PAYIN',
      status: dispute.status,
      orderStatus: order.status,
      amountBrl: toJsonNumber(dispute.amount_brl),
      reason: dispute.reason,
      defenseDeadline: dispute.defense_deadline.toISOString(),
      orderHeld: dispute.order_held,
      outcome: dispute.outcome,
      returnStatus: publishedReturnStatus(dispute.return_status),
      timestamp: at.toISOString(),
    },
  };
}
