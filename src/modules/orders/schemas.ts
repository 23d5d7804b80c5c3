/**
 * Order and order-transaction shapes (spec: Order, Order transaction; DESIGN.md §10). Order
 * percentage fields are PERCENT numbers (1.5 = 1.5 %), unlike fee tiers (fractions). The status
 * enum is the spec's whole list, PENDING included, although PENDING is never stored
 * (db/schema.ts, StoredOrderStatus): a filter on it simply finds nothing.
 */
import { Type } from 'typebox';
import { ORDER_STATUSES, ORDER_TRANSACTION_STATUSES, ORDER_TRANSACTION_TYPES } from './tables.ts';
import { PageQuery } from '../../http/pagination.ts';
import { BrlAmountInput, ChainField, HumanName, Nullable, OrderTypeField, FeeFraction, StrictObject, Timestamp, TokenAmountInput, TokenField, Uuid } from '../../http/schemas.ts';
import { OrderMarkupSchema } from '../markups/schemas.ts';

/**
 * The enums every order-shaped answer and filter shares. Each has a `title`, so the OpenAPI
 * document holds it once, as a component every use refers to (http/openapi-components.ts).
 */
export const OrderStatusSchema = Type.Enum(ORDER_STATUSES, {
  title: 'OrderStatus',
  description: 
    "The order's status. A PAYIN goes AWAITING_PAYMENT → PAYMENT_RECEIVED → SWAPPING → TRANSFERRING → COMPLETED, a PAYOUT AWAITING_DEPOSIT → DEPOSIT_RECEIVED → PIX_SENDING → PIX_SENT_UNCONFIRMED → COMPLETED; EXPIRED, FAILED, REFUNDING and REFUNDED are the other outcomes. PENDING is the spec's but never reported: an order is created in its first awaiting status",
});
export const OrderTransactionTypeSchema = Type.Enum(ORDER_TRANSACTION_TYPES, {
  title: 'OrderTransactionType',
  description:
    'PIX_IN: customer PIX received; PIX_OUT: payout PIX; PIX_REFUND: refund of PIX_IN; CHAIN_DEPOSIT: merchant deposit (the amount that arrived); CHAIN_TRANSFER: tokens sent to the receiver; ' +
    'CHAIN_DEPOSIT_EXCESS: the part of a PAYOUT deposit beyond the ordered amountCrypto, held for return to the merchant (status HELD)',
});
export const OrderTransactionStatusSchema = Type.Enum(ORDER_TRANSACTION_STATUSES, {
  title: 'OrderTransactionStatus',
  description: 'HELD: only CHAIN_DEPOSIT_EXCESS, tokens kept apart until an operator returns them',
});

const ExternalId = Type.String({ minLength: 1, maxLength: 128, description: "Merchant's own reference; unique per merchant" });

export const OrderTransactionSchema = Type.Object(
  {
    id: Uuid(),
    type: OrderTransactionTypeSchema,
    status: OrderTransactionStatusSchema,
    amount: Type.Number(),
    currency: Type.String({ description: 'BRL or the token symbol' }),
    createdAt: Timestamp(),
    chain: Nullable(Type.String()),
    txHash: Nullable(Type.String({ description: 'Chain signature (base58), or the PIX endToEndId for PIX movements' })),
  },
  { title: 'OrderTransaction' },
);

export const OrderSchema = Type.Object(
  {
    id: Uuid(),
    merchantId: Uuid(),
    receiverId: Uuid(),
    type: OrderTypeField,
    status: OrderStatusSchema,
    chain: Type.String(),
    createdAt: Timestamp(),
    updatedAt: Timestamp(),
    externalId: Nullable(Type.String()),
    receiverName: Type.String(),
    merchantName: Type.String(),
    amountBrl: Type.Number({ description: 'PAYIN: what the customer pays; PAYOUT: gross BRL value of the deposit' }),
    amountCrypto: Type.Number({
      description:
        'Token amount: sent to the receiver (PAYIN), or the deposit the PAYOUT is priced on. A PAYOUT deposit of less is re-priced down at the locked rate; a deposit of more completes the order for the amount ordered and the excess is held for return (a CHAIN_DEPOSIT_EXCESS transaction, HELD)',
    }),
    targetToken: Nullable(Type.String({ description: 'PAYIN only' })),
    sourceToken: Nullable(Type.String({ description: 'PAYOUT only' })),
    destinationWallet: Nullable(Type.String({ description: 'PAYIN only' })),
    depositAddress: Nullable(Type.String({ description: 'PAYOUT only: where the merchant deposits' })),
    paymentReference: Nullable(Type.String({ description: 'PAYIN: the PIX charge txid' })),
    exchangeRate: Type.Number({ description: 'BRL per token unit' }),
    feePercentage: FeeFraction('Total fee (platformFeePercentage + merchantFeePercentage)'),
    netAmountBrl: Type.Number({ description: 'PAYIN: amount after fees, converted to tokens; PAYOUT: what the PIX pays' }),
    amountUsdc: Nullable(Type.Number({ description: 'Token amount when the token is USDC' })),
    amountToken: Type.Number(),
    platformFeePercentage: FeeFraction('Platform fee'),
    platformFeeAmountBrl: Type.Number(),
    merchantFeePercentage: FeeFraction('Merchant fee'),
    merchantFeeAmountBrl: Type.Number(),
    markup: OrderMarkupSchema,
    pixPaymentCode: Nullable(Type.String({ description: 'PAYIN: PIX copy-and-paste code for exactly amountBrl' })),
    pixKey: Nullable(Type.String({ description: 'PAYOUT only' })),
    recipientName: Nullable(Type.String({ description: 'PAYOUT only' })),
    failureReason: Nullable(Type.String()),
    expiresAt: Timestamp(),
    completedAt: Nullable(Timestamp()),
    transactions: Type.Array(OrderTransactionSchema),
  },
  { $id: 'Order', title: 'Order' },
);

