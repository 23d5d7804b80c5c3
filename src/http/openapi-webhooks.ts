/**
 * The OpenAPI 3.1 `webhooks` section: one entry per event of the webhook catalog, the POST the
 * service makes to a merchant's endpoint, its body the event's payload schema. Built from the
 * catalog's entries, the very ones GET /webhook/events serves (modules/webhooks/catalog.ts), which
 * the composition root hands over: the document and the catalog cannot say different things. The
 * payload schemas carry titles, so hoisting (openapi-components.ts) makes each a component that a
 * generator names (`OrderPaymentReceivedEvent`, ...).
 */

/** What the section needs of a catalog entry (http/ knows no module: the shape, not the type). */
export interface WebhookCatalogEntry {
  name: string;
  description: string;
  category: string;
  payload: Record<string, unknown>;
}

export const WEBHOOK_EVENTS_TAG = 'Webhook Events';

/** The Standard Webhooks headers of every delivery (docs/architecture/webhooks.md). */
export const WEBHOOK_HEADER_PARAMETERS = {
  WebhookId: {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: "The delivery's id, equal to the payload's `deliveryId` and stable across retries: de-duplicate on it",
    schema: { type: 'string' },
  },
  WebhookTimestamp: {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'When this attempt was signed, Unix seconds; refuse one more than 5 minutes off (replays)',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  WebhookSignature: {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      '`v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}` under the base64-decoded part of the endpoint secret after `whsec_`; two, space-separated, during the 24 h after a secret rotation. Verify the raw body before parsing it (Standard Webhooks; the SDK\'s `verifyWebhook`)',
    schema: { type: 'string' },
  },
} as const;

const HEADER_REFS = Object.keys(WEBHOOK_HEADER_PARAMETERS).map((name) => ({ $ref: `#/components/parameters/${name}` }));

/** `order.payment_received` → `orderPaymentReceivedWebhook`. */
const operationIdOf = (name: string) => `${name.replace(/[._]([a-z])/g, (_m, letter: string) => letter.toUpperCase())}Webhook`;

/** The `webhooks` section: each event a POST with its payload as the body, any 2xx meaning received. */
export function webhooksSection(entries: readonly WebhookCatalogEntry[]): Record<string, unknown> {
  return Object.fromEntries(
    entries.map((entry) => [
      entry.name,
      {
        post: {
          operationId: operationIdOf(entry.name),
          tags: [WEBHOOK_EVENTS_TAG],
          summary: `${entry.name} (${entry.category} event)`,
          description: `${entry.description}.\n\nPOSTed to every enabled endpoint that subscribes to \`${entry.name}\`, signed per Standard Webhooks. Delivery is at least once and unordered: de-duplicate on \`deliveryId\`.`,
          security: [],
          parameters: HEADER_REFS,
          requestBody: { required: true, content: { 'application/json': { schema: entry.payload } } },
          responses: {
            '2XX': { description: 'Received: any 2xx within 10 s acknowledges the delivery (the body is not read). Anything else, a redirect included, is retried with back-off' },
          },
        },
      },
    ]),
  );
}
