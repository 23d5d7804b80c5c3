/**
 * Order, quote and order-transaction shapes (spec: Order, Order transaction; DESIGN.md §10).
 * Order percentage fields are PERCENT numbers (1.5 = 1.5 %), unlike fee tiers (fractions).
 */
import { Type } from 'typebox';
import { PageQuery } from '../../http/pagination.ts';
import { ORDER_TYPES } from '../../lib/order-types.ts';
import { StrictObject, Timestamp, Uuid } from '../../http/schemas.ts';
import { ORDER_STATUSES } from './tables.ts';


const OrderType = Type.Enum(ORDER_TYPES);
const Nullable = <T extends ReturnType<typeof Type.String | typeof Type.Number>>(schema: T) => Type.Union([schema, Type.Null()]);
const Percent = (description: string) => Type.Number({ description: `${description}, in percent (1.5 = 1.5 %)` });

export const BrlAmount = Type.Number({ exclusiveMinimum: 0, maximum: 1e13, description: 'BRL, at most 2 decimals' });
export const TokenAmount = Type.Number({ exclusiveMinimum: 0, maximum: 1e13, description: "Token units, at most the token's decimals (USDC: 6)" });
const Chain = Type.String({ minLength: 1, maxLength: 20, description: 'Blockchain network, lowercase; default solana' });
const Token = Type.String({ minLength: 1, maxLength: 10, description: 'Token symbol; default USDC' });
const ExternalId = Type.String({ minLength: 1, maxLength: 128, description: "Merchant's own reference; unique per merchant" });

export const OrderTransactionSchema = Type.Object(
  {
    id: Uuid(),
    type: Type.Enum(['PIX_IN', 'PIX_OUT', 'PIX_REFUND', 'CHAIN_DEPOSIT', 'CHAIN_TRANSFER'], {
      description: 'PIX_IN: customer PIX received; PIX_OUT: payout PIX; PIX_REFUND: refund of PIX_IN; CHAIN_DEPOSIT: merchant deposit; CHAIN_TRANSFER: tokens sent to the receiver',
    }),
    status: Type.Enum(['PENDING', 'CONFIRMED', 'FAILED']),
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
    type: OrderType,
    status: Type.Enum(ORDER_STATUSES),
    chain: Type.String(),
    createdAt: Timestamp(),
    updatedAt: Timestamp(),
    externalId: Nullable(Type.String()),
    receiverName: Type.String(),
    merchantName: Type.String(),
    amountBrl: Type.Number({ description: 'PAYIN: what the customer pays; PAYOUT: gross BRL value of the deposit' }),
    amountCrypto: Type.Number({ description: 'Token amount: sent to the receiver (PAYIN) or deposited (PAYOUT)' }),
    targetToken: Nullable(Type.String({ description: 'PAYIN only' })),
    sourceToken: Nullable(Type.String({ description: 'PAYOUT only' })),
    destinationWallet: Nullable(Type.String({ description: 'PAYIN only' })),
    depositAddress: Nullable(Type.String({ description: 'PAYOUT only: where the merchant deposits' })),
    paymentReference: Nullable(Type.String({ description: 'PAYIN: the PIX charge txid' })),
    exchangeRate: Type.Number({ description: 'BRL per token unit' }),
    feePercentage: Percent('Total fee (platform + merchant)'),
    netAmountBrl: Type.Number({ description: 'PAYIN: amount after fees, converted to tokens; PAYOUT: what the PIX pays' }),
    amountUsdc: Nullable(Type.Number({ description: 'Token amount when the token is USDC' })),
    amountToken: Type.Number(),
    platformFeePercentage: Percent('Platform fee'),
    platformFeeAmountBrl: Type.Number(),
    merchantFeePercentage: Percent('Merchant fee'),
    merchantFeeAmountBrl: Type.Number(),
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

export const QuoteBody = StrictObject({
  type: OrderType,
  chain: Type.Optional(Chain),
  token: Type.Optional(Token),
  amountBrl: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1e13, description: 'PAYIN: BRL the customer pays; PAYOUT: net BRL the PIX should pay. Exactly one of amountBrl and amountCrypto.' })),
  amountCrypto: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1e13, description: 'PAYIN: tokens the receiver should get; PAYOUT: tokens deposited. Exactly one of amountBrl and amountCrypto.' })),
  receiverId: Type.Optional(Uuid('Binds the quote to one receiver')),
});

export const QuoteSchema = Type.Object(
  {
    id: Uuid(),
    type: OrderType,
    chain: Type.String(),
    token: Type.String(),
    receiverId: Nullable(Type.String({ format: 'uuid' })),
    exchangeRate: Type.Number(),
    amountBrl: Type.Number({ description: 'The amountBrl an order using this quote must carry (PAYIN)' }),
    amountCrypto: Type.Number({ description: 'The amountCrypto an order using this quote must carry (PAYOUT)' }),
    feePercentage: Percent('Total fee'),
    platformFeePercentage: Percent('Platform fee'),
    merchantFeePercentage: Percent('Merchant fee'),
    platformFeeAmountBrl: Type.Number(),
    merchantFeeAmountBrl: Type.Number(),
    netAmountBrl: Type.Number(),
    expiresAt: Timestamp(),
    createdAt: Timestamp(),
  },
  { title: 'Quote' },
);

export const PayinBody = StrictObject({
  receiverId: Uuid(),
  amountBrl: BrlAmount,
  quoteId: Type.Optional(Uuid('A quote of type PAYIN for this amount; locks its rate and fees')),
  targetToken: Type.Optional(Token),
  chain: Type.Optional(Chain),
  destinationWallet: Type.Optional(Type.String({ minLength: 32, maxLength: 44, description: "Solana address; default the receiver's wallet" })),
  externalId: Type.Optional(ExternalId),
});

export const PIX_KEY_TYPES = ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'EVP'] as const;

export const PayoutBody = StrictObject({
  receiverId: Uuid(),
  amountCrypto: TokenAmount,
  sourceToken: Token,
  quoteId: Type.Optional(Uuid('A quote of type PAYOUT for this amount; locks its rate and fees')),
  chain: Type.Optional(Chain),
  pixKey: Type.Optional(Type.String({ minLength: 1, maxLength: 77, description: "Default: the receiver's document as a CPF or CNPJ key" })),
  pixKeyType: Type.Optional(Type.Enum(PIX_KEY_TYPES, { description: 'Required with pixKey' })),
  recipientName: Type.Optional(Type.String({ minLength: 2, maxLength: 255, description: "Default: the receiver's name" })),
  externalId: Type.Optional(ExternalId),
});

export const OrderListQuery = StrictObject({
  ...PageQuery,
  type: Type.Optional(OrderType),
  status: Type.Optional(Type.Enum(ORDER_STATUSES)),
  receiverId: Type.Optional(Uuid()),
  externalId: Type.Optional(ExternalId),
  createdFrom: Type.Optional(Timestamp('Inclusive lower bound of createdAt')),
  createdTo: Type.Optional(Timestamp('Exclusive upper bound of createdAt')),
  startingAfter: Type.Optional(Uuid('Keyset pagination: the orders created just before this one (the next page after its last order); not with `page`')),
  endingBefore: Type.Optional(Uuid('Keyset pagination: the orders created just after this one (the previous page before its first order); not with `page`')),
});

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
