/** GET /orders/{id}/timeline's answer: the order's story, one entry per fact, in time order. */
import { Type } from 'typebox';
import { Nullable, OrderTypeField, Timestamp, Uuid } from '../../../http/schemas.ts';
import { EntrySchema } from '../../ledger/schemas.ts';
import { DeliveryStatusSchema } from '../../webhooks/schemas.ts';
import { OrderStatusSchema, OrderTransactionSchema } from '../schemas.ts';

export const TIMELINE_KINDS = ['STATUS', 'TRANSACTION', 'LEDGER_ENTRY', 'WEBHOOK_DELIVERY'] as const;

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
    kind: Type.Enum(TIMELINE_KINDS, { description: 'Which one of the four fields below is set; the other three are null' }),
    status: Type.Union([TimelineStatusSchema, Type.Null()]),
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
    entries: Type.Array(TimelineEntrySchema, { description: 'Oldest first; at equal times: status, movement, ledger entry, delivery' }),
  },
  { title: 'OrderTimeline' },
);
