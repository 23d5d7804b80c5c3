/**
 * Where an order came from (migration 0062): the merchant's own API call, or an instrument the
 * service acts on for the merchant (issue 43): a standing deposit address whose deposit made a
 * PAYOUT, a standing PIX charge whose PIX made a PAYIN, a payout batch's item. Only orders the
 * service made itself announce their creation (`order.created`): the API's caller has its answer.
 *
 * Every order starts in its type's first status, whatever its source: an instrument's payment
 * then moves it by the same transitions as any other order's, so the state machine, the ledger
 * and the events do not change with the source.
 */
import { Type } from 'typebox';
import { OrderTypeField } from '../../http/schemas.ts';
import { toJsonNumber } from '../../lib/money.ts';
import { ORDER_SOURCE_KINDS, type OrderSourceKind } from '../../lib/order-types.ts';
import type { Trx } from '../../db/database.ts';
import { recordEvent, type EventDefinition } from '../../platform/outbox.ts';
import { ORDER_EVENT_COMMON_FIELDS } from './events.ts';
import type { OrderRow } from './tables.ts';

export { ORDER_SOURCE_KINDS, type OrderSourceKind };

/** An instrument that makes orders for the merchant; the API is not one. */
export interface OrderSource {
  kind: Exclude<OrderSourceKind, 'API'>;
  id: string;
}

/** The columns an order made by `source` is inserted with. */
export const sourceColumns = (source: OrderSource) => ({ source_kind: source.kind, source_id: source.id });

const FIRST_STATUSES = ['AWAITING_PAYMENT', 'AWAITING_DEPOSIT'] as const;

export const ORDER_CREATED_EVENT: EventDefinition = {
  name: 'order.created',
  description:
    'The service created an order for the merchant from one of its standing instruments (a deposit to a standing address, a PIX to a standing charge, a payout batch item); orders created by POST /payin or POST /payout are answered by their response instead and send no order.created',
  category: 'order',
  orderTypes: ['PAYIN', 'PAYOUT'],
  status: null,
  statusField: 'status',
  payload: Type.Object(
    {
      ...ORDER_EVENT_COMMON_FIELDS,
      event: Type.Literal('order.created', { description: 'Event name' }),
      type: OrderTypeField,
      status: Type.Enum(FIRST_STATUSES, { description: "The order's first status: AWAITING_PAYMENT for a PAYIN, AWAITING_DEPOSIT for a PAYOUT" }),
      amountBrl: Type.Number({ description: 'BRL amount' }),
      amountCrypto: Type.Number({ description: 'Token amount' }),
      token: Type.String({ description: 'Token symbol' }),
      sourceKind: Type.Enum(ORDER_SOURCE_KINDS.filter((kind) => kind !== 'API'), { description: 'What made the order' }),
      sourceId: Type.String({ format: 'uuid', description: 'The standing address, standing charge or payout batch that made it' }),
    },
    { title: 'OrderCreatedEvent', description: 'An order the service created from a standing instrument or a batch', additionalProperties: false },
  ),
};

/** In the transaction that inserts `order`, made by `source`. */
export async function recordOrderCreated(trx: Trx, order: OrderRow, source: OrderSource, at: Date): Promise<void> {
  await recordEvent(trx, {
    merchantId: order.merchant_id,
    event: ORDER_CREATED_EVENT.name,
    payload: {
      orderId: order.id,
      externalId: order.external_id,
      type: order.type,
      status: order.status,
      timestamp: at.toISOString(),
      amountBrl: toJsonNumber(order.amount_brl),
      amountCrypto: toJsonNumber(order.amount_token),
      token: order.token,
      sourceKind: source.kind,
      sourceId: source.id,
    },
  });
}
