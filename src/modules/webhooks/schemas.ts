/**
 * Webhook API shapes: endpoints, the delivery log, the catalog. Bodies are strict objects.
 */
import { type Static, Type } from 'typebox';
import { PageQuery } from '../../http/pagination.ts';
import { OrderTypeField, StrictObject, Timestamp, Uuid } from '../../http/schemas.ts';

export const DELIVERY_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED'] as const;
/** Titled: one component of the OpenAPI document, which every delivery and filter refers to (http/openapi-components.ts). */
export const DeliveryStatusSchema = Type.Enum(DELIVERY_STATUSES, { title: 'WebhookDeliveryStatus', description: 'PENDING until an attempt gets a 2xx (SUCCEEDED) or the retries run out (FAILED)' });
export const MAX_ENDPOINTS_PER_MERCHANT = 20;

export const VERIFY_HELP =
  'Every delivery is signed per Standard Webhooks (https://www.standardwebhooks.com): headers `webhook-id` (the deliveryId, also in the body), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}` under the base64-decoded part of the secret after `whsec_`; during the 24 h after a secret rotation two signatures, space-separated, one per secret). Verify the raw body before parsing it, e.g. with the `standardwebhooks` npm package: `new Webhook(secret).verify(rawBody, headers)`, which also rejects timestamps more than 5 minutes off. Answer any 2xx within 10 s; anything else (including redirects, which are not followed) is retried after about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then the delivery is FAILED. Delivery is at least once and unordered: de-duplicate on `deliveryId`.';

const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description:
    'Where deliveries are POSTed. https required; the host must resolve only to public addresses (private, loopback, link-local and metadata addresses are refused, checked at registration and at every attempt). Development setups may allow http:// to local receivers.',
});
const Description = Type.String({ maxLength: 255 });
/** The request shapes that name events: they accept exactly the catalog's names. */
export function eventNamingSchemas(eventNames: string[]) {
  const EventName = Type.Enum(eventNames, { title: 'WebhookEventName', description: 'An event name of GET /webhook/events' });
  const EventTypes = Type.Union(
    [Type.Array(EventName, { minItems: 1, maxItems: 50, uniqueItems: true }), Type.Null()],
    { description: 'The events this endpoint receives; null or absent for all events' },
  );
  return {
    CreateEndpointBody: StrictObject({
      url: Url,
      description: Type.Optional(Description),
      eventTypes: Type.Optional(EventTypes),
      enabled: Type.Optional(Type.Boolean({ default: true, description: 'Disabled endpoints receive nothing; their pending deliveries wait until re-enabled' })),
    }, { title: 'CreateWebhookEndpointRequest' }),
    UpdateEndpointBody: StrictObject({
      url: Type.Optional(Url),
      description: Type.Optional(Type.Union([Description, Type.Null()])),
      eventTypes: Type.Optional(EventTypes),
      enabled: Type.Optional(Type.Boolean()),
    }, { title: 'UpdateWebhookEndpointRequest' }),
    DeliveryListQuery: StrictObject({
      ...PageQuery,
      status: Type.Optional(DeliveryStatusSchema),
      event: Type.Optional(EventName),
      endpointId: Type.Optional(Uuid()),
      orderId: Type.Optional(Uuid()),
    }),
  };
}

const endpointFields = {
  id: Uuid(),
  url: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  eventTypes: Type.Union([Type.Array(Type.String()), Type.Null()], { description: 'null: every event' }),
  enabled: Type.Boolean(),
  secretCreatedAt: Timestamp('When the current signing secret was created'),
  previousSecretExpiresAt: Type.Union([Timestamp(), Type.Null()], {
    description: 'After a rotation: until when the previous secret still signs too; null otherwise',
  }),
  failingSince: Type.Union([Timestamp(), Type.Null()], {
    description: 'The first failed attempt after the last success; null while healthy. Failing for WEBHOOK_DISABLE_AFTER_DAYS days disables the endpoint',
  }),
  disabledReason: Type.Union([Type.String(), Type.Null()], {
    description: 'Why the platform disabled it (it answered 410 Gone, or failed too long); null when enabled or disabled by you',
  }),
  createdAt: Timestamp(),
  updatedAt: Timestamp(),
};

