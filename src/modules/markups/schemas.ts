/**
 * Partner markup shapes (issue 43, item 4; docs/decisions/0042-partner-markup.md): the merchant's
 * terms per order type, and the `markup` a quote and an order carry beside the spec's fee fields.
 */
import { Type } from 'typebox';
import { DecimalAmount, OrderTypeField, StrictObject, Timestamp } from '../../http/schemas.ts';
import { MAX_MARKUP_BPS } from '../../lib/markup.ts';

const MAX_MARKUP_BRL = '1000000';
const Bps = Type.Integer({ minimum: 0, maximum: MAX_MARKUP_BPS, description: `Basis points of the order's gross BRL (100 = 1 %), 0 to ${MAX_MARKUP_BPS}; the result rounds down to centavos` });

export const MarkupParams = StrictObject({ orderType: OrderTypeField });

export const MarkupBody = StrictObject(
  {
    bps: Bps,
    flatBrl: DecimalAmount({ places: 2, minimum: '0', maximum: MAX_MARKUP_BRL, description: 'A flat amount added to every order of this type, BRL' }),
    capBrl: Type.Union([DecimalAmount({ places: 2, minimum: '0', maximum: MAX_MARKUP_BRL, description: 'The most the markup of one order may be, BRL; at least flatBrl' }), Type.Null()], {
      description: 'The most the markup of one order may be, BRL, at least flatBrl; null: no cap',
    }),
  },
  { title: 'SetMarkupRequest' },
);

export const MerchantMarkupSchema = Type.Object(
  {
    orderType: OrderTypeField,
    bps: Bps,
    flatBrl: Type.Number({ description: 'BRL' }),
    capBrl: Type.Union([Type.Number(), Type.Null()], { description: 'BRL; null: no cap' }),
    updatedAt: Type.Union([Timestamp(), Type.Null()], { description: 'null: never set (no markup)' }),
  },
  { title: 'MerchantMarkup', description: "The merchant's markup terms for one order type: min(capBrl, ⌊gross × bps ÷ 10000⌋ + flatBrl)" },
);

export const MerchantMarkupList = Type.Array(MerchantMarkupSchema, { description: 'Both order types, PAYIN then PAYOUT' });

/** On quotes and orders: the terms locked at pricing and what they took; null when the merchant charges none. */
export const OrderMarkupSchema = Type.Union(
  [
    Type.Object(
      {
        bps: Type.Integer({ description: 'Basis points of amountBrl' }),
        flatBrl: Type.Number(),
        capBrl: Type.Union([Type.Number(), Type.Null()]),
        amountBrl: Type.Number({ description: "What the markup took from amountBrl, BRL: the merchant's revenue, apart from merchantFeeAmountBrl" }),
      },
      { title: 'OrderMarkup' },
    ),
    Type.Null(),
  ],
  {
    description:
      "The merchant's own markup (partner markup), taken from amountBrl beside the fees: amountBrl = platformFeeAmountBrl + merchantFeeAmountBrl + markup.amountBrl + netAmountBrl. Not part of feePercentage or the merchant fee. null: none.",
  },
);
