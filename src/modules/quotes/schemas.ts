/**
 * Quote shapes (DESIGN.md §10, POST /quotes). Percentage fields are FRACTIONS (0.005 = 0.5 %),
 * as on orders and fee tiers.
 */
import { Type } from 'typebox';
import { BrlAmountInput, ChainField, Nullable, OrderTypeField, FeeFraction, StrictObject, Timestamp, TokenAmountInput, TokenField, Uuid } from '../../http/schemas.ts';
import { OrderMarkupSchema } from '../markups/schemas.ts';

export const QuoteBody = StrictObject({
  type: OrderTypeField,
  chain: Type.Optional(ChainField),
  token: Type.Optional(TokenField),
  amountBrl: Type.Optional(BrlAmountInput('PAYIN: BRL the customer pays; PAYOUT: net BRL the PIX should pay. Exactly one of amountBrl and amountCrypto')),
  amountCrypto: Type.Optional(TokenAmountInput('PAYIN: tokens the receiver should get; PAYOUT: tokens deposited. Exactly one of amountBrl and amountCrypto')),
  receiverId: Type.Optional(Uuid('Binds the quote to one receiver')),
}, { title: 'CreateQuoteRequest' });

export const QuoteSchema = Type.Object(
  {
    id: Uuid(),
    type: OrderTypeField,
    chain: Type.String(),
    token: Type.String(),
    receiverId: Nullable(Type.String({ format: 'uuid' })),
    exchangeRate: Type.Number(),
    amountBrl: Type.Number({ description: 'The amountBrl an order using this quote must carry (PAYIN)' }),
    amountCrypto: Type.Number({ description: 'The amountCrypto an order using this quote must carry (PAYOUT)' }),
    feePercentage: FeeFraction('Total fee (platformFeePercentage + merchantFeePercentage)'),
    platformFeePercentage: FeeFraction('Platform fee'),
    merchantFeePercentage: FeeFraction('Merchant fee'),
    platformFeeAmountBrl: Type.Number(),
    merchantFeeAmountBrl: Type.Number(),
    netAmountBrl: Type.Number(),
    markup: OrderMarkupSchema,
    expiresAt: Timestamp(),
    createdAt: Timestamp(),
  },
  { title: 'Quote' },
);
