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
  payload: Type.Object({
    event: Type.String({ description: 'Event name' }),
    endpointId: Type.String({ format: 'uuid', description: 'The endpoint being tested' }),
    message: Type.String(),
    timestamp: Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' }),
    deliveryId: Type.String({ description: 'Unique identifier of the delivery' }),
  }),
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
  payload: Type.Object({
    event: Type.String({ description: 'Event name' }),
    endpointId: Type.String({ format: 'uuid', description: 'The endpoint that was disabled' }),
    url: Type.String({ description: 'Its URL' }),
    reason: Type.Union([Type.Literal('GONE'), Type.Literal('FAILING')], { description: 'GONE: it answered 410; FAILING: it failed for the configured number of days' }),
    message: Type.String({ description: 'What happened, for people' }),
    failingSince: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'The first failure after its last success (FAILING)' }),
    timestamp: Type.String({ format: 'date-time', description: 'When it was disabled; ISO 8601 UTC with milliseconds' }),
    deliveryId: Type.String({ description: 'Unique identifier of the delivery' }),
  }),
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

/** An order event's schema with `type` narrowed to the order type it is sent for. */
function forOrderType(schema: TObject, orderTypes: Array<'PAYIN' | 'PAYOUT'>, title?: string): JsonSchema {
  const json = plain(schema) as { properties: Record<string, JsonSchema> } & JsonSchema;
  return {
    ...json,
    ...(title ? { title } : {}),
    properties: { ...json.properties, type: { ...json.properties.type, enum: orderTypes } },
  };
}

export interface Catalog {
  entries: CatalogEntry[];
  names: string[];
}

/** One entry per event name; definitions sharing a name (order.completed) become one `oneOf` entry. */
export function buildCatalog(emitted: EventDefinition[]): Catalog {
  const entries: CatalogEntry[] = [];
  for (const definition of [...emitted, WEBHOOK_TEST, WEBHOOK_ENDPOINT_DISABLED]) {
    const existing = entries.find((entry) => entry.name === definition.name);
    if (!existing) {
      entries.push({
        name: definition.name,
        description: definition.description,
        category: definition.category,
        orderTypes: definition.orderTypes ? [...definition.orderTypes] : null,
        status: definition.status,
        statusField: definition.statusField,
        payload: definition.orderTypes ? forOrderType(definition.payload, definition.orderTypes) : plain(definition.payload),
      });
      continue;
    }
    if (!existing.orderTypes || !definition.orderTypes) throw new Error(`${definition.name}: defined twice`);
    // Same name, another shape (order.completed): one entry whose payload is one of the shapes.
    if (existing.status !== definition.status) throw new Error(`${definition.name}: variants report different statuses`);
    const previous = existing.payload.oneOf as JsonSchema[] | undefined;
    const first = previous ?? [{ ...existing.payload, title: `${existing.name} (${existing.orderTypes.join(', ')})`, description: existing.description }];
    existing.payload = {
      oneOf: [
        ...first,
        { ...forOrderType(definition.payload, definition.orderTypes, `${definition.name} (${definition.orderTypes.join(', ')})`), description: definition.description },
      ],
    };
    existing.orderTypes = [...new Set([...existing.orderTypes, ...definition.orderTypes])];
    existing.description = `The order completed; the fields depend on the order type. ${(existing.payload.oneOf as JsonSchema[]).map((variant) => variant.description).join('. ')}`;
  }
  return { entries, names: entries.map((entry) => entry.name) };
}
