/**
 * The order events of the spec (Events, Order events), defined once: the emitters build their
 * payloads from these definitions, and the webhook catalog (GET /webhook/events) and the OpenAPI
 * document's `webhooks` section publish them. Each payload is closed (additionalProperties false:
 * the spec's payloads are flat objects with a fixed field list) and every field is required, with
 * `event`, `type` and `status` fixed to what the event reports, so a receiver's types narrow on them.
 */
import { Type, type TProperties } from 'typebox';
import { OrderTypeField } from '../../http/schemas.ts';
import type { EventDefinition } from '../../platform/outbox.ts';

export const ORDER_EVENT_COMMON_FIELDS = {
  event: Type.String({ description: 'Event name' }),
  orderId: Type.String({ format: 'uuid', description: 'Order identifier' }),
  externalId: Type.Union([Type.String(), Type.Null()], { description: "The merchant's reference of the order (null when none was given)" }),
  type: OrderTypeField,
  status: Type.String({ description: 'Order status the event reports' }),
  timestamp: Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' }),
  deliveryId: Type.String({ description: 'Unique identifier of the delivery; stable across retries' }),
};

type OrderType = 'PAYIN' | 'PAYOUT';
type OrderEventDefinition = EventDefinition & { category: 'order'; orderTypes: OrderType[]; status: string };

const define = (
  name: string,
  title: string,
  orderTypes: OrderType[],
  status: string,
  description: string,
  extra: TProperties,
): OrderEventDefinition => ({
  name,
  description,
  category: 'order',
  orderTypes,
  status,
  statusField: 'status',
  payload: Type.Object(
    {
      ...ORDER_EVENT_COMMON_FIELDS,
      event: Type.Literal(name, { description: 'Event name' }),
      type: orderTypes.length === 1 ? Type.Literal(orderTypes[0]!, { description: 'Order type' }) : OrderTypeField,
      status: Type.Literal(status, { description: 'Order status the event reports' }),
      ...extra,
    },
    { title, description, additionalProperties: false },
  ),
});

const amountBrl = Type.Number({ description: 'BRL amount' });
const pixKey = Type.String({ description: 'PIX key the payout is sent to' });
const markupAmountBrl = Type.Number({ description: "BRL the merchant's partner markup took from amountBrl (0 when none), its revenue apart from its fees (the order's markup)" });

/**
 * Every order event, in the spec's order; order.completed has one shape per order type. The
 * spec's order.pix_sending names the provider's transaction id after the provider; ours is
 * `pspTransactionId` whatever the provider, so a receiver's code does not change with it.
 */
export function orderEventDefinitions(): OrderEventDefinition[] {
  return [
    define('order.payment_received', 'OrderPaymentReceivedEvent', ['PAYIN'], 'PAYMENT_RECEIVED', "The customer's PIX is confirmed and the conversion is queued", {
      amountBrl,
      pixEndToEndId: Type.String({ description: 'End-to-end id of the received PIX (32 characters)' }),
    }),
    define('order.deposit_received', 'OrderDepositReceivedEvent', ['PAYOUT'], 'DEPOSIT_RECEIVED', "The merchant's crypto deposit is detected on chain", {
      amountCrypto: Type.Number({ description: "What arrived on chain; more than the order's amountCrypto when over-paid (the excess is held for return)" }),
      txHash: Type.String({ description: 'Deposit transaction signature (base58)' }),
    }),
    define('order.processing', 'OrderProcessingEvent', ['PAYOUT'], 'PIX_SENDING', 'Deposit accepted and the outgoing PIX queued', { amountBrl, pixKey }),
    define('order.pix_sending', 'OrderPixSendingEvent', ['PAYOUT'], 'PIX_SENDING', 'The outgoing PIX is submitted to the payment provider', {
      amountBrl,
      pixKey,
      pspTransactionId: Type.String({ description: "The payment provider's (PSP's) transaction identifier of the PIX sent; the same field whatever the provider" }),
    }),
    define('order.completed', 'PayinCompletedEvent', ['PAYIN'], 'COMPLETED', 'PAYIN: the on-chain transfer to the receiver is confirmed', {
      amountBrl,
      amountToken: Type.Number({ description: 'Token amount transferred' }),
      targetToken: Type.String({ description: 'Token symbol' }),
      destinationWallet: Type.String({ description: "The receiver's wallet" }),
      txHash: Type.String({ description: 'Transfer transaction signature (base58)' }),
      markupAmountBrl,
    }),
    define('order.completed', 'PayoutCompletedEvent', ['PAYOUT'], 'COMPLETED', 'PAYOUT: the outgoing PIX is confirmed as received', {
      amountBrl,
      pixKey,
      pixEndToEndId: Type.String({ description: 'End-to-end id of the PIX sent' }),
      markupAmountBrl,
    }),
    define('order.failed', 'OrderFailedEvent', ['PAYIN', 'PAYOUT'], 'FAILED', 'The order failed', { failureReason: Type.String() }),
    define('order.refunding', 'OrderRefundingEvent', ['PAYIN'], 'REFUNDING', 'A payin failed after the PIX was received; a PIX refund starts automatically', {
      failureReason: Type.String(),
    }),
    define('order.refunded', 'OrderRefundedEvent', ['PAYIN'], 'REFUNDED', 'The PIX refund completed', { amountBrl }),
  ];
}
