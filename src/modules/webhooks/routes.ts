import { Type } from 'typebox';
import { merchantIdOf } from '../../http/auth.ts';
import { PageOf } from '../../http/pagination.ts';
import { AUTHENTICATED_ERRORS, BODY_ERRORS, IdParams, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import {
  CatalogSchema,
  CreatedEndpointSchema,
  DeliverySchema,
  EndpointListSchema,
  EndpointSchema,
  MAX_ENDPOINTS_PER_MERCHANT,
  RecoverBodySchema,
  RecoverResultSchema,
  RotatedSecretSchema,
  VERIFY_HELP,
  eventNamingSchemas,
} from './schemas.ts';
import type { WebhooksService } from './service.ts';

const tags = ['Webhook Config'];

export function registerWebhookRoutes(app: App, webhooks: WebhooksService): void {
  const { CreateEndpointBody, UpdateEndpointBody, DeliveryListQuery } = eventNamingSchemas(webhooks.eventNames);
  app.get(
    '/webhook/events',
    {
      schema: {
        tags,
        summary: 'The canonical catalog of webhook events',
        description:
          'Every event the service can send: name, description, the order types it concerns, the status it reports and the JSON Schema of its flat payload (all fields at the root; `deliveryId` identifies the delivery). Generated from the definitions the service emits from, the same that make the `webhooks` section of this document. It may list events the spec does not yet (e.g. `webhook.test`).',
        response: { 200: CatalogSchema, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async () => webhooks.catalog(),
  );

  app.post(
    '/webhook/endpoints',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Register a webhook endpoint',
        description: `Answers the endpoint with its signing \`secret\`, shown this once. Optional \`eventTypes\` filter (absent or null: every event). An endpoint receives the events that happen after its creation. At most ${MAX_ENDPOINTS_PER_MERCHANT} endpoints per merchant (409 CONFLICT). A refused URL is 400 VALIDATION_ERROR with \`details["body.url"]\`. ${VERIFY_HELP}`,
        body: CreateEndpointBody,
        response: { 201: CreatedEndpointSchema, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await webhooks.createEndpoint(merchantIdOf(request), request.body, request.idempotency)),
  );

  app.get(
    '/webhook/endpoints',
    {
      schema: {
        tags,
        summary: "The merchant's webhook endpoints, oldest first",
        description: 'Secrets are never shown here: only at creation and rotation.',
        response: { 200: EndpointListSchema, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => webhooks.listEndpoints(merchantIdOf(request)),
  );

  app.get(
    '/webhook/endpoints/:id',
    {
      schema: { tags, summary: 'One webhook endpoint', params: IdParams, response: { 200: EndpointSchema, ...errorResponses(...AUTHENTICATED_ERRORS, 400, 404) } },
    },
    async (request) => webhooks.getEndpoint(merchantIdOf(request), request.params.id),
  );

  app.patch(
    '/webhook/endpoints/:id',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Change a webhook endpoint',
        description:
          'At least one field. A new `url` is checked like at creation. `eventTypes: null` removes the filter. Disabling stops new deliveries; pending ones wait and resume when re-enabled. Answers the updated endpoint.',
        params: IdParams,
        body: UpdateEndpointBody,
        response: { 200: EndpointSchema, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 404) },
      },
    },
    async (request) => webhooks.updateEndpoint(merchantIdOf(request), request.params.id, request.body),
  );

  app.delete(
    '/webhook/endpoints/:id',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Delete a webhook endpoint',
        description: 'Its pending deliveries end FAILED; the delivery log keeps its history. 204 without a body.',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(...AUTHENTICATED_ERRORS, 400, 404) },
      },
    },
    async (request, reply) => {
      await webhooks.deleteEndpoint(merchantIdOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/webhook/endpoints/:id/rotate-secret',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: "Rotate an endpoint's signing secret",
        description:
          'Answers the new secret, shown this once. For 24 h (`previousSecretExpiresAt`) every delivery carries two signatures in `webhook-signature`, one per secret, so a receiver verifying with either keeps working while it switches; then only the new one. Rotating again within those 24 h drops the older previous secret at once.',
        params: IdParams,
        response: { 200: RotatedSecretSchema, ...errorResponses(...AUTHENTICATED_ERRORS, 400, 404) },
      },
    },
    async (request) => webhooks.rotateSecret(merchantIdOf(request), request.params.id, request.idempotency),
  );

  app.post(
    '/webhook/endpoints/:id/test',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Send a webhook.test event to an endpoint',
        description: `Records a \`webhook.test\` event and schedules its delivery to this endpoint only, due at once (the worker sends it; retried like any delivery). Answers 202 with the delivery; follow it in GET /webhook/deliveries. ${VERIFY_HELP}`,
        params: IdParams,
        response: { 202: DeliverySchema, ...errorResponses(...AUTHENTICATED_ERRORS, 400, 404) },
      },
    },
    async (request, reply) => reply.code(202).send(await webhooks.sendTest(merchantIdOf(request), request.params.id, request.idempotency)),
  );

  app.get(
    '/webhook/deliveries',
    {
      schema: {
        tags,
        summary: 'The delivery log, newest first',
        description:
          'One delivery per event and endpoint, with every attempt (time, HTTP status, latency, error, the first KiB of the answer). Filters: `status`, `event`, `endpointId`, `orderId`.',
        querystring: DeliveryListQuery,
        response: { 200: PageOf(DeliverySchema, 'WebhookDeliveryPage'), ...errorResponses(...AUTHENTICATED_ERRORS, 400) },
      },
    },
    async (request) => webhooks.listDeliveries(merchantIdOf(request), request.query),
  );

  app.get(
    '/webhook/deliveries/:id',
    {
      schema: { tags, summary: 'One delivery with its attempts', params: IdParams, response: { 200: DeliverySchema, ...errorResponses(...AUTHENTICATED_ERRORS, 400, 404) } },
    },
    async (request) => webhooks.getDelivery(merchantIdOf(request), request.params.id),
  );

  app.post(
    '/webhook/deliveries/:id/redeliver',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Deliver again, same deliveryId',
        description:
          'Schedules one more attempt now with the same `deliveryId` (receivers de-duplicate on it). A PENDING delivery keeps its remaining retries; a SUCCEEDED or FAILED one gets this single attempt. 409 CONFLICT while an attempt is in flight or when its endpoint was deleted. Answers 202 with the delivery.',
        params: IdParams,
        response: { 202: DeliverySchema, ...errorResponses(...AUTHENTICATED_ERRORS, 400, 404, 409) },
      },
    },
    async (request, reply) => reply.code(202).send(await webhooks.redeliver(merchantIdOf(request), request.params.id, request.idempotency)),
  );

  app.post(
    '/webhook/endpoints/:id/recover',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Re-queue the failed deliveries of an endpoint since a time',
        description:
          'After an outage of your receiver: every delivery to this endpoint that ended FAILED and was created at or after `since` is scheduled for one more attempt, due now, with its same `deliveryId` (receivers de-duplicate on it). Deliveries still PENDING keep their own schedule; SUCCEEDED ones are not sent again. A disabled endpoint keeps its re-queued deliveries until it is enabled again (PATCH `enabled: true`). Answers 202 with how many were re-queued.',
        params: IdParams,
        body: RecoverBodySchema,
        response: { 202: RecoverResultSchema, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 404) },
      },
    },
    async (request, reply) => reply.code(202).send(await webhooks.recover(merchantIdOf(request), request.params.id, new Date(request.body.since), request.idempotency)),
  );
}