type EventNamingSchemas = ReturnType<typeof eventNamingSchemas>;
export type CreateEndpointInput = Static<EventNamingSchemas['CreateEndpointBody']>;
export type UpdateEndpointInput = Static<EventNamingSchemas['UpdateEndpointBody']>;
export type DeliveryListInput = Static<EventNamingSchemas['DeliveryListQuery']>;

export const EndpointSchema = Type.Object(endpointFields, { title: 'WebhookEndpoint' });

const Secret = Type.String({
  description: 'The signing secret, `whsec_` + base64 of 32 random bytes. Shown only in this answer: store it now.',
});

export const CreatedEndpointSchema = Type.Object({ ...endpointFields, secret: Secret }, { title: 'WebhookEndpointWithSecret' });

export const RotatedSecretSchema = Type.Object(
  {
    endpointId: Uuid(),
    secret: Secret,
    previousSecretExpiresAt: Timestamp('The previous secret keeps signing (a second signature) until then: 24 h'),
  },
  { title: 'WebhookSecretRotation' },
);

export const RecoverBodySchema = Type.Object(
  { since: Type.String({ format: 'date-time', description: 'Re-queue the deliveries that failed for good and were created at or after this time (RFC 3339)' }) },
  { additionalProperties: false, title: 'WebhookRecoverRequest' },
);

export const RecoverResultSchema = Type.Object(
  {
    endpointId: Uuid(),
    since: Timestamp('As requested'),
    requeued: Type.Integer({ minimum: 0, description: 'How many FAILED deliveries were scheduled for one more attempt, due now' }),
  },
  { title: 'WebhookRecoverResult' },
);

export const EndpointListSchema = Type.Object({ data: Type.Array(EndpointSchema) }, { title: 'WebhookEndpointList' });

export const AttemptSchema = Type.Object(
  {
    number: Type.Integer({ description: '1 for the first attempt of this delivery' }),
    attemptedAt: Timestamp(),
    succeeded: Type.Boolean(),
    statusCode: Type.Union([Type.Integer(), Type.Null()], { description: 'HTTP status answered; null when none (timeout, network, refused target)' }),
    latencyMs: Type.Integer(),
    error: Type.Union([Type.String(), Type.Null()]),
    responseBody: Type.Union([Type.String(), Type.Null()], { description: 'The first KiB of the answer' }),
  },
  { title: 'WebhookDeliveryAttempt' },
);

export const DeliverySchema = Type.Object(
  {
    id: Uuid('The deliveryId: the `webhook-id` header and the body’s `deliveryId`, the same on every attempt'),
    endpointId: Uuid(),
    eventId: Uuid(),
    event: Type.String(),
    orderId: Type.Union([Type.String(), Type.Null()]),
    status: DeliveryStatusSchema,
    attemptCount: Type.Integer(),
    nextAttemptAt: Type.Union([Timestamp(), Type.Null()], { description: 'When PENDING: when the next attempt is due' }),
    lastAttemptAt: Type.Union([Timestamp(), Type.Null()]),
    lastStatusCode: Type.Union([Type.Integer(), Type.Null()]),
    lastError: Type.Union([Type.String(), Type.Null()]),
    createdAt: Timestamp(),
    updatedAt: Timestamp(),
    payload: Type.Record(Type.String(), Type.Unknown(), { description: 'The flat body as sent (with deliveryId)' }),
    attempts: Type.Array(AttemptSchema),
  },
  { title: 'WebhookDelivery' },
);

export const CatalogEntrySchema = Type.Object(
  {
    name: Type.String(),
    description: Type.String(),
    category: Type.Enum(['order', 'receiver', 'dispute', 'webhook']),
    orderTypes: Type.Union([Type.Array(OrderTypeField), Type.Null()], { description: 'Order types it is sent for; null when not about an order' }),
    status: Type.Union([Type.String(), Type.Null()], { description: 'The status the event reports (in `statusField`)' }),
    statusField: Type.Union([Type.Enum(['status', 'kycStatus']), Type.Null()]),
    payload: Type.Record(Type.String(), Type.Unknown(), {
      description:
        "JSON Schema of the flat payload: closed, every field required; the schema of the event's entry in this document's `webhooks` section (its `discriminator.mapping` names that document's components)",
    }),
  },
  { title: 'WebhookEventDefinition' },
);

export const CatalogSchema = Type.Object({ data: Type.Array(CatalogEntrySchema) }, { title: 'WebhookEventCatalog' });
