/**
 * GET /ledger/balances: what the merchant is owed and owes, from its own ledger accounts and its
 * orders. Every amount is decimal text (exact, never a float): BRL with two decimals, tokens
 * with the digits the ledger holds.
 */
import { Type } from 'typebox';
import { Nullable, OrderTypeField, Timestamp, Uuid } from '../../http/schemas.ts';
import { SettlementSchema } from './schemas.ts';

const BrlText = (description: string) => Type.String({ pattern: '^\\d+\\.\\d{2}$', description: `${description}; BRL, decimal text with two decimals, never negative` });
const TokenText = (description: string) => Type.String({ pattern: '^\\d+(\\.\\d+)?$', description: `${description}; decimal text, never negative` });

/** The stages an order passes while the platform holds its money, by type (balances-repo.ts maps statuses to them). */
export const IN_FLIGHT_STAGES = {
  PAYIN: {
    AWAITING_PIX: ['AWAITING_PAYMENT'],
    PIX_RECEIVED: ['PAYMENT_RECEIVED', 'SWAPPING', 'TRANSFERRING'],
    PIX_BEING_RETURNED: ['REFUNDING'],
  },
  PAYOUT: {
    AWAITING_DEPOSIT: ['AWAITING_DEPOSIT'],
    DEPOSIT_RECEIVED: ['DEPOSIT_RECEIVED', 'PIX_SENDING', 'PIX_SENT_UNCONFIRMED'],
  },
} as const;

export const TokenAmountSchema = Type.Object({ token: Type.String({ description: 'Token symbol' }), amount: TokenText('The amount of that token') }, { title: 'TokenAmount' });

export const InFlightStageSchema = Type.Object(
  {
    type: OrderTypeField,
    stage: Type.Enum(['AWAITING_PIX', 'PIX_RECEIVED', 'PIX_BEING_RETURNED', 'AWAITING_DEPOSIT', 'DEPOSIT_RECEIVED'], {
      description:
        'PAYIN: AWAITING_PIX (AWAITING_PAYMENT: no PIX yet), PIX_RECEIVED (PAYMENT_RECEIVED, SWAPPING, TRANSFERRING: the PIX arrived, the tokens are not yet confirmed on chain), PIX_BEING_RETURNED (REFUNDING). PAYOUT: AWAITING_DEPOSIT (no deposit yet), DEPOSIT_RECEIVED (DEPOSIT_RECEIVED, PIX_SENDING, PIX_SENT_UNCONFIRMED: the tokens arrived, the PIX is not yet confirmed paid)',
    }),
    statuses: Type.Array(Type.String(), { description: 'The order statuses the stage groups' }),
    count: Type.Integer({ minimum: 0, description: 'The merchant\'s orders in the stage now' }),
    amountBrl: BrlText('Their amountBrl summed'),
    tokens: Type.Array(TokenAmountSchema, { description: 'Their token amounts (amountCrypto) summed per token; empty when the stage has no order' }),
  },
  { title: 'InFlightStage' },
);

export const HeldDepositSchema = Type.Object(
  {
    token: Type.String({ description: 'Token symbol' }),
    amount: TokenText('Tokens deposited beyond what PAYOUTs ordered, held for return to the merchant: the balance of its `deposits_to_return` account'),
    orders: Type.Integer({ minimum: 0, description: 'PAYOUTs whose deposit brought an excess of that token' }),
  },
  { title: 'HeldExcessDeposit' },
);

export const BalancesSchema = Type.Object(
  {
    merchantId: Uuid(),
    asOf: Timestamp('When the figures were read'),
    unsettledFeesBrl: BrlText('Merchant fees collected and not yet settled: owed to the merchant by the next settlement (`balance` of GET /ledger/fees/balance, the `merchant_fees_payable` account)'),
    unsettledMarkupBrl: BrlText('Partner markup collected and not yet settled, paid with the fees by the next settlement (`markupBalance` of GET /ledger/fees/balance, the `merchant_markup_payable` account)'),
    chargebacksOwedBrl: BrlText('What the merchant owes for charge-backs of accepted MED claims, netted by the next settlement (`chargebacksOwed` of GET /ledger/fees/balance, the `merchant_chargebacks_owed` account)'),
    settlements: Type.Object(
      {
        count: Type.Integer({ minimum: 0, description: 'Settlements made for the merchant' }),
        totalBrl: BrlText('What they settled, summed (their `amountBrl`)'),
        unpaidBrl: BrlText('Of that, what their PIX has not paid yet (settlements not PAID: waiting for a key, being sent, or refused and owed again; the `merchant_settlements` account)'),
        lastAt: Nullable(Timestamp('When the latest was made; null before the first')),
        latest: Type.Union([SettlementSchema, Type.Null()], { description: 'The latest settlement, with its payment status and PIX reference; null before the first' }),
      },
      { title: 'BalancesSettlements', description: 'The settlements themselves: GET /ledger/settlements' },
    ),
    excessDepositsHeld: Type.Array(HeldDepositSchema, { description: 'Per token, excess PAYOUT deposits the platform holds for return; tokens with nothing held are left out' }),
    inFlight: Type.Array(InFlightStageSchema, { description: 'Every stage of both order types, in the order an order passes them; zeros for a stage with no order' }),
  },
  { title: 'MerchantBalances' },
);
