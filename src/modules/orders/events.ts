/**
 * The order events of the spec (Events, Order events), defined once: the emitters build their
 * payloads from these definitions and the webhook catalog publishes them.
 */
import { Type, type TProperties } from 'typebox';
import type { EventDefinition } from '../../platform/outbox.ts';

export const ORDER_EVENT_COMMON_FIELDS = {
  event: Type.String({ description: 'Event name' }),
  orderId: Type.String({ format: 'uuid', description: 'Order identifier' }),
  externalId: Type.Union([Type.String(), Type.Null()], { description: "The merchant's reference of the order (null when none was given)" }),
  type: Type.Enum(['PAYIN', 'PAYOUT']),
  status: Type.String({ description: 'Order status the event reports' }),
  timestamp: Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' }),
  deliveryId: Type.String({ description: 'Unique identifier of the delivery; stable across retries' }),
};

/** The PIX provider's name, which names the provider transaction id field (spec: order.pix_sending). */
export const providerTransactionIdField = (provider: string) => `${provider}TransactionId`;

type OrderEventDefinition = EventDefinition & { category: 'order'; orderTypes: Array<'PAYIN' | 'PAYOUT'>; status: string };

const define = (
  name: string,
  orderTypes: Array<'PAYIN' | 'PAYOUT'>,
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
  payload: Type.Object({ ...ORDER_EVENT_COMMON_FIELDS, ...extra }),
});

const amountBrl = Type.Number({ description: 'BRL amount' });
const pixKey = Type.String({ description: 'PIX key the payout is sent to' });

/** Every order event, in the spec's order. order.completed has one shape per order type. */
export function orderEventDefinitions(provider: string): OrderEventDefinition[] {
  return [
    define('order.payment_received', ['PAYIN'], 'PAYMENT_RECEIVED', "The customer's PIX is confirmed and the conversion is queued", {
      amountBrl,
      pixEndToEndId: Type.String({ description: 'End-to-end id of the received PIX (32 characters)' }),
    }),
    define('order.deposit_received', ['PAYOUT'], 'DEPOSIT_RECEIVED', "The merchant's crypto deposit is detected on chain", {
      amountCrypto: Type.Number({ description: "What arrived on chain; more than the order's amountCrypto when over-paid (the excess is held for return)" }),
      txHash: Type.String({ description: 'Deposit transaction signature (base58)' }),
    }),
    define('order.processing', ['PAYOUT'], 'PIX_SENDING', 'Deposit accepted and the outgoing PIX queued', { amountBrl, pixKey }),
    define('order.pix_sending', ['PAYOUT'], 'PIX_SENDING', 'The outgoing PIX is submitted to the payment provider', {
      amountBrl,
      pixKey,
      [providerTransactionIdField(provider)]: Type.String({ description: "The payment provider's transaction identifier" }),
    }),
    define('order.completed', ['PAYIN'], 'COMPLETED', 'PAYIN: the on-chain transfer to the receiver is confirmed', {
      amountBrl,
      amountToken: Type.Number(),
      targetToken: Type.String(),
      destinationWallet: Type.String(),
      txHash: Type.String(),
    }),
    define('order.completed', ['PAYOUT'], 'COMPLETED', 'PAYOUT: the outgoing PIX is confirmed as received', {
      amountBrl,
      pixKey,
      pixEndToEndId: Type.String(),
    }),
    define('order.failed', ['PAYIN', 'PAYOUT'], 'FAILED', 'The order failed', { failureReason: Type.String() }),
    define('order.refunding', ['PAYIN'], 'REFUNDING', 'A payin failed after the PIX was received; a PIX refund starts automatically', {
      failureReason: Type.String(),
    }),
    define('order.refunded', ['PAYIN'], 'REFUNDED', 'The PIX refund completed', { amountBrl }),
  ];
}