export const PayinBody = StrictObject({
  receiverId: Uuid(),
  amountBrl: BrlAmountInput('What the customer pays'),
  quoteId: Type.Optional(Uuid('A quote of type PAYIN for this amount; locks its rate and fees')),
  targetToken: Type.Optional(TokenField),
  chain: Type.Optional(ChainField),
  destinationWallet: Type.Optional(Type.String({ minLength: 32, maxLength: 44, description: "Solana address; default the receiver's wallet, and under the merchant's RECEIVER_ONLY destination policy no other" })),
  externalId: Type.Optional(ExternalId),
}, { title: 'CreatePayinRequest' });

export const PIX_KEY_TYPES = ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'EVP'] as const;

export const PayoutBody = StrictObject({
  receiverId: Uuid(),
  amountCrypto: TokenAmountInput('What the merchant deposits'),
  sourceToken: Type.String({ minLength: 1, maxLength: 10, description: 'Required: the token symbol the deposit is made in, e.g. USDC' }),
  quoteId: Type.Optional(Uuid('A quote of type PAYOUT for this amount; locks its rate and fees')),
  chain: Type.Optional(ChainField),
  pixKey: Type.Optional(Type.String({ minLength: 1, maxLength: 77, description: "Default: the receiver's document as a CPF or CNPJ key. Under the merchant's RECEIVER_ONLY destination policy, a key held by the receiver only" })),
  pixKeyType: Type.Optional(Type.Enum(PIX_KEY_TYPES, { title: 'PixKeyType', description: 'Required with pixKey' })),
  recipientName: Type.Optional(HumanName("Default: the receiver's name")),
  externalId: Type.Optional(ExternalId),
}, { title: 'CreatePayoutRequest' });

/** Plain decimal text with at most 2 decimals: a BRL bound of a filter, compared as NUMERIC. */
const BrlBound = (description: string) =>
  Type.String({ pattern: '^\\d{1,13}(\\.\\d{1,2})?$', maxLength: 16, description: `${description}; BRL as plain decimal text ("100.50"), at most 2 decimals, compared exactly (NUMERIC)` });

/** The filters of GET /orders, and of GET /orders/export, which takes the same. */
export const ORDER_FILTERS = {
  type: Type.Optional(OrderTypeField),
  status: Type.Optional(OrderStatusSchema),
  receiverId: Type.Optional(Uuid()),
  externalId: Type.Optional(ExternalId),
  createdFrom: Type.Optional(Timestamp('Inclusive lower bound of createdAt')),
  createdTo: Type.Optional(Timestamp('Exclusive upper bound of createdAt')),
  amountBrlMin: Type.Optional(BrlBound('Inclusive lower bound of amountBrl. The exact total of an amount range counts every order of the merchant: on a long history, send it with createdFrom')),
  amountBrlMax: Type.Optional(BrlBound('Inclusive upper bound of amountBrl; not below amountBrlMin (400)')),
};

export const OrderListQuery = StrictObject({
  ...PageQuery,
  ...ORDER_FILTERS,
  startingAfter: Type.Optional(Uuid('Keyset pagination: the orders created just before this one (the next page after its last order); not with `page`')),
  endingBefore: Type.Optional(Uuid('Keyset pagination: the orders created just after this one (the previous page before its first order); not with `page`')),
});

export const OrderExportQuery = StrictObject(ORDER_FILTERS);

export const OrderPageSchema = Type.Object(
  {
    data: Type.Array(OrderSchema),
    total: Type.Integer({ description: 'Number of orders matching the filters' }),
    page: Type.Integer(),
    limit: Type.Integer(),
    hasMore: Type.Boolean({ description: 'More orders follow in this direction: pass the last id as `startingAfter` (or the first as `endingBefore`)' }),
  },
  { title: 'OrderPage' },
);
