/**
 * The event each edge of the order process writes (process.ts), and how its spec fields come from
 * the order and the call's facts. The payloads' shapes are events.ts's definitions (the webhook
 * catalog); test/modules/orders/process.test.ts holds each builder to its definition's fields.
 */
import { toJsonNumber } from '../../../lib/money.ts';
import type { PersonalData } from '../../../lib/personal-data.ts';
import type { OrderRow, StoredOrderStatus } from '../tables.ts';
import type { MovementFigures, TransitionFacts } from './transition-facts.ts';

/**
 * What the builders may need beyond the order: the PIX key is sealed at rest (opened for the
 * payload, which the outbox seals again in the event: platform/event-payload-sealing.ts).
 */
export interface EventContext {
  personalData: Pick<PersonalData, 'openNullable' | 'seal'>;
}

export interface EventInput {
  /** The order as it was before the transition. */
  order: OrderRow;
  /** The first movement the transition records (the PIX, the deposit, the transfer), if any. */
  moved: MovementFigures | undefined;
  facts: TransitionFacts;
  ctx: EventContext;
}

export interface OrderEventDeclaration {
  name: string;
  /** The status the spec's table gives the event (order.pix_sending reports PIX_SENDING). */
  status: StoredOrderStatus;
  fields: (input: EventInput) => Record<string, unknown>;
}

function need<T>(value: T | undefined, what: string, event: string): T {
  if (value === undefined) throw new Error(`${event} needs ${what}`);
  return value;
}

const declare = (name: string, status: StoredOrderStatus, fields: OrderEventDeclaration['fields']): OrderEventDeclaration => ({ name, status, fields });
const moved = (input: EventInput, event: string) => need(input.moved, 'the movement', event);
const reason = (event: string) => (input: EventInput) => ({ failureReason: need(input.facts.reason, 'a reason', event) });
const pixKey = ({ order, ctx }: EventInput) => ctx.personalData.openNullable('account', order.pix_key);

export const ORDER_EVENTS = {
  paymentReceived: declare('order.payment_received', 'PAYMENT_RECEIVED', (input) => {
    const pix = moved(input, 'order.payment_received');
    return { amountBrl: toJsonNumber(pix.amount), pixEndToEndId: pix.txHash };
  }),
  // What arrived on chain, excess included (the spec: "the merchant's crypto deposit is detected").
  depositReceived: declare('order.deposit_received', 'DEPOSIT_RECEIVED', (input) => {
    const deposit = moved(input, 'order.deposit_received');
    return { amountCrypto: toJsonNumber(deposit.amount), txHash: deposit.txHash };
  }),
  processing: declare('order.processing', 'PIX_SENDING', (input) => ({ amountBrl: toJsonNumber(input.order.amount_brl), pixKey: pixKey(input) })),
  pixSending: declare('order.pix_sending', 'PIX_SENDING', (input) => ({
    amountBrl: toJsonNumber(input.order.amount_brl),
    pixKey: pixKey(input),
    pspTransactionId: need(
      input.facts.changes?.provider_transaction_id ?? undefined,
      "the provider's transaction id",
      'order.pix_sending',
    ),
  })),
  payinCompleted: declare('order.completed', 'COMPLETED', (input) => {
    const { order } = input;
    return {
      amountBrl: toJsonNumber(order.amount_brl),
      amountToken: toJsonNumber(order.amount_token),
      targetToken: order.token,
      destinationWallet: order.destination_wallet,
      txHash: moved(input, 'order.completed').txHash,
      markupAmountBrl: toJsonNumber(order.markup_amount_brl),
    };
  }),
  payoutCompleted: declare('order.completed', 'COMPLETED', (input) => ({
    amountBrl: toJsonNumber(input.order.amount_brl),
    pixKey: pixKey(input),
    pixEndToEndId: moved(input, 'order.completed').txHash,
    markupAmountBrl: toJsonNumber(input.order.markup_amount_brl),
  })),
  failed: declare('order.failed', 'FAILED', reason('order.failed')),
  // A PAYIN that cannot complete after its PIX arrived is refunded (spec: order.refunding).
  refunding: declare('order.refunding', 'REFUNDING', reason('order.refunding')),
  refunded: declare('order.refunded', 'REFUNDED', (input) => ({ amountBrl: toJsonNumber(moved(input, 'order.refunded').amount) })),
} as const;
