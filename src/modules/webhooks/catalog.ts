/**
 * The canonical event catalog (GET /webhook/events), assembled from the definitions each
 * emitting module publishes (the composition root passes them in) plus our own webhook.test ping,
 * so the published payload schemas cannot drift from what is sent and webhooks imports no emitter.
 */
import { Type, type TObject } from 'typebox';
import type { EventDefinition, OutboxEvent } from '../../platform/outbox.ts';
export const WEBHOOK_TEST: EventDefinition = {
  name: 'webhook.test',
  category: 'webhook',
  orderTypes: null,
  status: null,
  statusField: null,
  description: 'A ping sent on request (POST /webhook/endpoints/{id}/test) to check an endpoint and its signature verification',
  payload: Type.Object(
    {
      event: Type.Literal('webhook.test', { description: 'Event name' }),
      endpointId: Type.String({ format: 'uuid', description: 'The endpoint being tested' }),
      message: Type.String(),
      timestamp: Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' }),
      deliveryId: Type.String({ description: 'Unique identifier of the delivery' }),
    },
    { title: 'WebhookTestEvent', description: 'A ping sent on request to check an endpoint', additionalProperties: false },
  ),
};

/** Why the platform disabled an endpoint. */
export type DisableReason = 'GONE' | 'FAILING';

export const WEBHOOK_ENDPOINT_DISABLED: EventDefinition = {
  name: 'webhook.endpoint_disabled',
  category: 'webhook',
  orderTypes: null,
  status: null,
  statusField: null,
  description:
    'The platform disabled one of your endpoints: it answered 410 Gone, or every attempt to it failed for WEBHOOK_DISABLE_AFTER_DAYS days. Sent to your other endpoints; re-enable it with PATCH /webhook/endpoints/{id} {"enabled": true} and re-queue what failed with POST /webhook/endpoints/{id}/recover',
  payload: Type.Object(
    {
      event: Type.Literal('webhook.endpoint_disabled', { description: 'Event name' }),
      endpointId: Type.String({ format: 'uuid', description: 'The endpoint that was disabled' }),
      url: Type.String({ description: 'Its URL' }),
      reason: Type.Union([Type.Literal('GONE'), Type.Literal('FAILING')], { description: 'GONE: it answered 410; FAILING: it failed for the configured number of days' }),
      message: Type.String({ description: 'What happened, for people' }),
      failingSince: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'The first failure after its last success (FAILING)' }),
      timestamp: Type.String({ format: 'date-time', description: 'When it was disabled; ISO 8601 UTC with milliseconds' }),
      deliveryId: Type.String({ description: 'Unique identifier of the delivery' }),
    },
    { title: 'WebhookEndpointDisabledEvent', description: 'The platform disabled one of your endpoints', additionalProperties: false },
  ),
};

/** The outbox event telling a merchant that an endpoint was disabled. */
export function endpointDisabledEvent(
  endpoint: { id: string; merchantId: string; url: string; failingSince: Date | null },
  reason: DisableReason,
  message: string,
  at: Date,
): OutboxEvent {
  return {
    merchantId: endpoint.merchantId,
    event: WEBHOOK_ENDPOINT_DISABLED.name,
    payload: { endpointId: endpoint.id, url: endpoint.url, reason, message, failingSince: endpoint.failingSince?.toISOString() ?? null, timestamp: at.toISOString() },
  };
}

/** The outbox event of a test ping. */
export function webhookTestEvent(merchantId: string, endpointId: string, at: Date): OutboxEvent {
  return {
    merchantId,
    event: WEBHOOK_TEST.name,
    payload: { endpointId, message: 'Test event from the merchant API', timestamp: at.toISOString() },
  };
}

type JsonSchema = Record<string, unknown>;

/** A published definition: the payload as plain JSON Schema (`oneOf` when the shape depends on the order type). */
export type CatalogEntry = Omit<EventDefinition, 'payload'> & { payload: JsonSchema };

const plain = (schema: TObject): JsonSchema => JSON.parse(JSON.stringify(schema)) as JsonSchema;

export interface Catalog {
  entries: CatalogEntry[];
  names: string[];
}

/** `order.completed` → `OrderCompletedEvent`: the title of a payload that is one of several shapes. */
const titleOf = (name: string) => `${name.replace(/(^|[._])([a-z])/g, (_m, _sep: string, letter: string) => letter.toUpperCase())}Event`;

/**
 * One entry per event name, in the order given; definitions sharing a name (order.completed, one
 * shape per order type) become one entry whose payload is `oneOf` the shapes, told apart by `type`
 * (the discriminator; its mapping names the shapes' titles, which the OpenAPI document makes
 * components). The same entries are served at GET /webhook/events and make the OpenAPI
 * document's `webhooks` section (http/openapi-webhooks.ts), so the two cannot differ.
 */
export function buildCatalog(emitted: EventDefinition[]): Catalog {
  const entries: CatalogEntry[] = [];
  for (const definition of [...emitted, WEBHOOK_TEST, WEBHOOK_ENDPOINT_DISABLED]) {
    const existing = entries.find((entry) => entry.name === definition.name);
    if (!existing) {
      entries.push({ ...definition, orderTypes: definition.orderTypes ? [...definition.orderTypes] : null, payload: plain(definition.payload) });
      continue;
    }
    if (!existing.orderTypes || !definition.orderTypes) throw new Error(`${definition.name}: defined twice`);
    if (existing.status !== definition.status) throw new Error(`${definition.name}: variants report different statuses`);
    const variants = (existing.payload.oneOf as JsonSchema[] | undefined) ?? [existing.payload];
    const all = [...variants, plain(definition.payload)];
    const mapping: Record<string, string> = {};
    for (const variant of all) {
      const type = (variant.properties as Record<string, { const?: unknown }>).type?.const;
      if (typeof type !== 'string' || typeof variant.title !== 'string' || mapping[type]) throw new Error(`${definition.name}: each shape needs its own single order type and a title`);
      mapping[type] = `#/components/schemas/${variant.title}`;
    }
    existing.orderTypes = [...new Set([...existing.orderTypes, ...definition.orderTypes])];
    existing.description = `The order completed; the fields depend on the order type. ${all.map((variant) => variant.description).join('. ')}`;
    existing.payload = { title: titleOf(definition.name), description: existing.description, oneOf: all, discriminator: { propertyName: 'type', mapping } };
  }
  return { entries, names: entries.map((entry) => entry.name) };
}
