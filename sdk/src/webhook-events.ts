/**
 * The events a webhook delivery carries, as types generated from the contract: the OpenAPI
 * document's `webhooks` section (docs/openapi.json, one entry per event of the service's catalog,
 * `GET /webhook/events`), which openapi-typescript emits as the `webhooks` interface of
 * generated/openapi.ts. Nothing here is written by hand but the names: a field the service adds,
 * removes or renames changes these types at the next `npm run sdk:generate`.
 *
 * Payloads are flat and closed: every field at the root and always present, `event` the event's
 * name, and `deliveryId` (the `webhook-id` header, stable across retries: de-duplicate on it).
 */
import type { webhooks } from './generated/openapi.ts';

/** Every event name the service can send. */
export type WebhookEventName = keyof webhooks;

/** The payload of event `N`, the body of the POST its `webhooks` entry documents. */
export type WebhookPayload<N extends WebhookEventName> = webhooks[N]['post'] extends { requestBody: { content: { 'application/json': infer P } } } ? P : never;

/** Every event; narrow on `event` (and on `type` for order.completed). */
export type WebhookEvent = { [N in WebhookEventName]: WebhookPayload<N> }[WebhookEventName];

export type OrderPaymentReceived = WebhookPayload<'order.payment_received'>;
export type OrderDepositReceived = WebhookPayload<'order.deposit_received'>;
export type OrderProcessing = WebhookPayload<'order.processing'>;
/** `pspTransactionId`: the payment provider's id of the PIX sent, whatever the provider. */
export type OrderPixSending = WebhookPayload<'order.pix_sending'>;
export type OrderCompleted = WebhookPayload<'order.completed'>;
export type PayinCompleted = Extract<OrderCompleted, { type: 'PAYIN' }>;
export type PayoutCompleted = Extract<OrderCompleted, { type: 'PAYOUT' }>;
export type OrderFailed = WebhookPayload<'order.failed'>;
export type OrderRefunding = WebhookPayload<'order.refunding'>;
export type OrderRefunded = WebhookPayload<'order.refunded'>;
export type ReceiverKycApproved = WebhookPayload<'receiver.kyc_approved'>;
export type ReceiverKycRejected = WebhookPayload<'receiver.kyc_rejected'>;
/**
 * Extensions of the spec's catalog: MED 2.0 fraud claims on a PAYIN's PIX. `sequence` grows with
 * each event of one dispute (deliveries are unordered: keep the largest seen); `returnStatus` is
 * PENDING, PROCESSING, RETURNED or NOT_RETURNED.
 */
export type OrderDisputed = WebhookPayload<'order.disputed'>;
export type DisputeUpdated = WebhookPayload<'dispute.updated'>;
export type DisputeResolved = WebhookPayload<'dispute.resolved'>;
/** An order the service made from a standing instrument or a payout batch (`sourceKind`, `sourceId`). */
export type OrderCreated = WebhookPayload<'order.created'>;
export type WebhookTest = WebhookPayload<'webhook.test'>;
export type WebhookEndpointDisabled = WebhookPayload<'webhook.endpoint_disabled'>;

/** The names as a value (e.g. for an endpoint's `eventTypes`); the compiler holds it to `WebhookEventName`, both ways. */
export const WEBHOOK_EVENT_NAMES = [
  'order.payment_received',
  'order.deposit_received',
  'order.processing',
  'order.pix_sending',
  'order.completed',
  'order.failed',
  'order.refunding',
  'order.refunded',
  'receiver.kyc_approved',
  'receiver.kyc_rejected',
  'order.disputed',
  'dispute.updated',
  'dispute.resolved',
  'order.created',
  'webhook.test',
  'webhook.endpoint_disabled',
] as const satisfies readonly WebhookEventName[];

/** Fails to compile when the contract has an event the list above lacks. */
type Missing = Exclude<WebhookEventName, (typeof WEBHOOK_EVENT_NAMES)[number]>;
const everyName: [Missing] extends [never] ? true : Missing = true;
void everyName;
