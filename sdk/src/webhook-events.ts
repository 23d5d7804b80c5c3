/**
 * The events a webhook delivery carries (spec, Events; the service's catalog is
 * `GET /webhook/events`, whose payload schemas the OpenAPI document does not spell out).
 * Payloads are flat: every field at the root, `event` first and `deliveryId` (the `webhook-id`
 * header, stable across retries: de-duplicate on it) last. test/sdk/webhooks.test.ts checks
 * these names against the running service's catalog.
 */

type OrderType = 'PAYIN' | 'PAYOUT';

interface OrderEventBase<E extends string, T extends OrderType, S extends string> {
  event: E;
  orderId: string;
  /** The merchant's reference of the order, null when none was given. */
  externalId: string | null;
  type: T;
  status: S;
  /** ISO 8601 UTC with milliseconds: compare it, deliveries are not ordered across retries. */
  timestamp: string;
  deliveryId: string;
}

export type OrderPaymentReceived = OrderEventBase<'order.payment_received', 'PAYIN', 'PAYMENT_RECEIVED'> & { amountBrl: number; pixEndToEndId: string };
export type OrderDepositReceived = OrderEventBase<'order.deposit_received', 'PAYOUT', 'DEPOSIT_RECEIVED'> & { amountCrypto: number; txHash: string };
export type OrderProcessing = OrderEventBase<'order.processing', 'PAYOUT', 'PIX_SENDING'> & { amountBrl: number; pixKey: string };
/** The provider's transaction id field is named after it: `sandboxTransactionId`, `apiPixTransactionId`. */
export type OrderPixSending = OrderEventBase<'order.pix_sending', 'PAYOUT', 'PIX_SENDING'> & { amountBrl: number; pixKey: string } & Record<`${string}TransactionId`, string>;
export type PayinCompleted = OrderEventBase<'order.completed', 'PAYIN', 'COMPLETED'> & {
  amountBrl: number;
  amountToken: number;
  targetToken: string;
  destinationWallet: string;
  txHash: string;
};
export type PayoutCompleted = OrderEventBase<'order.completed', 'PAYOUT', 'COMPLETED'> & { amountBrl: number; pixKey: string; pixEndToEndId: string };
export type OrderFailed = OrderEventBase<'order.failed', OrderType, 'FAILED'> & { failureReason: string };
export type OrderRefunding = OrderEventBase<'order.refunding', 'PAYIN', 'REFUNDING'> & { failureReason: string };
export type OrderRefunded = OrderEventBase<'order.refunded', 'PAYIN', 'REFUNDED'> & { amountBrl: number };

interface ReceiverEventBase<E extends string, S extends string> {
  event: E;
  receiverId: string;
  type: 'PF' | 'PJ';
  name: string;
  email: string;
  kycStatus: S;
  kycReviewedAt: string;
  timestamp: string;
  deliveryId: string;
}

export type ReceiverKycApproved = ReceiverEventBase<'receiver.kyc_approved', 'APPROVED'>;
export type ReceiverKycRejected = ReceiverEventBase<'receiver.kyc_rejected', 'REJECTED'> & { kycRejectionReason: string };

/** Extensions of the spec's catalog: MED 2.0 fraud claims on a PAYIN's PIX (one flat payload for the three). */
interface DisputeEventBase<E extends string> {
  event: E;
  disputeId: string;
  orderId: string;
  externalId: string | null;
  type: 'PAYIN';
  status: 'OPEN' | 'DEFENDED' | 'ACCEPTED' | 'REJECTED' | 'CANCELLED';
  /** The order's status when the event was recorded. */
  orderStatus: string;
  amountBrl: number;
  reason: string;
  defenseDeadline: string;
  /** Whether the claim stopped the order before its tokens left. */
  orderHeld: boolean;
  outcome: 'ORDER_REFUNDED' | 'CHARGED_BACK' | 'ALREADY_REFUNDED' | 'RELEASED' | 'NO_EFFECT' | null;
  returnStatus: string | null;
  timestamp: string;
  deliveryId: string;
}

export type OrderDisputed = DisputeEventBase<'order.disputed'>;
export type DisputeUpdated = DisputeEventBase<'dispute.updated'>;
export type DisputeResolved = DisputeEventBase<'dispute.resolved'>;

export interface WebhookTest {
  event: 'webhook.test';
  endpointId: string;
  message: string;
  timestamp: string;
  deliveryId: string;
}

export interface WebhookEndpointDisabled {
  event: 'webhook.endpoint_disabled';
  endpointId: string;
  url: string;
  reason: 'GONE' | 'FAILING';
  message: string;
  failingSince: string | null;
  timestamp: string;
  deliveryId: string;
}

/** Every event; narrow on `event` (and on `type` for order.completed). */
export type WebhookEvent =
  | OrderPaymentReceived
  | OrderDepositReceived
  | OrderProcessing
  | OrderPixSending
  | PayinCompleted
  | PayoutCompleted
  | OrderFailed
  | OrderRefunding
  | OrderRefunded
  | ReceiverKycApproved
  | ReceiverKycRejected
  | OrderDisputed
  | DisputeUpdated
  | DisputeResolved
  | WebhookTest
  | WebhookEndpointDisabled;

export type WebhookEventName = WebhookEvent['event'];

/** The names above as a value (e.g. for an endpoint's `eventTypes`). */
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
  'webhook.test',
  'webhook.endpoint_disabled',
] as const satisfies readonly WebhookEventName[];
