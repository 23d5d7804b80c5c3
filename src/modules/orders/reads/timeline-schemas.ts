/** GET /orders/{id}/timeline's answer: the order's story, one entry per fact, in time order. */
import { Type } from 'typebox';
import { DisputeOutcomeSchema, DisputeStatusSchema, Nullable, OrderTypeField, Timestamp, Uuid } from '../../../http/schemas.ts';
import { EntrySchema } from '../../ledger/schemas.ts';
import { DeliveryStatusSchema } from '../../webhooks/schemas.ts';
import { OrderStatusSchema, OrderTransactionSchema } from '../schemas.ts';

/** In this order at equal times: a status change, the claim event beside it, then what they caused. */
export const TIMELINE_KINDS = ['STATUS', 'DISPUTE', 'TRANSACTION', 'LEDGER_ENTRY', 'WEBHOOK_DELIVERY'] as const;

export const TimelineStatusSchema = Type.Object(
  {
    status: OrderStatusSchema,
    source: Type.Enum(['CREATED', 'EVENT', 'CURRENT'], {
      description:
        'CREATED: the status the order was created in; EVENT: an order event reported it (event names it); CURRENT: the status the order is in now, when no event reported it (statuses without an event: SWAPPING, TRANSFERRING, PIX_SENT_UNCONFIRMED, EXPIRED), at the order\'s last change',
    }),
    event: Nullable(Type.String({ description: 'The order event, e.g. order.completed; null unless source is EVENT' })),
  },
  { title: 'OrderTimelineStatus' },
);

/**
 * A MED claim's event about the order (order.disputed, dispute.updated, dispute.resolved): typed by
 * the claim's own status, apart from the order's, since a claim does not change the order's status
 * by itself (a held order stays PAYMENT_RECEIVED, a charged-back one stays COMPLETED).
 */
export const TimelineDisputeSchema = Type.Object(
  {
    disputeId: Uuid('The claim (GET /disputes/{id})'),
    event: Type.String({ description: 'The dispute event: order.disputed (claim opened), dispute.updated (defended, outcome known, return settled) or dispute.resolved (claim ended)' }),
    // The claim's status after this event: DisputeStatus, never an OrderStatus.
    status: DisputeStatusSchema,
    outcome: Type.Union([DisputeOutcomeSchema, Type.Null()], { description: 'What the end of the claim did to the order; null until it is known' }),
    defenseDeadline: Timestamp('Until when a defense is taken (POST /disputes/{id}/defense)'),
  },
  {
    title: 'OrderTimelineDispute',
    description: "A MED claim's event about the order. `status` is the claim's status after the event (DisputeStatus: OPEN, DEFENDED, ACCEPTED, REJECTED, CANCELLED), never the order's: the order's own changes are STATUS entries",
  },
);

export const TimelineTransactionSchema = Type.Object(
  {
    ...OrderTransactionSchema.properties,
    explorerUrl: Nullable(Type.String({ description: "A chain movement's page in the block explorer of the configured cluster (CHAIN_EXPLORER_TX_URL); null for PIX movements, and when none is configured (the sandbox chain)" })),
  },
  { title: 'OrderTimelineTransaction' },
);

export const TimelineDeliverySchema = Type.Object(
  {
    id: Uuid('The deliveryId (GET /webhook/deliveries/{id} has its attempts)'),
    endpointId: Uuid(),
    event: Type.String(),
    status: DeliveryStatusSchema,
    attempts: Type.Integer(),
    lastStatusCode: Type.Union([Type.Integer(), Type.Null()], { description: 'HTTP status of the last attempt; null before any, or when none came (timeout, refused)' }),
    lastAttemptAt: Nullable(Timestamp()),
  },
  { title: 'OrderTimelineDelivery' },
);

export const TimelineEntrySchema = Type.Object(
  {
    at: Timestamp('When it happened: a status change, a movement recorded, an entry posted, a delivery created'),
    kind: Type.Enum(TIMELINE_KINDS, {
      description:
        "Which one of the five fields below is set; the other four are null. STATUS: the order's status changed (status); DISPUTE: a MED claim on the order opened, changed or ended (dispute, with the claim's own status); TRANSACTION: a PIX or chain movement; LEDGER_ENTRY: a ledger entry posted; WEBHOOK_DELIVERY: a webhook delivery about the order",
    }),
    status: Type.Union([TimelineStatusSchema, Type.Null()], { description: "kind STATUS: the order's status (an OrderStatus); null otherwise" }),
    dispute: Type.Union([TimelineDisputeSchema, Type.Null()], { description: "kind DISPUTE: a MED claim's event, with the claim's status (a DisputeStatus, never the order's); null otherwise" }),
    transaction: Type.Union([TimelineTransactionSchema, Type.Null()]),
    ledgerEntry: Type.Union([EntrySchema, Type.Null()]),
    webhookDelivery: Type.Union([TimelineDeliverySchema, Type.Null()]),
  },
  { title: 'OrderTimelineEntry' },
);

export const OrderTimelineSchema = Type.Object(
  {
    orderId: Uuid(),
    type: OrderTypeField,
    status: OrderStatusSchema,
    entries: Type.Array(TimelineEntrySchema, { description: 'Oldest first; at equal times: status, claim, movement, ledger entry, delivery' }),
  },
  { title: 'OrderTimeline' },
);
